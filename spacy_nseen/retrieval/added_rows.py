"""Names added to a built index: a small side block, searched exactly beside the built index.

Annoy cannot take items after its build, and the sparse indexes' stored rows, postings and idf were fitted to the
names they were built from. Names added later (`KnowledgeBaseLinker.add_names`) are kept beside them as rows
`first_row ...`: their encoder vectors (`AddedVectors`, for the dense search) or their TF-IDF rows weighted with the
built vocabulary and idf (`AddedRows`, for the character and word indexes). A search scores every added row
(numpy; a few thousand rows cost well under a millisecond per query) and `join_hits` adds the added rows that rank
among the `n` best to the built index's hits. The built structures are not changed: a search returns every hit it
returned before, with the same scores, and a linker without added names searches as it always has.
"""

from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

import numpy
import scipy.sparse as sp

Hits = Tuple[numpy.ndarray, numpy.ndarray]


def best_columns(scores: numpy.ndarray, n: int, first_row: int, min_score: float) -> Hits:
    """The `n` best columns of each row of a dense (queries × added rows) score matrix, by score, then lower row.

    min_score (float): columns scoring at most this are left out (-inf: none).
    RETURNS (Hits): int64 rows (`first_row` + column; -1 where fewer) and float32 scores, both (n_queries, n).
    """
    n_queries, n_added = scores.shape
    n = max(0, min(n, n_added))
    ids = numpy.full((n_queries, n), -1, dtype=numpy.int64)
    values = numpy.full((n_queries, n), -numpy.inf, dtype=numpy.float32)
    if n == 0 or n_queries == 0:
        return ids, values
    order = numpy.lexsort((numpy.broadcast_to(numpy.arange(n_added), scores.shape), -scores), axis=1)[:, :n]
    best = numpy.take_along_axis(scores, order, axis=1).astype(numpy.float32)
    keep = best > min_score
    ids[keep] = order[keep] + first_row
    values[keep] = best[keep]
    return ids, values


def join_hits(base: Hits, added: Hits, n: int, empty_score: float) -> Hits:
    """A built index's hits and the added rows that rank among the `n` best of both.

    Per query: every built hit, as found; then each added hit scoring above the n-th built hit (any, when the
    built index found fewer than `n`), at most `n`; all by score, the built hits first on ties (a stable sort, so
    the built hits keep their order). Without such an added hit the built hits are returned unchanged.
    base, added (Hits): rows (-1 where none) and scores, best first.
    empty_score (float): the score written where a row has no hit (the built index's own convention).
    RETURNS (Hits): rows and scores, (n_queries, built width + added width) when an added hit joins.
    """
    base_ids, base_scores = base
    added_ids, added_scores = added
    joined: List[Tuple[numpy.ndarray, numpy.ndarray]] = []
    any_added = False
    for row in range(len(base_ids)):
        found = base_ids[row] >= 0
        ids, scores = base_ids[row][found], base_scores[row][found]
        extra = added_ids[row] >= 0
        extra_ids, extra_scores = added_ids[row][extra], added_scores[row][extra]
        if len(ids) >= n > 0:
            above = extra_scores > scores[:n].min()
            extra_ids, extra_scores = extra_ids[above], extra_scores[above]
        extra_ids, extra_scores = extra_ids[:n], extra_scores[:n]
        if len(extra_ids):
            any_added = True
            ids = numpy.concatenate([ids, extra_ids])
            scores = numpy.concatenate([scores, extra_scores])
            order = numpy.argsort(-scores, kind="stable")
            ids, scores = ids[order], scores[order]
        joined.append((ids, scores))
    if not any_added:
        return base_ids, base_scores
    width = max(len(ids) for ids, _ in joined)
    out_ids = numpy.full((len(joined), width), -1, dtype=numpy.int64)
    out_scores = numpy.full((len(joined), width), empty_score, dtype=numpy.float32)
    for row, (ids, scores) in enumerate(joined):
        out_ids[row, : len(ids)] = ids
        out_scores[row, : len(ids)] = scores
    return out_ids, out_scores


@dataclass(frozen=True)
class AddedVectors:
    """The encoder vectors of names added to a built Annoy index: rows `first_row ... first_row + len - 1`.

    first_row (int): the row of the first added name (the built index's number of names).
    vectors (numpy.ndarray): float32 (n_added, dim), L2-normalised.
    """

    first_row: int
    vectors: numpy.ndarray

    def __len__(self) -> int:
        return len(self.vectors)

    def appended(self, vectors: numpy.ndarray) -> "AddedVectors":
        """RETURNS (AddedVectors): these vectors, then `vectors` (rows after the last)."""
        stacked = numpy.concatenate([self.vectors, numpy.asarray(vectors, dtype=numpy.float32)])
        return AddedVectors(self.first_row, numpy.ascontiguousarray(stacked, dtype=numpy.float32))

    def search(self, queries: numpy.ndarray, n: int) -> Hits:
        """RETURNS (Hits): the `n` nearest added names of each query vector by cosine (exact), best first."""
        scores = numpy.asarray(queries, dtype=numpy.float32) @ self.vectors.T
        return best_columns(scores, n, self.first_row, -numpy.inf)

    def vectors_of(self, rows: numpy.ndarray) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): the vectors of added rows (IndexError for a row that is not one)."""
        local = numpy.asarray(rows, dtype=numpy.int64) - self.first_row
        if local.size and (int(local.min()) < 0 or int(local.max()) >= len(self.vectors)):
            raise IndexError(f"added name row out of range [{self.first_row}, {self.first_row + len(self)})")
        return self.vectors[local]


@dataclass(frozen=True)
class AddedRows:
    """The TF-IDF rows of names added to a built sparse index (weighted with its vocabulary and idf; terms it never
    saw are left out, as a query's are): rows `first_row ... first_row + len - 1`.

    first_row (int): the row of the first added name (the built index's number of names).
    weights (sp.csr_matrix): float32 (n_added, n_terms), L2-normalised rows (the built index's `transform`).
    """

    first_row: int
    weights: sp.csr_matrix

    def __len__(self) -> int:
        return int(self.weights.shape[0])

    def appended(self, weights: sp.csr_matrix) -> "AddedRows":
        """RETURNS (AddedRows): these rows, then `weights`."""
        return AddedRows(self.first_row, sp.csr_matrix(sp.vstack([self.weights, weights]), dtype=numpy.float32))

    def search(self, queries: sp.csr_matrix, n: int, columns: Optional[numpy.ndarray] = None) -> Hits:
        """The `n` best added names of each query by cosine; only names sharing a term with it (-1 / 0.0 else).

        columns (Optional[numpy.ndarray]): bool per term: only these terms count (the rare n-grams a built
            index searches with), as its search scores them.
        RETURNS (Hits): rows and float32 scores, best first.
        """
        if columns is not None:
            queries = sp.csr_matrix(queries @ sp.diags(numpy.asarray(columns, dtype=numpy.float32)))
        scores = numpy.asarray((queries @ self.weights.T).toarray(), dtype=numpy.float32)
        ids, values = best_columns(scores, n, self.first_row, 0.0)
        values[ids < 0] = 0.0
        return ids, values

    def cosines(self, queries: sp.csr_matrix, query_rows: Sequence[int], rows: Sequence[int]) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): float32, the cosine of query `query_rows[i]` with added row `rows[i]`."""
        if not len(rows):
            return numpy.zeros(0, dtype=numpy.float32)
        local = numpy.asarray(rows, dtype=numpy.int64) - self.first_row
        if int(local.min()) < 0 or int(local.max()) >= len(self):
            raise IndexError(f"added name row out of range [{self.first_row}, {self.first_row + len(self)})")
        products = queries[numpy.asarray(query_rows, dtype=numpy.int64)].multiply(self.weights[local])
        return numpy.asarray(products.sum(axis=1), dtype=numpy.float32).ravel()
