"""Normalisation of names for the exact-match short-cut and the encoder's input.

Two keys per string, from strict to loose:
- `strict_key`: Unicode NFKC, every dash and minus sign → "-", whitespace folded, case folded.
- `loose_key`: the strict key with Greek letters spelled out and everything but letters and digits
  removed, so `PLCγ2`, `PLC-gamma-2` and `plc gamma 2` all give `plcgamma2`.

And one between them, the characters a "fold" encoder reads (`folded_text`): the strict key with Greek
letters spelled out, punctuation and spaces kept, so `PLCγ2` gives `plc-gamma-2` and `Drp1` gives `drp1`.
"""

import re
import unicodedata

from .greek import spell_out_greek

DASHES = "\u002d\u00ad\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_DASH_TABLE = {ord(char): "-" for char in DASHES}
_SPACE_RE = re.compile(r"\s+")
_NON_ALNUM_RE = re.compile(r"[\W_]+")


def strict_key(text: str) -> str:
    """The strict matching key of a name.

    text (str): any string.
    RETURNS (str): NFKC-normalised, dashes unified, whitespace folded, case folded.
    """
    if text.isascii() and text.isprintable() and "  " not in text:
        # The same key, faster: NFKC and the dash table leave printable ASCII as it is, its only whitespace
        # is single spaces, and casefold() is lower().
        return text.strip().lower()
    text = unicodedata.normalize("NFKC", text).translate(_DASH_TABLE)
    return _SPACE_RE.sub(" ", text).strip().casefold()


def loose_key(text: str) -> str:
    """The loose matching key of a name: Greek spelled out, letters and digits only.

    text (str): any string.
    RETURNS (str): the key; empty when the string has no letter or digit.
    """
    text = spell_out_greek(unicodedata.normalize("NFKC", text), separator="")
    return _NON_ALNUM_RE.sub("", text).casefold()


def folded_text(text: str) -> str:
    """The encoder's input under the "fold" character normalisation: the strict key with Greek spelled out.

    text (str): any string.
    RETURNS (str): NFKC, dashes unified, whitespace folded, case folded, each Greek letter spelled out
        (`TGFβ` → `tgf-beta`, `β‐catenin` → `beta-catenin`, `Drp1` → `drp1`).
    """
    key = strict_key(text)
    return key if key.isascii() else spell_out_greek(key)
