"""The form of a mention used for the dense, sparse and fuzzy searches (`LinkerSettings.query_form`).

The exact-match look-up already folds dashes and spells out Greek letters (see `name_normalization`),
but the encoder and the TF-IDF indexes see the mention as written, while reference names mostly spell
Greek letters out (`Protein kinase C delta type`, `nPKC-delta`, `IFN-gamma`) and use ASCII hyphens.
- "as_written": the mention unchanged (the original behaviour);
- "ascii_dashes": Unicode NFKC, every dash and minus sign → "-" (`Siglec‐5` → `Siglec-5`);
- "spelled_greek": ascii_dashes, then Greek letters spelled out with "-" (`PKCδ` → `PKC-delta`);
- "spelled_greek_joined": the same without a separator (`PKCδ` → `PKCdelta`).
"""

import unicodedata
from typing import List, Sequence

from .greek import spell_out_greek
from .normalization import DASHES

QUERY_FORMS = ("as_written", "ascii_dashes", "spelled_greek", "spelled_greek_joined")
_DASH_TABLE = {ord(char): "-" for char in DASHES}


def query_form(text: str, form: str) -> str:
    """RETURNS (str): the mention in the given form (see the module doc)."""
    if form == "as_written":
        return text
    if form not in QUERY_FORMS:
        raise ValueError(f"query_form must be one of {QUERY_FORMS}, got {form!r}")
    text = unicodedata.normalize("NFKC", text).translate(_DASH_TABLE)
    if form == "spelled_greek":
        return spell_out_greek(text, separator="-")
    if form == "spelled_greek_joined":
        return spell_out_greek(text, separator="")
    return text


def query_forms(texts: Sequence[str], form: str) -> List[str]:
    """RETURNS (List[str]): `query_form` of each text."""
    return [query_form(text, form) for text in texts]
