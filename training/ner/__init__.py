"""NER step: the caption tokenizer, Bio-ID captions → DocBins, the NER report."""
