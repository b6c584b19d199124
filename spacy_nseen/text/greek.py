"""Greek letters and their spelled-out names, as written in biomedical names.

`PLCγ2`, `PLC-gamma-2` and `PLCgamma2` name the same protein. `spell_out_greek`
turns Greek letters into their names and `greek_to_letters` does the reverse.
Dependency-free (standard library only).
"""

import re
from typing import Dict, List, Pattern

# Lower-case Greek letter -> spelled-out name. Variant code points (final sigma,
# symbol forms, the micro sign) are listed separately in GREEK_VARIANT_FORMS.
GREEK_LETTERS: Dict[str, str] = {
    "α": "alpha",
    "β": "beta",
    "γ": "gamma",
    "δ": "delta",
    "ε": "epsilon",
    "ζ": "zeta",
    "η": "eta",
    "θ": "theta",
    "ι": "iota",
    "κ": "kappa",
    "λ": "lambda",
    "μ": "mu",
    "ν": "nu",
    "ξ": "xi",
    "ο": "omicron",
    "π": "pi",
    "ρ": "rho",
    "σ": "sigma",
    "τ": "tau",
    "υ": "upsilon",
    "φ": "phi",
    "χ": "chi",
    "ψ": "psi",
    "ω": "omega",
}
# Other code points used for the same letters -> the canonical lower-case letter.
GREEK_VARIANT_FORMS: Dict[str, str] = {
    "ς": "σ",  # final sigma
    "ϐ": "β",  # beta symbol
    "ϑ": "θ",  # theta symbol
    "ϕ": "φ",  # phi symbol
    "ϵ": "ε",  # lunate epsilon
    "ϰ": "κ",  # kappa symbol
    "ϱ": "ρ",  # rho symbol
    "ϖ": "π",  # pi symbol
    "µ": "μ",  # micro sign (U+00B5)
}
# Lower-case letter -> the Latin letter HGNC gene symbols write for it (`HIF1A`, `GSK3B`, `PRKCQ` for PKCθ).
GREEK_LATIN_LETTERS: Dict[str, str] = {
    "α": "a",
    "β": "b",
    "γ": "g",
    "δ": "d",
    "ε": "e",
    "ζ": "z",
    "η": "h",
    "θ": "q",
    "ι": "i",
    "κ": "k",
    "λ": "l",
    "μ": "m",
}
# Upper-case letter -> lower-case letter.
GREEK_UPPER: Dict[str, str] = {letter.upper(): letter for letter in GREEK_LETTERS}
# Spelled-out name -> lower-case letter.
GREEK_NAMES: Dict[str, str] = {name: letter for letter, name in GREEK_LETTERS.items()}


def greek_letter_name(char: str) -> str:
    """Return the spelled-out name of a Greek letter, or "" if `char` is not one.

    Upper-case letters give a capitalised name (`Δ` -> `Delta`).

    char (str): A single character.
    RETURNS (str): The name, e.g. "gamma", or "".
    """
    if char in GREEK_LETTERS:
        return GREEK_LETTERS[char]
    if char in GREEK_VARIANT_FORMS:
        return GREEK_LETTERS[GREEK_VARIANT_FORMS[char]]
    if char in GREEK_UPPER:
        return GREEK_LETTERS[GREEK_UPPER[char]].capitalize()
    return ""


def has_greek(text: str) -> bool:
    """Return whether `text` contains a Greek letter.

    text (str): The text.
    RETURNS (bool): True if any character is a Greek letter.
    """
    return any(greek_letter_name(char) for char in text)


def greek_as_latin(text: str) -> str:
    """Write each lower-case Greek letter of `GREEK_LATIN_LETTERS` as its Latin letter (`LC3β` -> `LC3b`,
    `Sec61β` -> `Sec61b`, `PKCθ` -> `PKCq`); other characters are kept, upper-case Greek too (`ΔN` is a deletion).

    text (str): The text.
    RETURNS (str): The text with Latin letters for Greek ones.
    """
    return "".join(GREEK_LATIN_LETTERS.get(GREEK_VARIANT_FORMS.get(char, char), char) for char in text)


def spell_out_greek(text: str, separator: str = "-") -> str:
    """Replace each Greek letter by its name (`PLCγ2` -> `PLC-gamma-2`).

    The separator is put between the name and an adjacent letter or digit only,
    so `IFN-γ` gives `IFN-gamma` (not `IFN--gamma`) and `α-actinin` gives
    `alpha-actinin`. Use `separator=""` for `PKCdelta`, `" "` for `PKC delta`.

    text (str): The text.
    separator (str): Put between a spelled-out name and an adjacent alphanumeric.
    RETURNS (str): The text with every Greek letter spelled out.
    """
    pieces: List[str] = []
    n = len(text)
    for i, char in enumerate(text):
        name = greek_letter_name(char)
        if not name:
            pieces.append(char)
            continue
        before = text[i - 1] if i > 0 else ""
        after = text[i + 1] if i + 1 < n else ""
        if before and before.isalnum() and not greek_letter_name(before):
            pieces.append(separator)
        pieces.append(name)
        if after and after.isalnum():
            pieces.append(separator)
    return "".join(pieces)


def _names_pattern() -> Pattern[str]:
    # Longest names first so that "epsilon" wins over "psi" etc. A name matches
    # in lower case or capitalised (never all upper case: `ETA`, `PI` and `MU`
    # are usually abbreviations). It must not be preceded by a lower-case letter
    # (`beta` contains `eta`, `spin` contains `pi`) nor followed by any letter
    # (`betaine`, `taurine`, `nuclear`).
    names = sorted(GREEK_NAMES, key=len, reverse=True)
    alternatives = "|".join(f"{name}|{name.capitalize()}" for name in names)
    return re.compile(rf"(?<![a-z])(?:{alternatives})(?![A-Za-z])")


_NAMES_RE = _names_pattern()
_HYPHENS = "-‐‑‒–—"


def greek_to_letters(text: str, keep_separators: bool = True) -> str:
    """Replace spelled-out Greek letter names by the letters (`PKC-delta` -> `PKC-δ`).

    Matching is conservative: lower case or capitalised only, and not inside a
    longer word (`betaine`, `beta` for `eta` and `spin` for `pi` are left alone),
    but `PKCdelta` and `IFNgamma` (name after an upper-case letter) do match.
    With `keep_separators=False` a hyphen between the letter and an adjacent
    digit or capital is dropped too: `PLC-gamma-2` -> `PLCγ2`, `IKK-epsilon` ->
    `IKKε`, but `alpha-actinin` -> `α-actinin`.
    Spaces are always kept (`Interferon gamma` -> `Interferon γ`).

    text (str): The text.
    keep_separators (bool): Keep hyphens around the replaced names.
    RETURNS (str): The text with Greek letters instead of their names.
    """
    if keep_separators:
        return _NAMES_RE.sub(lambda m: GREEK_NAMES[m.group(0).lower()], text)
    out: List[str] = []
    last = 0
    for match in _NAMES_RE.finditer(text):
        start, end = match.span()
        prefix = text[last:start]
        if len(prefix) >= 2 and prefix[-1] in _HYPHENS and _is_code_char(prefix[-2]):
            prefix = prefix[:-1]
        out.append(prefix)
        out.append(GREEK_NAMES[match.group(0).lower()])
        if end + 1 < len(text) and text[end] in _HYPHENS and _is_code_char(text[end + 1]):
            end += 1
        last = end
    out.append(text[last:])
    return "".join(out)


def _is_code_char(char: str) -> bool:
    # Hyphens next to digits and capitals are dropped (`PLC-gamma-2` -> `PLCγ2`),
    # hyphens next to lower-case words are kept (`alpha-actinin` -> `α-actinin`).
    return char.isdigit() or char.isupper()
