"""The exact tier: names whose normalised key equals the mention's rank first (score 1.0).

Candidates: the exactly matching names (strict key tier 2, loose key tier 1), restricted to the organisms a
mention may link to; rank keys for a pool: the tier, the name kind's priority (`exact_kind_priority`) and the
entity prior (`exact_tie_break`), in that order, before the fused score (see `exact_ranking`). For `exact_fill`
it also finds the names equal to the mention in the other grammatical number (`exact_fill.number_variants`).
"""
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy

from ...text.plurals import number_variants
from ...retrieval.exact_names import ExactNameIndex
from ..exact_ranking import kind_ranks
from ...reference.reference_set import ReferenceSet
from .base import Pools, Queries

EXACT = "exact"


class ExactTier:
    """The exact-match signal of one linker."""

    name = EXACT

    def __init__(self, exact_names: ExactNameIndex, reference_set: ReferenceSet, kind_priority: str,
                 priors: Callable[[], Optional[numpy.ndarray]]) -> None:
        self.exact_names = exact_names
        self.reference_set = reference_set
        self.kind_priority = kind_priority
        self.priors = priors

    def match(self, queries: Queries, allowed: Callable[[Dict[int, int], object], Dict[int, int]]) -> None:
        """Set `queries.exact`: per mention, its exactly matching name rows → tier, of the allowed organisms."""
        found = self.exact_names.lookup_many(queries.written)
        queries.exact = [allowed(rows, context) for rows, context in zip(found, queries.contexts)]

    def candidates(self, queries: Queries, rows: Sequence[int], n: int) -> Optional[Pools]:
        return [list(queries.exact[r]) for r in rows]

    def scores(self, queries: Queries, pools: Pools) -> List[numpy.ndarray]:
        """RETURNS: per mention, the tier of each pool name (0: not an exact match)."""
        return [numpy.asarray([queries.exact[r].get(row, 0) for row in pool], dtype=numpy.int64) for r, pool in enumerate(pools)]

    def keys(self, pool: List[int], exact: Dict[int, int], entities: numpy.ndarray) -> Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
        """RETURNS: the rank keys of a pool's names: tier, kind priority (negated: higher is better), prior."""
        tiers = numpy.zeros(len(pool), dtype=numpy.int64)
        kinds = numpy.zeros(len(pool), dtype=numpy.int64)
        priors = numpy.zeros(len(pool), dtype=numpy.float64)
        if exact:
            matched = [j for j, name_row in enumerate(pool) if name_row in exact]
            tiers[matched] = [exact[pool[j]] for j in matched]
            kinds[matched] = -kind_ranks([self.reference_set.kinds[pool[j]] for j in matched], self.kind_priority)
            prior = self.priors()
            if prior is not None:
                priors[matched] = prior[entities[matched]]
        return tiers, kinds, priors

    def number_variant_candidates(self, mention: str, pool: List[int]) -> List[int]:
        """The name rows matching the other grammatical number of the mention exactly, not yet in the pool."""
        known = set(pool)
        return [row for variant in number_variants(mention) for row in self.exact_names.lookup(variant) if row not in known]
