"""The other grammatical number of a mention (`exact_fill="sparse"`: `amino acids` → `amino acid`)."""

from typing import List


def number_variants(text: str) -> List[str]:
    """The other grammatical number of a mention ending in a lowercase word (`amino acids` → `amino acid`,
    `folate` → `folates`), by the S-stemmer rules of Harman (1991) and their inverse; [] for other mentions."""
    if len(text) < 4 or not text[-2:].isalpha() or not text[-2:].islower():
        return []
    if text.endswith("ies") and not text.endswith(("eies", "aies")):
        return [text[:-3] + "y"]
    if text.endswith("es") and not text.endswith(("aes", "ees", "oes")):
        return [text[:-1]]
    if text.endswith("s"):
        return [] if text.endswith(("us", "ss")) else [text[:-1]]
    return [text[:-1] + "ies" if text.endswith("y") and text[-2] not in "aeiou" else text + "s"]
