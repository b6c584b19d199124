"""The character n-gram TF-IDF signal (BioSyn's sparse score): the cosine of (1,3)-gram TF-IDF vectors."""

from typing import List, Optional, Sequence

import numpy

from ...retrieval.char_tfidf import CharNgramTfidf
from .base import Pools, Queries, scoring_signal


@scoring_signal
class CharTfidfSignal:
    """Candidates: the names sharing the mention's rare n-grams (`sparse_max_df`), best cosine first; scores: the
    character n-gram TF-IDF cosine."""

    name = "char_tfidf"
    pool_order = 1  # where its candidates join the pool (after the dense ones); ties keep the earliest name
    weight_setting = "sparse_weight"

    def __init__(self, tfidf: CharNgramTfidf, max_df: float) -> None:
        self.tfidf = tfidf
        self.max_df = max_df

    @classmethod
    def from_linker(cls, linker, settings, mode: str) -> Optional["CharTfidfSignal"]:
        if mode != "hybrid" or linker.tfidf is None or settings.sparse_weight <= 0:
            return None
        return cls(linker.tfidf, settings.sparse_max_df)

    def _vectors(self, queries: Queries):
        if self.name not in queries.cache:
            queries.cache[self.name] = self.tfidf.transform(queries.texts)
        return queries.cache[self.name]

    def candidates(self, queries: Queries, rows: Sequence[int], n: int) -> Optional[Pools]:
        if self.max_df <= 0:  # the TF-IDF score only re-ranks the other signals' candidates
            return None
        found, _ = self.tfidf.search(self._vectors(queries)[list(rows)], n, max_df=self.max_df)
        return [[int(i) for i in ids if i >= 0] for ids in found]

    def scores(self, queries: Queries, pools: Pools) -> List[numpy.ndarray]:
        return self.tfidf.score(self._vectors(queries), pools)
