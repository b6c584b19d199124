"""A mention-swap augmenter for `spacy train` (not kept: results/ner/experiments/README.md, "A BiLSTM encoder;
mention-swap augmentation"). Pass this file as `--code`; importing it also registers the caption tokenizer:

    python -m spacy train results/ner/experiments/ner_mention_swap.cfg --output /tmp/nerexp/swap \
        --code experiments/mention_swap.py ...   # the train-ner step's other options
"""
import random
from typing import Callable, Dict, Iterator, List, Sequence, Set, Tuple

import spacy
from spacy.language import Language
from spacy.tokens import Doc, Token
from spacy.training import Example

import training.ner.bio_tokenizer  # noqa: F401  (registers nseen_bio.bio_tokenizer.v1, which the config calls)

MIN_POOL = 21  # distinct mention texts of a label seen before its mentions are swapped


@spacy.registry.augmenters("nseen_bio.mention_swap.v1")
def create_mention_swap(level: float, labels: List[str], seed: int = 0) -> Callable:
    """With probability `level` per caption, each mention of `labels` is replaced by another mention text of the same
    label seen earlier in the training stream (the same text by the same replacement within the caption)."""
    rng = random.Random(seed)
    pools: Dict[str, List[str]] = {label: [] for label in labels}
    seen: Dict[str, Set[str]] = {label: set() for label in labels}

    def augment(nlp: Language, example: Example) -> Iterator[Example]:
        ref = example.reference
        for ent in ref.ents:
            if ent.label_ in pools and ent.text not in seen[ent.label_]:
                seen[ent.label_].add(ent.text)
                pools[ent.label_].append(ent.text)
        if rng.random() >= level or not any(e.label_ in pools for e in ref.ents):
            yield example
            return
        words: List[str] = []
        spaces: List[bool] = []
        tags: List[str] = []
        chosen: Dict[Tuple[str, str], str] = {}
        i = 0
        starts = {e.start: e for e in ref.ents}
        while i < len(ref):
            ent = starts.get(i)
            if ent is None:
                words.append(ref[i].text)
                spaces.append(bool(ref[i].whitespace_))
                tags.append("O")
                i += 1
                continue
            pieces: Sequence[Token] = ent
            if ent.label_ in pools and len(pools[ent.label_]) >= MIN_POOL:
                key = (ent.text, ent.label_)
                if key not in chosen:
                    chosen[key] = rng.choice(pools[ent.label_])
                pieces = nlp.make_doc(chosen[key])
            for k, tok in enumerate(pieces):  # the mention's last token keeps the space after it in the caption
                words.append(tok.text)
                spaces.append(bool(tok.whitespace_) if k < len(pieces) - 1 else bool(ref[ent.end - 1].whitespace_))
                tags.append(("B-" if k == 0 else "I-") + ent.label_)
            i = ent.end
        new_ref = Doc(nlp.vocab, words=words, spaces=spaces, ents=tags)
        new_ref.user_data.update({k: v for k, v in ref.user_data.items() if isinstance(k, str)})
        yield Example(nlp.make_doc(new_ref.text), new_ref)

    return augment
