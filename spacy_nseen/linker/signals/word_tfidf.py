"""The word-level TF-IDF signal: the cosine of the mention's words with each name's (`token_index`)."""

from typing import List, Optional, Sequence

import numpy

from ...retrieval.word_tfidf import NameTokenIndex
from .base import Pools, Queries, scoring_signal


@scoring_signal
class WordTfidfSignal:
    """Candidates: the names sharing the mention's words, best cosine first; scores: the word TF-IDF cosine."""

    name = "word_tfidf"
    pool_order = 2  # where its candidates join the pool (after the dense ones); ties keep the earliest name
    weight_setting = "token_weight"

    def __init__(self, tokens: NameTokenIndex) -> None:
        self.tokens = tokens

    @classmethod
    def from_linker(cls, linker, settings, mode: str) -> Optional["WordTfidfSignal"]:
        if mode != "hybrid" or linker.tokens is None or settings.token_weight <= 0:
            return None
        return cls(linker.tokens)

    def _vectors(self, queries: Queries):
        if self.name not in queries.cache:
            queries.cache[self.name] = self.tokens.transform(queries.texts)
        return queries.cache[self.name]

    def candidates(self, queries: Queries, rows: Sequence[int], n: int) -> Optional[Pools]:
        found, _ = self.tokens.search(self._vectors(queries)[list(rows)], n)
        return [[int(i) for i in ids if i >= 0] for ids in found]

    def scores(self, queries: Queries, pools: Pools) -> List[numpy.ndarray]:
        vectors = self._vectors(queries)
        if len(pools) != vectors.shape[0]:
            raise ValueError(f"{len(pools)} pools for {vectors.shape[0]} queries")
        return self.tokens.score(vectors, pools)
