"""The exact tier: names whose normalised key equals the mention's rank first (score 1.0).

Candidates: the exactly matching names (strict key tier 2, loose key tier 1; a Greek letter written as its
Latin letter, `LC3β` = `LC3B`, at tier 1 when nothing matches as written), restricted to the organisms a mention
may link to; rank keys for a pool: the tier, the name kind's priority (`exact_kind_priority`), whether
the mention is a word of one of the entity's longer names (`reference.name_words`; read only when the exact
matches name several entities) and the entity prior (`exact_tie_break`), before the fused score (see
`exact_ranking` for their order).
"""

from typing import Callable, Dict, List, NamedTuple, Optional, Sequence

import numpy

from ...organisms.ranking import OrganismContext
from ...reference.name_words import NameWords
from ...reference.reference_set import ReferenceSet
from ...retrieval.exact_names import LOOSE_TIER, ExactNameIndex
from ...text.greek import greek_as_latin, has_greek
from ..exact_ranking import kind_ranks
from .base import Pools, Queries

EXACT = "exact"


class ExactKeys(NamedTuple):
    """The exact tier's rank keys of a pool's names (numpy arrays, one value per name; 0 off the exact tier).

    tiers: 2 strict key, 1 loose key; kinds: the kind priority, negated (higher is better); words: 1 when the
    mention is a word of a longer name of the entity (`NameWords.longer_name_entities`); priors: the entity prior.
    """

    tiers: numpy.ndarray
    kinds: numpy.ndarray
    words: numpy.ndarray
    priors: numpy.ndarray


class ExactTier:
    """The exact-match signal of one linker."""

    name = EXACT

    def __init__(
        self,
        exact_names: ExactNameIndex,
        reference_set: ReferenceSet,
        kind_priority: str,
        priors: Callable[[], Optional[numpy.ndarray]],
    ) -> None:
        self.exact_names = exact_names
        self.reference_set = reference_set
        self.kind_priority = kind_priority
        self.priors = priors
        self.name_words = NameWords(reference_set)

    def match(
        self, queries: Queries, allowed: Callable[[Dict[int, int], Optional[OrganismContext]], Dict[int, int]]
    ) -> None:
        """Set `queries.exact`: per mention, its exactly matching name rows → tier, of the allowed organisms.

        A mention with a Greek letter and no exact match matches the names of its Latin-letter form at the loose
        tier (`greek_as_latin`: `LC3β` is `LC3B`, `Sec61β` is `SEC61B`, as gene symbols write them)."""
        found = self.exact_names.lookup_many(queries.written)
        greek = [i for i, rows in enumerate(found) if not rows and has_greek(queries.written[i])]
        if greek:
            latin = self.exact_names.lookup_many([greek_as_latin(queries.written[i]) for i in greek])
            for i, rows in zip(greek, latin):
                found[i] = {row: LOOSE_TIER for row in rows}
        queries.exact = [allowed(rows, context) for rows, context in zip(found, queries.contexts)]

    def candidates(self, queries: Queries, rows: Sequence[int], n: int) -> Optional[Pools]:
        return [list(queries.exact[r]) for r in rows]

    def scores(self, queries: Queries, pools: Pools) -> List[numpy.ndarray]:
        """RETURNS: per mention, the tier of each pool name (0: not an exact match)."""
        return [
            numpy.asarray([queries.exact[r].get(row, 0) for row in pool], dtype=numpy.int64)
            for r, pool in enumerate(pools)
        ]

    def keys(self, pool: List[int], exact: Dict[int, int], entities: numpy.ndarray, mention: str = "") -> ExactKeys:
        """RETURNS (ExactKeys): the rank keys of a pool's names (0 for a name that is not an exact match)."""
        size = len(pool)
        keys = ExactKeys(
            numpy.zeros(size, dtype=numpy.int64),
            numpy.zeros(size, dtype=numpy.int64),
            numpy.zeros(size, dtype=numpy.int64),
            numpy.zeros(size, dtype=numpy.float64),
        )
        if exact:
            matched = [j for j, name_row in enumerate(pool) if name_row in exact]
            keys.tiers[matched] = [exact[pool[j]] for j in matched]
            keys.kinds[matched] = -kind_ranks([self.reference_set.kinds[pool[j]] for j in matched], self.kind_priority)
            prior = self.priors()
            if prior is not None:
                keys.priors[matched] = prior[entities[matched]]
            candidates = set(entities[matched].tolist())
            if mention and len(candidates) > 1:
                naming = self.name_words.longer_name_entities(candidates, mention)
                keys.words[matched] = [int(entities[j]) in naming for j in matched]
        return keys
