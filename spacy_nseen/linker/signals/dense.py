"""The dense signal (NSEEN): the cosine of the mention's encoder vector with each name's, searched with Annoy."""

from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy

from ...retrieval.name_index import AnnoyNameIndex
from .base import Pools, Queries

DENSE = "dense"


class DenseSignal:
    """Candidates: the `n` nearest names in the embedding space; scores: the cosine (Annoy's for its own hits,
    the stored vectors' for the other signals' candidates). Its weight is 1 − the scoring signals' weights.

    A mention is encoded when it is searched or matches several names exactly (its vector orders them); all
    such mentions of a batch in one encoder pass, so a batch encodes as it always has.
    """

    name = DENSE

    def __init__(self, index: AnnoyNameIndex, encode: Callable[[List[str]], numpy.ndarray], threads: int) -> None:
        self.index = index
        self.encode = encode
        self.threads = threads

    def encoded(self, queries: Queries) -> Dict[str, Any]:
        """RETURNS: the batch's mention vectors (the searched mentions and those with several exact matches),
        encoded once per batch, and the search hits found so far."""
        state = queries.cache.get(self.name)
        if state is None:
            searched = set(queries.searched)
            encoded = [r for r in range(len(queries)) if r in searched or len(queries.exact[r]) > 1]
            vectors = numpy.zeros((len(queries), self.index.dim), dtype=numpy.float32)
            if encoded:
                vectors[encoded] = self.encode([queries.texts[r] for r in encoded])
            state = queries.cache[self.name] = {"vectors": vectors, "hits": {}}
        return state

    def candidates(self, queries: Queries, rows: Sequence[int], n: int) -> Optional[Pools]:
        state = self.encoded(queries)
        rows = list(rows)
        if not rows:
            return []
        ids, sims = self.index.query(state["vectors"][rows], n, self.threads)
        out = []
        for row, found, values in zip(rows, ids, sims):
            keep = found >= 0
            state["hits"][row] = (found[keep], values[keep])
            out.append([int(i) for i in found[keep]])
        return out

    def scores(self, queries: Queries, pools: Pools) -> List[numpy.ndarray]:
        # Each pool starts with this signal's hits (their similarities from Annoy); the names after them are
        # scored against the stored vectors, all rows at once.
        state = self.encoded(queries)
        vectors, hits = state["vectors"], state["hits"]
        scores, counts, missing_rows, missing_items = [], [], [], []
        for row, pool in enumerate(pools):
            found, sims = hits.get(row, ((), ()))
            n_known = len(found)
            values = numpy.empty(len(pool), dtype=numpy.float32)
            values[:n_known] = sims
            scores.append(values)
            counts.append(len(pool) - n_known)
            missing_rows.extend([row] * (len(pool) - n_known))
            missing_items.extend(pool[n_known:])
        if missing_items:
            items = self.index.item_vectors(numpy.asarray(missing_items, dtype=numpy.int64))
            sims = numpy.einsum("ij,ij->i", items, vectors[missing_rows])
            start = 0
            for values, count in zip(scores, counts):
                if count:
                    values[len(values) - count :] = sims[start : start + count]
                    start += count
        return scores
