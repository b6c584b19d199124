"""training.ner.ner_speed: captions/s and peak RSS of an NER pipeline alone."""
from pathlib import Path

import pytest
import spacy
from spacy.tokens import DocBin

from training.ner.ner_speed import caption_texts, measure, peak_rss_mb


def test_caption_texts_are_the_first_docs_and_an_empty_docbin_is_an_error(tmp_path: Path) -> None:
    nlp = spacy.blank("en")
    DocBin(docs=[nlp("a b"), nlp("c"), nlp("d e f")]).to_disk(tmp_path / "dev.spacy")
    assert caption_texts(tmp_path / "dev.spacy", 2) == ["a b", "c"]
    DocBin().to_disk(tmp_path / "empty.spacy")
    with pytest.raises(ValueError, match="no docs"):
        caption_texts(tmp_path / "empty.spacy", 2)


def test_measure_times_every_caption(tmp_path: Path) -> None:
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.to_disk(tmp_path / "nlp")
    result = measure(tmp_path / "nlp", ["One. Two."] * 10, batch_size=4, repeats=2)
    assert result["captions"] == 10 and len(result["seconds"]) == 2
    assert result["captions_per_s"] > 0 and result["peak_rss_mb"] == pytest.approx(peak_rss_mb(), rel=0.5)
