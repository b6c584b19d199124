"""The sparse core shared by the character and word TF-IDF indexes (`char_tfidf`, `word_tfidf`): TF-IDF weighting,
candidate cosines, postings searches, checked loading, and `TfMatrix`.

`fit_terms`: the vocabulary, term counts and smooth idf of the names' terms (character n-grams or words).
`shared_rows`: names with the same terms share one stored row (`NameCounts`), the idf still counting names.

`TfMatrix`: A TF-IDF matrix stored as its term counts: the float32 weights are rebuilt for the rows a query touches.

`l2_tfidf` gives weight(name, term) = f32(inv_norm[name] · f32(tf'(name, term) · idf[term])),
with tf' = tf (or 1 + ln tf, sublinear). Instead of a float32 weight and an int32 column per non-zero (8 bytes),
each non-zero is one uint32 `column | tf << col_bits` (col_bits: enough bits for the columns; the count gets the
rest, e.g. 16 bits for 35k character n-grams, 13 bits for 300k words), plus one float32 inverse norm per name.
`rows` rebuilds the weights of the selected rows with `l2_tfidf`'s float32 operations, so they are bit-identical
to the matrix it returns. When a count does not fit (or there are 2^31 non-zeros), the entries are uint64.
The same class holds the transposed matrix (terms × names: the postings of an inverted index).
"""

import copy
import itertools
from array import array
from pathlib import Path
from typing import (
    Callable,
    Dict,
    Hashable,
    Iterable,
    Iterator,
    List,
    Mapping,
    NoReturn,
    Optional,
    Sequence,
    Tuple,
    TypeVar,
    Union,
)

import numpy
import scipy.sparse as sp

from ..errors import ArtifactError
from .added_rows import AddedRows, join_hits
from .shared_vectors import VectorRows


def count_matrix(
    indices: Union[array, numpy.ndarray], indptr: Union[array, numpy.ndarray], shape: Tuple[int, int]
) -> sp.csr_matrix:
    """RETURNS (sp.csr_matrix): float32 term counts from the flat term ids of the rows (int32) and the rows'
    starts (int64): a term repeated in a row counts once per occurrence."""
    idx = numpy.asarray(indices, dtype=numpy.int32) if len(indices) else numpy.zeros(0, numpy.int32)
    counts = sp.csr_matrix(
        (numpy.ones(len(idx), dtype=numpy.float32), idx, numpy.asarray(indptr, dtype=numpy.int64)), shape=shape
    )
    counts.sum_duplicates()
    return counts


def row_counts(rows: Iterable[Iterable[int]], n_terms: int) -> sp.csr_matrix:
    """RETURNS (sp.csr_matrix): the `count_matrix` of rows of term ids."""
    indices = array("i")
    indptr = array("q", [0])
    for row in rows:
        indices.extend(row)
        indptr.append(len(indices))
    return count_matrix(indices, indptr, (len(indptr) - 1, n_terms))


def document_frequency(counts: sp.csr_matrix, row_sizes: Optional[numpy.ndarray] = None) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): int64, the number of names that have each term (column), a row standing for
    `row_sizes[row]` names (None: one each)."""
    if row_sizes is None:
        return numpy.bincount(counts.indices, minlength=counts.shape[1]).astype(numpy.int64)
    weights = numpy.repeat(numpy.asarray(row_sizes, dtype=numpy.float64), numpy.diff(counts.indptr))
    return numpy.bincount(counts.indices, weights=weights, minlength=counts.shape[1]).astype(numpy.int64)


def smooth_idf(counts: sp.csr_matrix, row_sizes: Optional[numpy.ndarray] = None) -> numpy.ndarray:
    """RETURNS (numpy.ndarray): float32 idf = ln((1 + n) / (1 + df)) + 1 of a count matrix's columns (scikit-learn's),
    n and df counting names (a row stands for `row_sizes[row]` names; None: one each)."""
    df = document_frequency(counts, row_sizes)
    n_names = counts.shape[0] if row_sizes is None else int(numpy.sum(row_sizes))
    return (numpy.log((1.0 + n_names) / (1.0 + df)) + 1.0).astype(numpy.float32)


def fit_terms(
    rows: Iterable[Iterable[str]], row_sizes: Optional[numpy.ndarray] = None
) -> Tuple[Dict[str, int], sp.csr_matrix, numpy.ndarray]:
    """Fit a vocabulary to the terms of each name.

    rows (Iterable[Iterable[str]]): per name (or per stored row), its terms (repeats count).
    row_sizes (Optional[numpy.ndarray]): the names each row stands for (None: one each), for the idf.
    RETURNS (Tuple[Dict[str, int], sp.csr_matrix, numpy.ndarray]): term → id (first-seen order), the float32
        count matrix (rows × terms) and the smooth idf (`smooth_idf`).
    """
    vocab: Dict[str, int] = {}
    indices = array("i")
    indptr = array("q", [0])
    for terms in rows:
        indices.extend(vocab.setdefault(t, len(vocab)) for t in terms)
        indptr.append(len(indices))
    counts = count_matrix(indices, indptr, (len(indptr) - 1, len(vocab)))
    return vocab, counts, smooth_idf(counts, row_sizes)


def shared_rows(keys: Sequence[Hashable], share: bool = True) -> Tuple[Optional[VectorRows], List[int]]:
    """Which names share a stored TF-IDF row: those with equal keys (the text whose terms are taken).

    share (bool): False gives every name its own row.
    RETURNS (Tuple[Optional[VectorRows], List[int]]): the map (None when every name has its own row) and the
        first name of each stored row (whose terms are fitted).
    """
    if share:
        rows, first_rows = VectorRows.from_keys(keys)
        if rows.n_vectors < rows.n_rows:
            return rows, first_rows
    return None, list(range(len(keys)))


def smaller_storage(
    shared: Optional[VectorRows], counts: sp.csr_matrix, copies: int
) -> Tuple[Optional[VectorRows], sp.csr_matrix]:
    """Keep names sharing rows only where that makes the index smaller.

    A repeated row would store its entries `copies` times (name matrix, postings: 4 bytes each) and an offset and
    a norm (8 bytes); the map costs 4 bytes per name twice and per row once. In the 5-organism UniProt set,
    sharing saves a third of the character TF-IDF; ChEBI's names are nearly all distinct, and the map would cost
    what it saves.
    counts (sp.csr_matrix): the term counts of the stored rows.
    RETURNS (Tuple[Optional[VectorRows], sp.csr_matrix]): the map (None: a row per name) and the counts to store.
    """
    if shared is None:
        return None, counts
    repeats = shared.sizes - 1
    saved = 4 * copies * int((numpy.diff(counts.indptr) * repeats).sum()) + 8 * int(repeats.sum())
    if saved > 4 * (2 * shared.n_rows + shared.n_vectors + 1):
        return shared, counts
    return None, sp.csr_matrix(counts[shared.row_vectors])


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


def pair_cosines(
    queries: sp.csr_matrix,
    names: "Union[sp.csr_matrix, TfMatrix]",
    name_indices: Sequence[Sequence[int]],
    shared: Optional[VectorRows] = None,
) -> List[numpy.ndarray]:
    """Cosine of each query row with its candidate name rows, in sparse passes over blocks of candidates.

    queries (sp.csr_matrix): one L2-normalised row per query.
    names (Union[sp.csr_matrix, TfMatrix]): the L2-normalised name rows (a TfMatrix rebuilds only the candidates').
    name_indices (Sequence[Sequence[int]]): candidate name rows per query.
    shared (Optional[VectorRows]): the stored row of each name, when names share rows (None: row i is name i).
    RETURNS (List[numpy.ndarray]): float32 cosines aligned with `name_indices` (each the sum of the products of
        the shared terms, in column order: a row's score does not depend on the other rows of its block).
    """
    lengths = numpy.array([len(c) for c in name_indices], dtype=numpy.int64)
    flat = numpy.fromiter(itertools.chain.from_iterable(name_indices), dtype=numpy.int64, count=int(lengths.sum()))
    if shared is not None:
        flat = shared.vectors_of(flat)
    elif flat.size and (flat.min() < 0 or flat.max() >= names.shape[0]):
        raise IndexError(f"name index out of range [0, {names.shape[0]})")
    owners = numpy.repeat(numpy.arange(queries.shape[0]), lengths)
    scores = numpy.zeros(len(flat), dtype=numpy.float32)
    for start in range(0, len(flat), PAIR_BLOCK):
        block = slice(start, start + PAIR_BLOCK)
        candidates = names[flat[block]] if isinstance(names, sp.spmatrix) else names.rows(flat[block])
        scores[block] = numpy.asarray(
            queries[owners[block]].multiply(candidates).sum(axis=1), dtype=numpy.float32
        ).ravel()
    return numpy.split(scores, numpy.cumsum(lengths)[:-1]) if len(lengths) else []


def local_postings(
    queries: sp.csr_matrix, postings: "Union[sp.csr_matrix, TfMatrix]"
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
    local = sp.csr_matrix(
        (queries.data, numpy.searchsorted(terms, queries.indices).astype(queries.indices.dtype), queries.indptr),
        shape=(queries.shape[0], len(terms)),
    )
    return local, postings.rows(terms)


def postings_products(
    queries: sp.csr_matrix, postings: "Union[sp.csr_matrix, TfMatrix]", chunk_size: int
) -> Iterator[Tuple[int, sp.csr_matrix]]:
    """`queries[start:start + chunk_size] @ postings` (terms × names) for each chunk, with its start.

    A TfMatrix's postings are rebuilt (`local_postings`) once per block of POSTINGS_BLOCK queries (whole
    chunks), so a term's postings are rebuilt once for all the chunks of a block that use it.
    """
    block = chunk_size * max(1, POSTINGS_BLOCK // chunk_size)
    q_block, p_block = queries, postings
    for start in range(0, queries.shape[0], chunk_size):
        if start % block == 0:
            q_block, p_block = local_postings(queries[start : start + block], postings)
        offset = start % block
        yield start, q_block[offset : offset + chunk_size] @ p_block


def top_k_postings(
    queries: sp.csr_matrix, postings_t: "Union[sp.csr_matrix, TfMatrix]", k: int, chunk_size: int = 256
) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """The k best names per query by the dot product with the (terms × names) postings, best first
    (ties: lower name index first; every name tied with the k-th is ranked, as a full sort would); -1 / 0.0
    where fewer names share a term. The search of `token_index`.

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


def check_csr_arrays(
    data: numpy.ndarray,
    indices: numpy.ndarray,
    indptr: numpy.ndarray,
    shape: Tuple[int, ...],
    path: Path,
    what: str,
    fix: str,
) -> None:
    """Raise ArtifactError naming `path` and `what` ("its ... disagree") when the arrays cannot form a valid
    CSR matrix of `shape`: scipy would not check the indices, and an index out of range would crash a product."""
    n_rows, n_cols = (int(x) for x in shape)
    if (
        indptr.shape != (n_rows + 1,)
        or len(data) != len(indices)
        or int(indptr[0]) != 0
        or int(indptr[-1]) != len(data)
        or (n_rows and numpy.diff(indptr).min() < 0)
        or (len(indices) and not 0 <= int(indices.min()) <= int(indices.max()) < n_cols)
    ):
        raise ArtifactError(path, f"its {what} disagree (truncated or foreign file)", fix)


def checked_csr(
    data: numpy.ndarray,
    indices: numpy.ndarray,
    indptr: numpy.ndarray,
    shape: Tuple[int, ...],
    path: Path,
    what: str,
    fix: str,
) -> sp.csr_matrix:
    """A CSR matrix over saved (memory-mapped) arrays, not copied; ArtifactError as `check_csr_arrays`."""
    check_csr_arrays(data, indices, indptr, shape, path, what, fix)
    n_rows, n_cols = (int(x) for x in shape)
    return sp.csr_matrix((data, indices, indptr), shape=(n_rows, n_cols), copy=False)


_csr_row_index: Optional[Callable[..., None]]
try:  # scipy's C++ row gather (what `csr_matrix[rows]` runs): copies each selected row's range at once.
    from scipy.sparse._sparsetools import csr_row_index

    _csr_row_index = csr_row_index
except ImportError:  # pragma: no cover - a scipy without it: the numpy gather below
    _csr_row_index = None

SHARED_PREFIX = "shared_"  # the saved name → stored row map (`VectorRows` arrays)


def column_bits(n_columns: int) -> int:
    """RETURNS (int): the bits that hold every column index below `n_columns` (at least 1)."""
    return max(1, (int(n_columns) - 1).bit_length())


def entry_width(n_columns: int, max_tf: int, nnz: int) -> int:
    """RETURNS (int): 32 when every (column, count) pair and offset fits a uint32 / int32, else 64."""
    bits = column_bits(n_columns)
    return 32 if bits + max(1, int(max_tf).bit_length()) <= 32 and nnz < 1 << 31 else 64


def tfidf_values(tf: numpy.ndarray, idf: numpy.ndarray, inv_norm: numpy.ndarray, sublinear_tf: bool) -> numpy.ndarray:
    """The float32 weights of entries, in `l2_tfidf`'s order of operations.

    tf (numpy.ndarray): term counts of the entries.
    idf (numpy.ndarray): float32 idf of each entry's term (a temporary array: overwritten unless sublinear_tf).
    inv_norm (numpy.ndarray): float32 inverse L2 norm of each entry's name.
    RETURNS (numpy.ndarray): float32 f32(inv_norm · f32(tf' · idf)).
    """
    if sublinear_tf:
        values = tf.astype(numpy.float32)
        numpy.log(numpy.maximum(values, 1.0, out=values), out=values)  # a count of 0 (a damaged file): as 1
        values += 1.0
        values *= idf
    else:  # the count converted to float32 (exact) as the product reads it: one pass, no copy of the counts
        values = numpy.multiply(tf, idf, out=idf, dtype=numpy.float32, casting="unsafe")
    values *= inv_norm
    return values


class TfMatrix:
    """Packed term counts (CSR rows of `column | tf << col_bits`) of a TF-IDF matrix, its idf and inverse norms.

    by_name (bool): rows are names and columns terms (the name matrix); False: rows are terms (postings).
    """

    def __init__(
        self,
        entries: numpy.ndarray,
        indptr: numpy.ndarray,
        shape: Tuple[int, int],
        idf: numpy.ndarray,
        inv_norm: numpy.ndarray,
        *,
        by_name: bool,
        sublinear_tf: bool = False,
    ) -> None:
        # numpy.asarray: plain views of memory-mapped arrays (numpy.memmap's indexing is slower), not copies.
        self.entries = numpy.asarray(entries)
        self.indptr = numpy.asarray(indptr)
        self.shape: Tuple[int, int] = (int(shape[0]), int(shape[1]))
        self.col_bits = column_bits(self.shape[1])
        self.idf = numpy.asarray(idf)
        self.inv_norm = numpy.asarray(inv_norm)
        self.by_name = by_name
        self.sublinear_tf = sublinear_tf
        self.source: Optional[Tuple[Path, str, str]] = None  # (file, what, fix) of a loaded matrix, for errors

    @classmethod
    def from_counts(
        cls,
        counts: sp.csr_matrix,
        idf: numpy.ndarray,
        inv_norm: numpy.ndarray,
        *,
        by_name: bool,
        sublinear_tf: bool = False,
    ) -> "TfMatrix":
        """RETURNS (TfMatrix): the packed form of a CSR matrix of whole-number counts >= 1 (indices sorted)."""
        data = counts.data
        if counts.nnz and (data.min() < 1 or (data != numpy.round(data)).any()):
            raise ValueError("term counts must be whole numbers >= 1")
        max_tf = int(data.max()) if counts.nnz else 0
        width = entry_width(counts.shape[1], max_tf, counts.nnz)
        unsigned, signed = (numpy.uint32, numpy.int32) if width == 32 else (numpy.uint64, numpy.int64)
        entries = counts.indices.astype(unsigned) | (data.astype(unsigned) << unsigned(column_bits(counts.shape[1])))
        return cls(
            entries,
            counts.indptr.astype(signed),
            counts.shape,
            idf,
            inv_norm,
            by_name=by_name,
            sublinear_tf=sublinear_tf,
        )

    @classmethod
    def empty(cls) -> "TfMatrix":
        """RETURNS (TfMatrix): the matrix of no names (an index not fitted yet)."""
        return cls.from_counts(
            sp.csr_matrix(numpy.zeros((0, 0), dtype=numpy.uint8)),
            numpy.zeros((0,), dtype=numpy.float32),
            numpy.zeros(0, numpy.float32),
            by_name=True,
        )

    @classmethod
    def fit(cls, counts: sp.csr_matrix, idf: numpy.ndarray, sublinear_tf: bool = False) -> "TfMatrix":
        """The compact form of `l2_tfidf(counts, idf, sublinear_tf)` (counts: names × terms)."""
        counts = sp.csr_matrix(counts, copy=True)
        counts.sum_duplicates()
        counts.sort_indices()
        inv_norm = inverse_norms(weighted_tf(counts, idf, sublinear_tf))
        return cls.from_counts(counts, idf, inv_norm, by_name=True, sublinear_tf=sublinear_tf)

    @property
    def nnz(self) -> int:
        """RETURNS (int): number of stored entries."""
        return int(self.indptr[-1])

    @property
    def indices(self) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): the column of every entry (int32 or int64; a new array)."""
        return self._columns(numpy.asarray(self.entries))

    @property
    def tf(self) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): the count of every entry (a new array)."""
        return numpy.asarray(self.entries) >> self.entries.dtype.type(self.col_bits)

    def counts(self) -> sp.csr_matrix:
        """RETURNS (sp.csr_matrix): the term counts as an integer CSR matrix (a copy)."""
        indices = self.indices
        if len(indices) and int(indices.max()) >= self.shape[1]:  # scipy's C++ routines would not check
            self._out_of_range()
        return sp.csr_matrix((self.tf, indices, numpy.asarray(self.indptr)), shape=self.shape)

    def _out_of_range(self) -> NoReturn:
        path, what, fix = self.source or (Path("<memory>"), "term counts", "Rebuild it")
        raise ArtifactError(path, f"its {what} hold a column out of range (damaged or foreign file)", fix)

    def rows(self, selected: Union[Sequence[int], numpy.ndarray]) -> sp.csr_matrix:
        """The float32 rows `selected` (in that order, repeats allowed), equal to `to_csr()[selected]`."""
        signed = self.indptr.dtype
        sel = numpy.asarray(selected, dtype=numpy.int64)
        if sel.size and (int(sel.min()) < 0 or int(sel.max()) >= self.shape[0]):
            raise IndexError(f"row index out of range [0, {self.shape[0]})")  # the C++ gather would not check
        sel = sel.astype(signed, copy=False)
        starts = numpy.asarray(self.indptr[sel])
        lengths = numpy.asarray(self.indptr[sel + 1]) - starts
        indptr = numpy.zeros(len(sel) + 1, dtype=signed)
        numpy.cumsum(lengths, out=indptr[1:])
        entries = self._gather(sel, starts, lengths, indptr)
        inv_norm = numpy.repeat(self.inv_norm[sel], lengths) if self.by_name else None
        return self._build(entries, indptr, len(sel), sel, lengths, inv_norm)

    def to_csr(self) -> sp.csr_matrix:
        """RETURNS (sp.csr_matrix): the whole float32 matrix (as `l2_tfidf` or its transpose gives it)."""
        return self.rows(numpy.arange(self.shape[0]))

    def transposed(self) -> "TfMatrix":
        """RETURNS (TfMatrix): the transposed counts (names × terms ↔ terms × names), indices sorted."""
        t = self.counts().T.tocsr()
        t.sort_indices()
        return TfMatrix.from_counts(
            t, self.idf, self.inv_norm, by_name=not self.by_name, sublinear_tf=self.sublinear_tf
        )

    def arrays(self, prefix: str) -> Dict[str, numpy.ndarray]:
        """RETURNS (Dict[str, numpy.ndarray]): `{prefix}entries` and `{prefix}indptr`, to save."""
        return {f"{prefix}entries": self.entries, f"{prefix}indptr": self.indptr}

    @classmethod
    def from_arrays(
        cls,
        stored: Dict[str, numpy.ndarray],
        prefix: str,
        shape: Tuple[int, int],
        idf: numpy.ndarray,
        inv_norm: numpy.ndarray,
        *,
        by_name: bool,
        sublinear_tf: bool,
        path: Path,
        what: str,
        fix: str,
    ) -> "TfMatrix":
        """The matrix over saved (memory-mapped) arrays; ArtifactError naming `path` if they disagree."""
        entries, indptr = stored[f"{prefix}entries"], stored[f"{prefix}indptr"]
        packed_types = (
            (numpy.dtype(numpy.uint32), numpy.dtype(numpy.int32)),
            (numpy.dtype(numpy.uint64), numpy.dtype(numpy.int64)),
        )
        if (entries.dtype, indptr.dtype) not in packed_types or entries.ndim != 1:
            raise ArtifactError(
                path,
                f"its {what} have types {entries.dtype}, {indptr.dtype}, not packed term counts (foreign file)",
                fix,
            )
        matrix = cls(entries, indptr, shape, idf, inv_norm, by_name=by_name, sublinear_tf=sublinear_tf)
        matrix.source = (path, what, fix)
        if not matrix._valid():
            raise ArtifactError(path, f"its {what} disagree (truncated or foreign file)", fix)
        return matrix

    def _valid(self) -> bool:
        """RETURNS (bool): offsets rise from 0 to the entry count (the row gather trusts them).

        The entries are not scanned on load: that would read every page of a memory-mapped file before the first
        search. A column out of range is caught where it is read (`_build` and `counts` raise ArtifactError); a count
        of 0 weighs nothing (as 1 with sublinear tf: `tfidf_values`)."""
        n_rows = self.shape[0]
        indptr = self.indptr
        if indptr.shape != (n_rows + 1,) or int(indptr[0]) != 0 or int(indptr[-1]) != len(self.entries):
            return False
        return not (n_rows and bool((indptr[1:] < indptr[:-1]).any()))

    def _columns(self, entries: numpy.ndarray) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): the columns of packed entries (a new int32 / int64 array: they fit in 31 bits)."""
        mask = entries.dtype.type((1 << self.col_bits) - 1)
        return numpy.bitwise_and(entries, mask).view(self.indptr.dtype)

    def _gather(
        self, sel: numpy.ndarray, starts: numpy.ndarray, lengths: numpy.ndarray, indptr: numpy.ndarray
    ) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): the entries of the selected rows, concatenated."""
        n = int(indptr[-1])
        if _csr_row_index is not None:
            signed = self.entries.view(self.indptr.dtype)
            out = numpy.empty(n, dtype=self.indptr.dtype)
            _csr_row_index(len(sel), sel, self.indptr, signed, signed, out, out)  # "indices" and "data": the same copy
            return out.view(self.entries.dtype)
        positions = numpy.repeat(starts - indptr[:-1], lengths) + numpy.arange(n, dtype=indptr.dtype)
        return numpy.asarray(self.entries[positions])

    def _build(
        self,
        entries: numpy.ndarray,
        indptr: numpy.ndarray,
        n_rows: int,
        sel: numpy.ndarray,
        lengths: numpy.ndarray,
        inv_norm: Optional[numpy.ndarray],
    ) -> sp.csr_matrix:
        """RETURNS (sp.csr_matrix): the float32 rows of gathered `entries` (overwritten); `inv_norm` per entry
        for a name matrix (rows are names), None for postings (the columns are names)."""
        cols = self._columns(entries)
        try:  # numpy.take checks every column (not checked on load: `_valid`)
            weights = numpy.take(self.idf if self.by_name else self.inv_norm, cols)
        except IndexError:
            self._out_of_range()
        tf = numpy.right_shift(entries, entries.dtype.type(self.col_bits), out=entries)
        if self.by_name:
            assert inv_norm is not None  # a name matrix is always built with its names' norms
            data = tfidf_values(tf, weights, inv_norm, self.sublinear_tf)
        else:
            data = tfidf_values(tf, numpy.repeat(self.idf[sel], lengths), weights, self.sublinear_tf)
        return sp.csr_matrix((data, cols, indptr), shape=(n_rows, self.shape[1]))


Postings = Union[sp.csr_matrix, TfMatrix]


def without_common_terms(queries: sp.csr_matrix, df: numpy.ndarray, max_count: int) -> sp.csr_matrix:
    """The query rows without the terms found in more than `max_count` names (`df`: the names of each term), so
    that a search over the (terms × names) postings reads short posting lists only."""
    queries = queries.tocsr()
    keep = numpy.asarray(df)[queries.indices] <= max_count
    entry_rows = numpy.repeat(numpy.arange(queries.shape[0]), numpy.diff(queries.indptr))
    counts = numpy.bincount(entry_rows[keep], minlength=queries.shape[0])
    indptr = numpy.concatenate([[0], numpy.cumsum(counts)]).astype(numpy.int64)
    return sp.csr_matrix((queries.data[keep], queries.indices[keep], indptr), shape=queries.shape)


NC = TypeVar("NC", bound="NameCounts")


class NameCounts:
    """Base of the TF-IDF indexes over reference names (char n-grams, words): `counts`, stored rows × terms.

    Names whose terms are the same share one stored row (`shared`: name → row, None when every name has its own):
    the idf and the document frequencies count names, so every score is the one an index with a row per name
    gives, and searches answer with name rows (`ranked_names`).

    Names added after the fit (`with_added_names`) are a side block (`added_rows.AddedRows`, weighted with the
    fitted vocabulary and idf): searches join its hits to the stored rows' and `name_cosines` scores them; `n_names`
    and everything saved stay those of the fitted names.
    """

    counts: TfMatrix
    shared: Optional[VectorRows] = None
    added: Optional[AddedRows] = None

    def transform(self, strings: Sequence[str]) -> sp.csr_matrix:
        """RETURNS (sp.csr_matrix): the L2-normalised TF-IDF rows of strings (each index defines its terms)."""
        raise NotImplementedError

    @property
    def n_names(self) -> int:
        """RETURNS (int): Number of fitted names (the added ones not counted)."""
        return self.shared.n_rows if self.shared is not None else self.counts.shape[0]

    @property
    def n_searched(self) -> int:
        """RETURNS (int): the names searched: the fitted ones and the added ones."""
        return self.n_names + (len(self.added) if self.added is not None else 0)

    def with_added_names(self: NC, names: Sequence[str]) -> NC:
        """RETURNS (NameCounts): a copy of this index (sharing the fitted one) that also scores `names`, as the
        names after its last, with the fitted vocabulary and idf (terms it never saw are left out)."""
        weights = sp.csr_matrix(self.transform(list(names)), dtype=numpy.float32)
        twin = copy.copy(self)
        twin.added = AddedRows(self.n_names, weights) if self.added is None else self.added.appended(weights)
        return twin

    def join_added(
        self,
        query_vectors: sp.csr_matrix,
        found: Tuple[numpy.ndarray, numpy.ndarray],
        k: int,
        columns: Optional[numpy.ndarray] = None,
    ) -> Tuple[numpy.ndarray, numpy.ndarray]:
        """RETURNS: a search's hits over the fitted names (`found`) with the added names that rank among the `k`
        best (`added_rows.join_hits`); `found` itself when there are none. columns: the terms that count."""
        if self.added is None or not query_vectors.shape[0]:
            return found
        return join_hits(found, self.added.search(query_vectors, k, columns), k, 0.0)

    @property
    def n_rows(self) -> int:
        """RETURNS (int): Number of stored rows (distinct term rows; `n_names` when none are shared)."""
        return self.counts.shape[0]

    @property
    def row_sizes(self) -> Optional[numpy.ndarray]:
        """RETURNS (Optional[numpy.ndarray]): the names of each stored row (None: one each)."""
        return None if self.shared is None else self.shared.sizes

    @property
    def matrix(self) -> sp.csr_matrix:
        """RETURNS (sp.csr_matrix): the whole float32 name matrix (a row per name), rebuilt from the counts on
        each call."""
        if self.shared is None:
            return self.counts.to_csr()
        return self.counts.rows(self.shared.row_vectors)

    def name_cosines(self, query_vectors: sp.csr_matrix, name_indices: Sequence[Sequence[int]]) -> List[numpy.ndarray]:
        """`pair_cosines` of each query with its candidate names (name rows, mapped to the stored rows; added
        names scored by their side block)."""
        if self.added is None:
            return pair_cosines(query_vectors, self.counts, name_indices, self.shared)
        first = self.added.first_row
        fitted = [[int(i) for i in names if i < first] for names in name_indices]
        out = pair_cosines(query_vectors, self.counts, fitted, self.shared)
        for q, names in enumerate(name_indices):
            places = [j for j, i in enumerate(names) if i >= first]
            if not places:
                continue
            scores = numpy.empty(len(names), dtype=numpy.float32)
            is_added = numpy.zeros(len(names), dtype=bool)
            is_added[places] = True
            scores[~is_added] = out[q]
            scores[is_added] = self.added.cosines(query_vectors, [q] * len(places), [names[j] for j in places])
            out[q] = scores
        return out

    def ranked_names(
        self, row_ids: numpy.ndarray, scores: numpy.ndarray, k: int
    ) -> Tuple[numpy.ndarray, numpy.ndarray]:
        """The k best names of a search over the stored rows (ranked by score, then lower row): by score, then
        lower name, -1 / 0.0 where fewer (`VectorRows.best_rows`). Without shared rows the stored rows are the
        names, and the search's k columns are returned as they are."""
        if self.shared is None:
            return row_ids, scores
        return self.shared.best_rows(row_ids, scores, k)

    def shared_arrays(self) -> Dict[str, numpy.ndarray]:
        """RETURNS (Dict[str, numpy.ndarray]): the name → row map to save (none when every name has its own row)."""
        if self.shared is None:
            return {}
        return {SHARED_PREFIX + key: value for key, value in self.shared.to_arrays().items()}

    def load_shared(self, stored: Mapping[str, numpy.ndarray], path: Path, fix: str) -> None:
        """Read the saved name → row map (if any); ArtifactError naming `path` when it is partial or does not fit
        the stored rows."""
        keys = [SHARED_PREFIX + key for key in ("row_vectors", "indptr", "rows")]
        present = [key for key in keys if key in stored]
        if not present:
            self.shared = None
            return
        arrays = {key[len(SHARED_PREFIX) :]: stored[key] for key in present}
        try:
            n_names = len(arrays.get("row_vectors", ()))
            self.shared = VectorRows.from_arrays(arrays, n_names, self.counts.shape[0])
        except ValueError as err:
            raise ArtifactError(
                path, f"its map of the names that share a row is unusable ({err}): truncated or foreign file", fix
            ) from None
