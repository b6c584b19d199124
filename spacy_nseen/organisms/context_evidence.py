"""The organism evidence of a group of texts (an article's, a figure's panels), read once for all of its texts.

A caption's context is the other texts of its article: the counts of every text but its own. Summed text by text
for each caption, an article of n texts costs n² scans; `ContextEvidence` scans each text once and gives the
counts without any one text in time proportional to the number of taxa. The sums are exact (`math.fsum` over the
texts, `fractions.Fraction` totals here), so `counts_without(i)` equals `context_counts` of the other texts bit for
bit, with the same taxa in the same order.
"""

from fractions import Fraction
from typing import Dict, List, Optional, Sequence, Set, Tuple

from .evidence import TextEvidence
from .lexicon import FISSION_YEAST, YEAST

TextCounts = Dict[int, float]


class _Totals:
    """Per-text counts of one reading (as written, or yeast read as fission yeast) and their exact totals."""

    def __init__(self, counts: Sequence[TextCounts]) -> None:
        self.counts = list(counts)
        self.totals: Dict[int, Fraction] = {}
        self.texts: Dict[int, int] = {}  # taxon → number of texts with a count for it
        self.first: Dict[int, List[Tuple[int, int]]] = {}  # taxon → (text, place in its counts) of its first 2 texts
        for i, one in enumerate(self.counts):
            for place, (taxon, value) in enumerate(one.items()):
                self.totals[taxon] = self.totals.get(taxon, Fraction(0)) + Fraction(value)
                self.texts[taxon] = self.texts.get(taxon, 0) + 1
                seen = self.first.setdefault(taxon, [])
                if len(seen) < 2:
                    seen.append((i, place))

    def without(self, i: Optional[int]) -> TextCounts:
        """RETURNS (TextCounts): the summed counts of every text but `i` (None: all), taxa in order of first count."""
        own = self.counts[i] if i is not None else {}
        order: List[Tuple[Tuple[int, int], int]] = []
        for taxon, seen in self.first.items():
            if self.texts[taxon] - (taxon in own) <= 0:
                continue
            order.append((seen[1] if seen[0][0] == i else seen[0], taxon))
        order.sort()
        out: TextCounts = {}
        for _, taxon in order:
            total = self.totals[taxon] - Fraction(own[taxon]) if taxon in own else self.totals[taxon]
            out[taxon] = float(total)
        return out


class ContextEvidence:
    """The scanned texts of a context and what the assigner reads of them, computed once.

    evidences (Sequence[TextEvidence]): the texts' scans (`OrganismAssigner.scan`), in order.
    """

    def __init__(self, evidences: Sequence[TextEvidence]) -> None:
        self.n_texts = len(evidences)
        self._named: List[Set[int]] = [evidence.named_taxa() for evidence in evidences]
        self._named_texts: Dict[int, int] = {}
        for named in self._named:
            for taxon in named:
                self._named_texts[taxon] = self._named_texts.get(taxon, 0) + 1
        fission = [evidence.in_fission_yeast().counts() for evidence in evidences]
        mixed = [
            fission[i] if evidence.names_fission_yeast() else evidence.counts() for i, evidence in enumerate(evidences)
        ]
        self._fission = _Totals(fission)
        self._mixed = _Totals(mixed)

    def _names(self, taxon: int, i: Optional[int]) -> bool:
        """Whether a text other than `i` names `taxon`."""
        return self._named_texts.get(taxon, 0) - (i is not None and taxon in self._named[i]) > 0

    def counts_without(self, i: Optional[int] = None) -> TextCounts:
        """Hit strength per taxon summed over the texts but text `i` (`assign.context_counts` of the others).

        A text that names fission yeast counts its yeast deletions and the word `yeast` for it, and so does every
        text when the texts together name fission yeast and never budding yeast alone.
        i (Optional[int]): the text left out (its own caption); None: none.
        RETURNS (TextCounts): taxon → summed strength.
        """
        if i is not None and not 0 <= i < self.n_texts:
            raise IndexError(f"text {i} of a context of {self.n_texts} texts")
        fission_context = self._names(FISSION_YEAST, i) and not self._names(YEAST, i)
        return (self._fission if fission_context else self._mixed).without(i)
