"""The abbreviations a group of texts defines (an article's, a figure's panels), read once for all of its texts.

A caption's `CQ` is searched by the long form the other texts of its article define (`chloroquine (CQ)`).
`abbreviation_map` of the other texts, made again for each caption, costs n² parses for an article of n texts;
`ContextAbbreviations` parses each text once and gives the map of every text but one, for the short forms asked
about, equal to `abbreviation_map` of the other texts (most frequent long form, the first seen on ties).
"""

from collections import Counter
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from .abbreviations import find_abbreviations


class ContextAbbreviations:
    """Per text, the (short form, long form) pairs it defines; per short form, where each long form is defined.

    texts (Sequence[str]): the texts of the context, in order.
    """

    def __init__(self, texts: Sequence[str]) -> None:
        self.n_texts = len(texts)
        self._shorts: List[frozenset] = []
        self._defined: Dict[str, List[Tuple[int, str]]] = {}  # short form → (text, long form), in text order
        for i, text in enumerate(texts):
            pairs = find_abbreviations(text)
            self._shorts.append(frozenset(short for short, _ in pairs))
            for short, long_form in pairs:
                self._defined.setdefault(short, []).append((i, long_form))
        self._best = {short: _most_frequent(long for _, long in found) for short, found in self._defined.items()}

    def long_form(self, short: str, without: Optional[int] = None) -> Optional[str]:
        """The long form the texts but text `without` define for a short form (`abbreviation_map` of them).

        short (str): the short form, as written (`CQ`).
        without (Optional[int]): the text left out (the caption whose mentions are linked); None: none.
        RETURNS (Optional[str]): the most frequent long form (the first seen on ties), None if no other text defines it.
        """
        if without is None or short not in self._shorts[without]:
            return self._best.get(short)
        others = [long for i, long in self._defined[short] if i != without]
        return _most_frequent(others) if others else None

    def long_forms(self, shorts: Iterable[str], without: Optional[int] = None) -> Dict[str, str]:
        """RETURNS (Dict[str, str]): short form → long form (`long_form`) of those of `shorts` the texts define."""
        found = {}
        for short in shorts:
            long_form = self.long_form(short, without)
            if long_form is not None:
                found[short] = long_form
        return found


def _most_frequent(long_forms: Iterable[str]) -> str:
    """RETURNS (str): the most frequent long form, the first seen on ties (as `Counter.most_common(1)`)."""
    return Counter(long_forms).most_common(1)[0][0]
