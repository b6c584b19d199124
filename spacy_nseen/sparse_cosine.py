"""TF-IDF weighting and candidate cosines shared by the sparse indexes (`ngram_tfidf`, `token_index`)."""
from typing import List, Sequence

import numpy
import scipy.sparse as sp


def l2_tfidf(counts: sp.csr_matrix, idf: numpy.ndarray, sublinear_tf: bool = False) -> sp.csr_matrix:
    """Weight term counts by idf (tf optionally 1 + ln tf) and L2-normalise each row.

    counts (sp.csr_matrix): term counts, one row per string.
    idf (numpy.ndarray): float32 idf per term (column).
    sublinear_tf (bool): use 1 + ln(tf) instead of the raw count.
    RETURNS (sp.csr_matrix): float32 rows of norm 1 (all-zero rows stay zero), indices sorted.
    """
    m = counts.astype(numpy.float32)
    if sublinear_tf:
        numpy.log(m.data, out=m.data)
        m.data += 1.0
    if m.shape[1]:
        m = sp.csr_matrix(m.multiply(idf[numpy.newaxis, :]), dtype=numpy.float32)
    norms = numpy.sqrt(numpy.asarray(m.multiply(m).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    m = sp.csr_matrix(sp.diags(1.0 / norms).astype(numpy.float32) @ m)
    m.sort_indices()
    return m


def pair_cosines(queries: sp.csr_matrix, names: sp.csr_matrix, name_indices: Sequence[Sequence[int]]) -> List[numpy.ndarray]:
    """Cosine of each query row with its candidate name rows, in one sparse pass over all candidates.

    queries (sp.csr_matrix): one L2-normalised row per query.
    names (sp.csr_matrix): the L2-normalised name rows.
    name_indices (Sequence[Sequence[int]]): candidate name rows per query.
    RETURNS (List[numpy.ndarray]): float32 cosines aligned with `name_indices`.
    """
    lengths = numpy.array([len(c) for c in name_indices], dtype=numpy.int64)
    flat = numpy.fromiter((j for c in name_indices for j in c), dtype=numpy.int64, count=int(lengths.sum()))
    if flat.size and (flat.min() < 0 or flat.max() >= names.shape[0]):
        raise IndexError(f"name index out of range [0, {names.shape[0]})")
    q = queries[numpy.repeat(numpy.arange(queries.shape[0]), lengths)]
    scores = numpy.asarray(q.multiply(names[flat]).sum(axis=1), dtype=numpy.float32).ravel()
    return numpy.split(scores, numpy.cumsum(lengths)[:-1]) if len(lengths) else []
