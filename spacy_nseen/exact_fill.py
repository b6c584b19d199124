"""Cheap searches for ranks 2..k of a mention that matches reference names exactly (`exact_fill`).

Such a mention skips the encoder and Annoy (the exact short-cut); its other candidates come from the
posting lists of its rare terms only (character n-grams, words), which are short by definition.
"""
from typing import List, Tuple, Union

import numpy
import scipy.sparse as sp

from .sparse_cosine import postings_products
from .tf_matrix import TfMatrix

Postings = Union[sp.csr_matrix, TfMatrix]


def top_k_postings(queries: sp.csr_matrix, postings_t: Postings, k: int, chunk_size: int = 256
                   ) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """The k best names per query by the dot product with the (terms × names) postings, best first
    (ties: lower name index first); -1 / 0.0 where fewer names share a term.

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


def without_common_terms(queries: sp.csr_matrix, postings_t: Postings, max_count: int) -> sp.csr_matrix:
    """The query rows without the terms found in more than `max_count` names, so that a search over the
    (terms × names) postings reads short posting lists only."""
    queries = queries.tocsr()
    keep = numpy.diff(postings_t.indptr)[queries.indices] <= max_count
    entry_rows = numpy.repeat(numpy.arange(queries.shape[0]), numpy.diff(queries.indptr))
    counts = numpy.bincount(entry_rows[keep], minlength=queries.shape[0])
    indptr = numpy.concatenate([[0], numpy.cumsum(counts)]).astype(numpy.int64)
    return sp.csr_matrix((queries.data[keep], queries.indices[keep], indptr), shape=queries.shape)


def number_variants(text: str) -> List[str]:
    """The other grammatical number of a mention ending in a lowercase word (`amino acids` → `amino acid`,
    `folate` → `folates`), by the S-stemmer rules of Harman (1991) and their inverse; [] for other mentions."""
    if len(text) < 4 or not text[-2:].isalpha() or not text[-2:].islower():
        return []
    if text.endswith("ies") and not text.endswith(("eies", "aies")):
        return [text[:-3] + "y"]
    if text.endswith("es") and not text.endswith(("aes", "ees", "oes")):
        return [text[:-1]]
    if text.endswith("s"):
        return [] if text.endswith(("us", "ss")) else [text[:-1]]
    return [text[:-1] + "ies" if text.endswith("y") and text[-2] not in "aeiou" else text + "s"]
