"""TF-IDF weighting, candidate cosines and checked loading shared by the sparse indexes (`ngram_tfidf`,
`token_index`)."""
import itertools
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, List, Sequence, Tuple, Union

import numpy
import scipy.sparse as sp

from .errors import ArtifactError

if TYPE_CHECKING:
    from .tf_matrix import TfMatrix


def weighted_tf(counts: sp.csr_matrix, idf: numpy.ndarray, sublinear_tf: bool = False) -> sp.csr_matrix:
    """RETURNS (sp.csr_matrix): float32 tf · idf (tf optionally 1 + ln tf), not yet normalised."""
    m = counts.astype(numpy.float32)
    if sublinear_tf:
        numpy.log(m.data, out=m.data)
        m.data += 1.0
    if m.shape[1]:
        m = sp.csr_matrix(m.multiply(idf[numpy.newaxis, :]), dtype=numpy.float32)
    return m


def inverse_norms(weighted: sp.csr_matrix) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): float32 1 / L2 norm of each row (1 for all-zero rows)."""
    norms = numpy.sqrt(numpy.asarray(weighted.multiply(weighted).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    return numpy.asarray(1.0 / norms, dtype=numpy.float32)


def l2_tfidf(counts: sp.csr_matrix, idf: numpy.ndarray, sublinear_tf: bool = False) -> sp.csr_matrix:
    """Weight term counts by idf (tf optionally 1 + ln tf) and L2-normalise each row.

    counts (sp.csr_matrix): term counts, one row per string.
    idf (numpy.ndarray): float32 idf per term (column).
    sublinear_tf (bool): use 1 + ln(tf) instead of the raw count.
    RETURNS (sp.csr_matrix): float32 rows of norm 1 (all-zero rows stay zero), indices sorted.
    """
    m = weighted_tf(counts, idf, sublinear_tf)
    m = sp.csr_matrix(sp.diags(inverse_norms(m)).astype(numpy.float32) @ m)
    m.sort_indices()
    return m


PAIR_BLOCK = 16384  # candidate rows scored per sparse pass (bounds the temporary memory of a large batch)
POSTINGS_BLOCK = 1024  # queries whose terms' postings are rebuilt together (rounded to whole chunks)


def pair_cosines(queries: sp.csr_matrix, names: "Union[sp.csr_matrix, TfMatrix]",
                 name_indices: Sequence[Sequence[int]]) -> List[numpy.ndarray]:
    """Cosine of each query row with its candidate name rows, in sparse passes over blocks of candidates.

    queries (sp.csr_matrix): one L2-normalised row per query.
    names (Union[sp.csr_matrix, TfMatrix]): the L2-normalised name rows (a TfMatrix rebuilds only the candidates').
    name_indices (Sequence[Sequence[int]]): candidate name rows per query.
    RETURNS (List[numpy.ndarray]): float32 cosines aligned with `name_indices` (each the sum of the products of
        the shared terms, in column order: a row's score does not depend on the other rows of its block).
    """
    lengths = numpy.array([len(c) for c in name_indices], dtype=numpy.int64)
    flat = numpy.fromiter(itertools.chain.from_iterable(name_indices), dtype=numpy.int64, count=int(lengths.sum()))
    if flat.size and (flat.min() < 0 or flat.max() >= names.shape[0]):
        raise IndexError(f"name index out of range [0, {names.shape[0]})")
    owners = numpy.repeat(numpy.arange(queries.shape[0]), lengths)
    scores = numpy.zeros(len(flat), dtype=numpy.float32)
    for start in range(0, len(flat), PAIR_BLOCK):
        block = slice(start, start + PAIR_BLOCK)
        candidates = names[flat[block]] if isinstance(names, sp.spmatrix) else names.rows(flat[block])
        scores[block] = numpy.asarray(queries[owners[block]].multiply(candidates).sum(axis=1), dtype=numpy.float32).ravel()
    return numpy.split(scores, numpy.cumsum(lengths)[:-1]) if len(lengths) else []


def local_postings(queries: sp.csr_matrix, postings: "Union[sp.csr_matrix, TfMatrix]"
                   ) -> Tuple[sp.csr_matrix, sp.csr_matrix]:
    """The queries and the postings (terms × names) restricted to the terms the queries use.

    The queries' columns are renumbered in their sorted order, which keeps every row's order of terms, so
    `q @ p` sums the same terms in the same order as `queries @ postings`: the same float32 values. A TfMatrix
    rebuilds the float32 postings of those terms only.
    RETURNS (Tuple[sp.csr_matrix, sp.csr_matrix]): q (queries × used terms) and p (used terms × names).
    """
    if isinstance(postings, sp.spmatrix):
        return queries, postings
    queries = sp.csr_matrix(queries)
    terms = numpy.unique(queries.indices)
    local = sp.csr_matrix((queries.data, numpy.searchsorted(terms, queries.indices).astype(queries.indices.dtype),
                           queries.indptr), shape=(queries.shape[0], len(terms)))
    return local, postings.rows(terms)


def postings_products(queries: sp.csr_matrix, postings: "Union[sp.csr_matrix, TfMatrix]", chunk_size: int
                      ) -> Iterator[Tuple[int, sp.csr_matrix]]:
    """`queries[start:start + chunk_size] @ postings` (terms × names) for each chunk, with its start.

    A TfMatrix's postings are rebuilt (`local_postings`) once per block of POSTINGS_BLOCK queries (whole
    chunks), so a term's postings are rebuilt once for all the chunks of a block that use it.
    """
    block = chunk_size * max(1, POSTINGS_BLOCK // chunk_size)
    q_block, p_block = queries, postings
    for start in range(0, queries.shape[0], chunk_size):
        if start % block == 0:
            q_block, p_block = local_postings(queries[start:start + block], postings)
        offset = start % block
        yield start, q_block[offset:offset + chunk_size] @ p_block


def top_k_postings(queries: sp.csr_matrix, postings_t: "Union[sp.csr_matrix, TfMatrix]", k: int, chunk_size: int = 256
                   ) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """The k best names per query by the dot product with the (terms × names) postings, best first
    (ties: lower name index first; every name tied with the k-th is ranked, as a full sort would); -1 / 0.0
    where fewer names share a term. The search of `token_index` and of `exact_fill`.

    RETURNS (Tuple[numpy.ndarray, numpy.ndarray]): name indices (int64) and scores (float32), (n_queries, k).
    """
    n_queries = queries.shape[0]
    out_idx = numpy.full((n_queries, k), -1, dtype=numpy.int64)
    out_score = numpy.zeros((n_queries, k), dtype=numpy.float32)
    for start, sims in postings_products(queries, postings_t, chunk_size):
        for r in range(sims.shape[0]):
            lo, hi = sims.indptr[r], sims.indptr[r + 1]
            if lo == hi:
                continue
            cols, vals = sims.indices[lo:hi], sims.data[lo:hi]
            if len(vals) > k:
                # the k best and every name tied with the k-th, so the order does not depend on the storage order
                kth = vals[numpy.argpartition(-vals, k - 1)[k - 1]]
                keep = vals >= kth
                cols, vals = cols[keep], vals[keep]
            order = numpy.lexsort((cols, -vals))[:k]
            out_idx[start + r, : len(order)] = cols[order]
            out_score[start + r, : len(order)] = vals[order]
    return out_idx, out_score


def check_csr_arrays(data: numpy.ndarray, indices: numpy.ndarray, indptr: numpy.ndarray, shape: Tuple[int, ...],
                     path: Path, what: str, fix: str) -> None:
    """Raise ArtifactError naming `path` and `what` ("its ... disagree") when the arrays cannot form a valid
    CSR matrix of `shape`: scipy would not check the indices, and an index out of range would crash a product."""
    n_rows, n_cols = (int(x) for x in shape)
    if (indptr.shape != (n_rows + 1,) or len(data) != len(indices) or int(indptr[0]) != 0 or int(indptr[-1]) != len(data)
            or (n_rows and numpy.diff(indptr).min() < 0) or (len(indices) and not 0 <= int(indices.min()) <= int(indices.max()) < n_cols)):
        raise ArtifactError(path, f"its {what} disagree (truncated or foreign file)", fix)


def checked_csr(data: numpy.ndarray, indices: numpy.ndarray, indptr: numpy.ndarray, shape: Tuple[int, ...],
                path: Path, what: str, fix: str) -> sp.csr_matrix:
    """A CSR matrix over saved (memory-mapped) arrays, not copied; ArtifactError as `check_csr_arrays`."""
    check_csr_arrays(data, indices, indptr, shape, path, what, fix)
    n_rows, n_cols = (int(x) for x in shape)
    return sp.csr_matrix((data, indices, indptr), shape=(n_rows, n_cols), copy=False)
