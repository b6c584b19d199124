"""Abbreviations defined in a text, `long form (SHORT)`, found with Schwartz & Hearst's algorithm.

A. S. Schwartz and M. A. Hearst (2003), "A simple algorithm for identifying abbreviation definitions in
biomedical text" (the detector scispaCy's linker uses). A mention that is a short form defined in the same
document (`chloroquine (CQ)` … `CQ`) can be linked through its long form. Standard library only.
"""
import re
from collections import Counter
from typing import Dict, Iterable, List, Optional, Tuple

_PAREN_RE = re.compile(r"\(([^()]{1,40})\)")
_WORD_RE = re.compile(r"\S+")


def best_long_form(short: str, candidate: str) -> Optional[str]:
    """The shortest end of `candidate` whose characters spell out `short` (Schwartz & Hearst, Fig. 2).

    Every letter or digit of the short form must appear in the long form, in order, and the first one
    at the start of a word. RETURNS (Optional[str]): the long form, or None.
    """
    s_index = len(short) - 1
    l_index = len(candidate) - 1
    while s_index >= 0:
        char = short[s_index].lower()
        if not char.isalnum():
            s_index -= 1
            continue
        while (l_index >= 0 and candidate[l_index].lower() != char) or (
            s_index == 0 and l_index > 0 and candidate[l_index - 1].isalnum()
        ):
            l_index -= 1
        if l_index < 0:
            return None
        l_index -= 1
        s_index -= 1
    start = candidate.rfind(" ", 0, l_index + 1) + 1
    return candidate[start:].strip()


def _is_short_form(text: str) -> bool:
    return (
        2 <= len(text) <= 10
        and len(text.split()) <= 2
        and text[0].isalnum()
        and any(c.isalpha() for c in text)
    )


def find_abbreviations(text: str) -> List[Tuple[str, str]]:
    """RETURNS (List[Tuple[str, str]]): the (short form, long form) pairs `long form (SHORT)` of a text,
    in order of appearance."""
    pairs: List[Tuple[str, str]] = []
    for match in _PAREN_RE.finditer(text):
        short = re.split(r"[;,]\s", match.group(1))[0].strip()
        if not _is_short_form(short):
            continue
        before = text[: match.start()].rstrip()
        words = _WORD_RE.findall(before)
        n_words = min(len(short) + 5, 2 * len(short))
        candidate = " ".join(words[-n_words:])
        # the long form may not cross a sentence or clause boundary before it
        candidate = re.split(r"[.;:]\s|[()\[\]]", candidate)[-1].strip()
        if not candidate:
            continue
        long_form = best_long_form(short, candidate)
        if (
            long_form
            and len(long_form) > len(short)
            and short.lower() not in long_form.lower().split()
            and len(long_form.split()) <= n_words
        ):
            pairs.append((short, long_form))
    return pairs


def abbreviation_map(texts: Iterable[str]) -> Dict[str, str]:
    """RETURNS (Dict[str, str]): short form → its most frequent long form over the texts (first seen on
    ties), e.g. the captions of one article."""
    counts: Dict[str, Counter] = {}
    for text in texts:
        for short, long_form in find_abbreviations(text):
            counts.setdefault(short, Counter())[long_form] += 1
    return {short: forms.most_common(1)[0][0] for short, forms in counts.items()}
