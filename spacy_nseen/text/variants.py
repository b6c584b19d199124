"""Same-name syntactic variants (NSEEN §3.1): the noise a name picks up in text.

The paper's three: remove spaces (`FOX P2` -> `FOXP2`), keep only letters and
digits (`FOX-P2` -> `FOXP2`), upper and lower case (`Ras` -> `RAS`, `ras`).
Domain variants seen in Bio-ID misses: Unicode dashes -> `-`, and Greek letters
<-> their spelled-out names (`PLCγ2` <-> `PLC-gamma-2` / `PLCgamma2`,
`IKKε` <-> `IKK-epsilon`).
"""

from typing import Callable, Dict, List, Tuple

from spacy_nseen.text.greek import (
    greek_letter_name,
    greek_to_letters,
    has_greek,
    spell_out_greek,
)

UNICODE_DASHES = "‐‑‒–—―−"  # hyphen, non-breaking hyphen, figure, en, em, bar, minus
_DASH_TABLE = str.maketrans({d: "-" for d in UNICODE_DASHES})


def remove_spaces(name: str) -> str:
    """`FOX P2` -> `FOXP2` (all whitespace removed)."""
    return "".join(name.split())


def alphanumeric_only(name: str) -> str:
    """`FOX-P2` -> `FOXP2` (every character that is not a letter or digit removed)."""
    return "".join(c for c in name if c.isalnum())


def upper_keep_greek(name: str) -> str:
    """`Ras` -> `RAS`, `PLCγ2` -> `PLCγ2` (Greek letters keep their case: `Γ` is rare in text)."""
    return "".join(c if greek_letter_name(c) else c.upper() for c in name)


def ascii_dashes(name: str) -> str:
    """`IL‐2` (U+2010) -> `IL-2`: Unicode dashes and the minus sign become `-`."""
    return name.translate(_DASH_TABLE)


VARIANT_FUNCTIONS: Dict[str, Callable[[str], str]] = {
    "no_spaces": remove_spaces,
    "alphanumeric": alphanumeric_only,
    "upper": upper_keep_greek,
    "lower": str.lower,
    "ascii_dashes": ascii_dashes,
    "greek_spelled": lambda n: spell_out_greek(n, "-") if has_greek(n) else n,
    "greek_spelled_joined": lambda n: spell_out_greek(n, "") if has_greek(n) else n,
    "greek_letters": greek_to_letters,
    "greek_letters_joined": lambda n: greek_to_letters(n, keep_separators=False),
}
VARIANT_KINDS = tuple(VARIANT_FUNCTIONS)


def same_name_variants(name: str) -> List[Tuple[str, str]]:
    """Return the distinct syntactic variants of a name.

    name (str): A reference name.
    RETURNS (List[Tuple[str, str]]): (variant, kind) for each variant that is
        non-empty and differs from `name` and from earlier variants; kinds are
        the keys of VARIANT_FUNCTIONS.
    """
    seen = {name}
    out: List[Tuple[str, str]] = []
    for kind, func in VARIANT_FUNCTIONS.items():
        variant = func(name)
        if variant and variant not in seen:
            seen.add(variant)
            out.append((variant, kind))
    return out
