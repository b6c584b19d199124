"""Tokenizer rules for figure captions: split on the Unicode hyphens Bio-ID's captions use.

Bio-ID writes `anti‐LC3`, `GFP‐LC3‐positive` with U+2010 (not `-`), which spaCy's English infixes don't split,
so a quarter of the mentions would sit inside a token. `customize_tokenizer` adds these dashes as infixes
(between letters or digits) and U+2212 minus as a prefix. It is used by `training.ner_corpus` and, through
the `nseen_bio.bio_tokenizer.v1` callback in `configs/ner.cfg` (`[initialize.before_init]`, with
`--code training/bio_tokenizer.py`), by `spacy train`. The rules are saved with the tokenizer, so the trained
and packaged pipelines need no code for them (the assembled pipeline copies the NER model's tokenizer).
"""
from typing import Callable

import spacy
from spacy.language import Language
from spacy.util import compile_infix_regex, compile_prefix_regex

UNICODE_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2212"
EXTRA_INFIXES = [rf"(?<=[\w])[{UNICODE_DASHES}](?=[\w])"]
EXTRA_PREFIXES = ["\u2212"]


def customize_tokenizer(nlp: Language) -> Language:
    """Add the caption infix and prefix rules to `nlp.tokenizer` (idempotent)."""
    infixes = list(nlp.Defaults.infixes or [])
    prefixes = list(nlp.Defaults.prefixes or [])
    nlp.tokenizer.infix_finditer = compile_infix_regex(infixes + EXTRA_INFIXES).finditer
    nlp.tokenizer.prefix_search = compile_prefix_regex(EXTRA_PREFIXES + prefixes).search
    return nlp


@spacy.registry.callbacks("nseen_bio.bio_tokenizer.v1")
def make_bio_tokenizer_callback() -> Callable[[Language], Language]:
    """RETURNS (Callable[[Language], Language]): a `before_init` callback applying `customize_tokenizer`."""
    return customize_tokenizer
