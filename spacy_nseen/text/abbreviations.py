"""Abbreviations defined in a text, `long form (SHORT)`, found with Schwartz & Hearst's algorithm.

A. S. Schwartz and M. A. Hearst (2003), "A simple algorithm for identifying abbreviation definitions in
biomedical text" (the detector scispaCy's linker uses). A mention that is a short form defined in the same
document (`chloroquine (CQ)` … `CQ`) can be linked through its long form; a figure caption often uses a short form
that another caption of its article defines (`defined_long_forms`). Standard library only.
"""

import re
from collections import Counter
from functools import lru_cache
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

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
    return 2 <= len(text) <= 10 and len(text.split()) <= 2 and text[0].isalnum() and any(c.isalpha() for c in text)


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


def abbreviation_map(texts: Iterable[str], keep: Optional[Callable[[str, str], bool]] = None) -> Dict[str, str]:
    """RETURNS (Dict[str, str]): short form → its most frequent long form over the texts (first seen on
    ties), e.g. the captions of one article.

    keep (Optional[Callable[[str, str], bool]]): which (short form, long form) definitions count (default: all).
    """
    counts: Dict[str, Counter] = {}
    for text in texts:
        for short, long_form in find_abbreviations(text):
            if keep is None or keep(short, long_form):
                counts.setdefault(short, Counter())[long_form] += 1
    return {short: forms.most_common(1)[0][0] for short, forms in counts.items()}


@lru_cache(maxsize=256)
def _cached_map(texts: Tuple[str, ...]) -> Dict[str, str]:
    return abbreviation_map(texts)


def defined_long_forms(text: str, *context: Optional[Sequence[str]]) -> Dict[str, str]:
    """Short form → long form defined in `text`, else in the nearest group of context texts that defines it.

    text (str): the text whose mentions are linked (e.g. one caption).
    context (Optional[Sequence[str]]): groups of other texts, nearest first (e.g. the other panels of its figure,
        then the other captions of its article); None or empty groups are skipped. A group's map is cached, so
        the captions of one article are parsed once, not once per caption.
    RETURNS (Dict[str, str]): the long form each short form is searched by.
    """
    found: Dict[str, str] = {}
    for group in reversed(context):
        if group:
            found.update(_cached_map(tuple(group)))
    found.update(abbreviation_map([text]))
    return found


def searched_form(mention: str, long_form: Optional[str], is_name: Callable[[str], bool]) -> str:
    """The text linked for a mention whose abbreviation is defined (`long form (SF)`): the long form, unless the
    mention is itself a reference name and the long form is not. `LC3` stays `LC3` beside a `light chain 3 (LC3)`
    that no UniProt name spells; `CQ` is searched as `chloroquine`. (Chosen on the even-numbered Bio-ID articles
    against "always the long form" and "never": results/abbreviations/.)

    is_name (Callable[[str], bool]): whether a text matches a name of the reference set exactly.
    RETURNS (str): `long_form` or `mention`.
    """
    if not long_form or long_form == mention:
        return mention
    if is_name(mention) and not is_name(long_form):
        return mention
    return long_form
