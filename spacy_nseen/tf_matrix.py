"""A TF-IDF matrix stored as its term counts: the float32 weights are rebuilt for the rows a query touches.

`sparse_cosine.l2_tfidf` gives weight(name, term) = f32(inv_norm[name] · f32(tf'(name, term) · idf[term])),
with tf' = tf (or 1 + ln tf, sublinear). Storing tf as uint8/uint16 and one float32 inverse norm per name,
instead of a float32 per non-zero, saves 3 (or 2) bytes per non-zero; `rows` rebuilds the weights of the
selected rows with the same float32 operations, so they are bit-identical to the matrix `l2_tfidf` returns.
The same class holds the transposed matrix (terms × names: the postings of an inverted index). Column indices
are stored as uint16 when there are at most 65,536 columns (the character n-grams of a name matrix).
"""
from pathlib import Path
from typing import Dict, Sequence, Tuple

import numpy
import scipy.sparse as sp

from .errors import ArtifactError
from .sparse_cosine import check_csr_arrays, inverse_norms, weighted_tf

TF_DTYPES = (numpy.uint8, numpy.uint16, numpy.uint32)
INDEX_DTYPES = (numpy.uint16, numpy.int32)


def smallest_index_dtype(n_columns: int) -> numpy.dtype:
    """RETURNS (numpy.dtype): uint16 when every column index fits in it, else int32 (as scipy uses)."""
    return numpy.dtype(numpy.uint16 if n_columns <= 1 << 16 else numpy.int32)


def smallest_tf_dtype(max_tf: int) -> numpy.dtype:
    """RETURNS (numpy.dtype): the smallest unsigned type holding every count up to `max_tf`."""
    for dtype in TF_DTYPES:
        if max_tf <= numpy.iinfo(dtype).max:
            return numpy.dtype(dtype)
    raise ValueError(f"term count {max_tf} does not fit in uint32")


def tfidf_parts(counts: sp.csr_matrix, idf: numpy.ndarray, sublinear_tf: bool = False
                ) -> Tuple[sp.csr_matrix, numpy.ndarray]:
    """The term counts (smallest unsigned type, indices sorted) and float32 inverse row norms of `l2_tfidf`.

    counts (sp.csr_matrix): whole-number term counts, one row per name, duplicates summed.
    RETURNS (Tuple[sp.csr_matrix, numpy.ndarray]): the counts and 1 / norm per row, as `l2_tfidf` computes it.
    """
    counts = sp.csr_matrix(counts, copy=True)
    counts.sum_duplicates()
    counts.sort_indices()
    if counts.nnz and (counts.data.min() < 1 or (counts.data != numpy.round(counts.data)).any()):
        raise ValueError("term counts must be whole numbers >= 1")
    max_tf = int(counts.data.max()) if counts.nnz else 0
    tf = sp.csr_matrix((counts.data.astype(smallest_tf_dtype(max_tf)), counts.indices, counts.indptr), shape=counts.shape)
    return tf, inverse_norms(weighted_tf(counts, idf, sublinear_tf))


def tfidf_values(tf: numpy.ndarray, idf: numpy.ndarray, inv_norm: numpy.ndarray, sublinear_tf: bool) -> numpy.ndarray:
    """The float32 weights of entries, in `l2_tfidf`'s order of operations.

    tf (numpy.ndarray): term counts of the entries.
    idf (numpy.ndarray): float32 idf of each entry's term.
    inv_norm (numpy.ndarray): float32 inverse L2 norm of each entry's name.
    RETURNS (numpy.ndarray): float32 f32(inv_norm · f32(tf' · idf)).
    """
    values = tf.astype(numpy.float32)
    if sublinear_tf:
        numpy.log(values, out=values)
        values += 1.0
    values *= idf
    values *= inv_norm
    return values


class TfMatrix:
    """Term counts (CSR arrays; counts unsigned ints) of a TF-IDF matrix, with its idf and per-name inverse norms.

    by_name (bool): rows are names and columns terms (the name matrix); False: rows are terms (postings).
    """

    def __init__(self, tf: numpy.ndarray, indices: numpy.ndarray, indptr: numpy.ndarray, shape: Tuple[int, int],
                 idf: numpy.ndarray, inv_norm: numpy.ndarray, *, by_name: bool, sublinear_tf: bool = False) -> None:
        self.tf = tf
        self.indices = indices
        self.indptr = indptr
        self.shape: Tuple[int, int] = (int(shape[0]), int(shape[1]))
        self.idf = idf
        self.inv_norm = inv_norm
        self.by_name = by_name
        self.sublinear_tf = sublinear_tf

    @classmethod
    def from_counts(cls, counts: sp.csr_matrix, idf: numpy.ndarray, inv_norm: numpy.ndarray, *, by_name: bool,
                    sublinear_tf: bool = False) -> "TfMatrix":
        """RETURNS (TfMatrix): the counts of a CSR matrix (unsigned data), column indices narrowed if they fit."""
        indices = counts.indices.astype(smallest_index_dtype(counts.shape[1]), copy=False)
        return cls(counts.data, indices, counts.indptr, counts.shape, idf, inv_norm, by_name=by_name,
                   sublinear_tf=sublinear_tf)

    @classmethod
    def fit(cls, counts: sp.csr_matrix, idf: numpy.ndarray, sublinear_tf: bool = False) -> "TfMatrix":
        """The compact form of `l2_tfidf(counts, idf, sublinear_tf)` (counts: names × terms, summed, sorted)."""
        tf, inv_norm = tfidf_parts(counts, idf, sublinear_tf)
        return cls.from_counts(tf, idf, inv_norm, by_name=True, sublinear_tf=sublinear_tf)

    @property
    def nnz(self) -> int:
        """RETURNS (int): number of stored entries."""
        return int(self.indptr[-1])

    def counts(self) -> sp.csr_matrix:
        """RETURNS (sp.csr_matrix): the term counts as a CSR matrix (int32 indices)."""
        return sp.csr_matrix((self.tf, self.indices.astype(numpy.int32, copy=False), self.indptr), shape=self.shape)

    def rows(self, selected: Sequence[int]) -> sp.csr_matrix:
        """The float32 rows `selected` (in that order, repeats allowed), equal to `to_csr()[selected]`."""
        sel = numpy.asarray(selected, dtype=numpy.int64)
        starts = numpy.asarray(self.indptr[sel], dtype=numpy.int64)
        lengths = numpy.asarray(self.indptr[sel + 1], dtype=numpy.int64) - starts
        indptr = numpy.zeros(len(sel) + 1, dtype=numpy.int64)
        numpy.cumsum(lengths, out=indptr[1:])
        positions = numpy.repeat(starts - indptr[:-1], lengths) + numpy.arange(indptr[-1], dtype=numpy.int64)
        return self._build(positions, numpy.repeat(sel, lengths), indptr, len(sel))

    def to_csr(self) -> sp.csr_matrix:
        """RETURNS (sp.csr_matrix): the whole float32 matrix (as `l2_tfidf` or its transpose gives it)."""
        lengths = numpy.diff(numpy.asarray(self.indptr, dtype=numpy.int64))
        owners = numpy.repeat(numpy.arange(self.shape[0], dtype=numpy.int64), lengths)
        return self._build(slice(None), owners, numpy.asarray(self.indptr, dtype=numpy.int64), self.shape[0])

    def transposed(self) -> "TfMatrix":
        """RETURNS (TfMatrix): the transposed counts (names × terms ↔ terms × names), indices sorted."""
        t = self.counts().T.tocsr()
        t.sort_indices()
        return TfMatrix.from_counts(t, self.idf, self.inv_norm, by_name=not self.by_name, sublinear_tf=self.sublinear_tf)

    def arrays(self, prefix: str) -> Dict[str, numpy.ndarray]:
        """RETURNS (Dict[str, numpy.ndarray]): `{prefix}tf`, `{prefix}indices`, `{prefix}indptr` to save."""
        return {f"{prefix}tf": self.tf, f"{prefix}indices": self.indices, f"{prefix}indptr": self.indptr}

    @classmethod
    def from_arrays(cls, stored: Dict[str, numpy.ndarray], prefix: str, shape: Tuple[int, int], idf: numpy.ndarray,
                    inv_norm: numpy.ndarray, *, by_name: bool, sublinear_tf: bool, path: Path, what: str,
                    fix: str) -> "TfMatrix":
        """The matrix over saved (memory-mapped) arrays; ArtifactError if they disagree."""
        tf, indices, indptr = (stored[f"{prefix}{a}"] for a in ("tf", "indices", "indptr"))
        if (tf.dtype not in [numpy.dtype(d) for d in TF_DTYPES] or indices.dtype not in [numpy.dtype(d) for d in INDEX_DTYPES]
                or indptr.dtype not in (numpy.int32, numpy.int64) or tf.ndim != 1 or indices.ndim != 1):
            raise ArtifactError(path, f"its {what} have types {tf.dtype}, {indices.dtype}, {indptr.dtype}, not term "
                                "counts (foreign file)", fix)
        check_csr_arrays(tf, indices, indptr, shape, path, what, fix)
        return cls(tf, indices, indptr, shape, idf, inv_norm, by_name=by_name, sublinear_tf=sublinear_tf)

    def _build(self, positions, owners: numpy.ndarray, indptr: numpy.ndarray, n_rows: int) -> sp.csr_matrix:
        cols = numpy.asarray(self.indices[positions]).astype(numpy.int32, copy=False)
        tf = numpy.asarray(self.tf[positions])
        names, terms = (owners, cols) if self.by_name else (cols, owners)
        data = tfidf_values(tf, self.idf[terms], self.inv_norm[names], self.sublinear_tf)
        return sp.csr_matrix((data, cols, indptr), shape=(n_rows, self.shape[1]))
