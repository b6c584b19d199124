"""The fuzzy string signal: ½ Indel + ½ Jaro-Winkler similarity of strict keys (rapidfuzz); it only scores."""

from typing import List, Optional, Sequence

import numpy
from rapidfuzz.distance import Indel, JaroWinkler
from rapidfuzz.process import cpdist

from ...text.normalization import strict_key
from .base import Pools, Queries, pool_names, scoring_signal


@scoring_signal
class FuzzySignal:
    """No candidates of its own; scores every pool name by its string similarity with the mention."""

    name = "fuzzy"
    pool_order = 3
    weight_setting = "fuzzy_weight"

    def __init__(self, names) -> None:
        self.names = names

    @classmethod
    def from_linker(cls, linker, settings, mode: str) -> Optional["FuzzySignal"]:
        if mode != "hybrid" or settings.fuzzy_weight <= 0:
            return None
        return cls(linker.reference_set.names)

    def candidates(self, queries: Queries, rows: Sequence[int], n: int) -> Optional[Pools]:
        return None

    def scores(self, queries: Queries, pools: Pools) -> List[numpy.ndarray]:
        """All (mention, candidate) pairs of the batch in one rapidfuzz call per scorer; each key made once."""
        names = pool_names(queries, self.names, pools)
        keys = {row: strict_key(names[row]) for row in {row for pool in pools for row in pool}}
        mentions = [strict_key(text) for text in queries.texts]
        left = [mentions[i] for i, pool in enumerate(pools) for _ in pool]
        right = [keys[row] for pool in pools for row in pool]
        if not left:
            return [numpy.zeros(0, dtype=numpy.float32) for _ in pools]
        indel = cpdist(left, right, scorer=Indel.normalized_similarity, dtype=numpy.float32)
        jaro = cpdist(left, right, scorer=JaroWinkler.normalized_similarity, dtype=numpy.float32)
        scores = 0.5 * indel + 0.5 * jaro
        return numpy.split(scores, numpy.cumsum([len(pool) for pool in pools])[:-1])
