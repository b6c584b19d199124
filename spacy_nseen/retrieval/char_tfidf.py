"""Character n-gram TF-IDF over reference names (scipy.sparse only).

The sparse string score of scispaCy's candidate generator and of BioSyn
(Sung et al., 2020). Used as a baseline and as the linker's sparse re-rank score.
N-grams and weights follow scikit-learn's `TfidfVectorizer(analyzer="char")`:
lowercased text, runs of whitespace folded to one space, all n-grams of the
string for n in `ngram_range`, idf = ln((1 + n) / (1 + df)) + 1, optional
sublinear tf (1 + ln tf), L2-normalised rows.

Stored compactly (format 3): each non-zero as one uint32 `column | count << bits` and a float32 inverse
norm per name (`sparse.TfMatrix`), not a float32 weight and an int32 column; the float32 weights of the
rows and postings a query touches are rebuilt bit-identically. With n-grams of at most 3 characters the
vocabulary is a sorted array of packed keys (`term_vocab.NgramVocab`), not a dict.

Names whose prepared text is the same (`Trp53` in mouse and rat, `SOD1` and `Sod1`) share one stored row
(format 4; `sparse.NameCounts`): in the 5-organism UniProt set, 393,220 names are 221,975 rows. The idf and the
rare n-grams' document frequencies count names, so scores and rankings are those of a row per name.
"""

import re
from pathlib import Path
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import scipy.sparse as sp

from ..errors import ArtifactError
from .array_io import load_npz, save_npz
from .sparse import (
    NameCounts,
    TfMatrix,
    count_matrix,
    document_frequency,
    fit_terms,
    l2_tfidf,
    row_counts,
    shared_rows,
    smaller_storage,
    top_k_postings,
)
from .term_vocab import MAX_PACKED_NGRAM, NgramVocab, ngram_keys

# 3: term counts + inverse norms instead of float32 weights, packed n-gram keys instead of a string vocabulary.
# 4: names with the same prepared text share a stored row (the optional `shared_*` arrays map names to rows).
FORMAT_VERSION = 4
_WHITE_SPACES = re.compile(r"\s\s+")
_DASH_TABLE = {ord(c): "-" for c in "\u00ad\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"}
_ARRAYS = ("format_version", "ngram_range", "flags", "idf", "inv_norm", "entries", "indptr", "shape")
# The vocabulary: packed keys (sorted) and their ids for n-grams of at most 3 characters, else the n-grams.
_PACKED_VOCAB = ("vocab_keys", "vocab_ids")
# Optional: the rare n-grams' postings for one max_df (see `rare_postings`).
_RARE_ARRAYS = ("rare_max_count", "rare_entries", "rare_indptr")


class CharNgramTfidf(NameCounts):
    """Character n-gram TF-IDF index of a list of names, with cosine top-k search."""

    def __init__(
        self,
        ngram_range: Tuple[int, int] = (1, 3),
        *,
        lowercase: bool = True,
        sublinear_tf: bool = False,
        pad: bool = True,
    ) -> None:
        """Create an empty (unfitted) index.

        ngram_range (Tuple[int, int]): Smallest and largest n-gram length.
        lowercase (bool): Lowercase strings before extracting n-grams.
        sublinear_tf (bool): Use 1 + ln(tf) instead of the raw count.
        pad (bool): Unify Unicode dashes to "-" and pad each string with one space on both
            sides, so word-boundary n-grams exist and 1–2 character names (Ca, Zn) match.
        """
        lo, hi = int(ngram_range[0]), int(ngram_range[1])
        if not 1 <= lo <= hi:
            raise ValueError(f"ngram_range must satisfy 1 <= min <= max, got {ngram_range}")
        self.ngram_range = (lo, hi)
        self.lowercase = lowercase
        self.sublinear_tf = sublinear_tf
        self.pad = pad
        self.vocab: Mapping[str, int] = {}
        self.idf = np.zeros((0,), dtype=np.float32)
        self.counts = TfMatrix.empty()
        self.shared = None
        self._matrix_t: Optional[sp.csr_matrix] = None
        self._rare_t: Dict[int, TfMatrix] = {}

    def prepare(self, text: str) -> str:
        """RETURNS (str): The text whose n-grams are taken (lowercased, spaces folded, padded)."""
        if self.lowercase:
            text = text.lower()
        text = _WHITE_SPACES.sub(" ", text)
        if self.pad:
            text = " " + text.translate(_DASH_TABLE).strip() + " "
        return text

    def ngrams(self, text: str) -> List[str]:
        """RETURNS (List[str]): The character n-grams of a string, with repeats."""
        return self._prepared_ngrams(self.prepare(text))

    def _prepared_ngrams(self, text: str) -> List[str]:
        lo, hi = self.ngram_range
        return [text[i : i + n] for n in range(lo, min(hi, len(text)) + 1) for i in range(len(text) - n + 1)]

    def fit(self, names: Iterable[str], *, share_rows: bool = True) -> "CharNgramTfidf":
        """Build the vocabulary, idf weights and the name matrix.

        names (Iterable[str]): The reference names; row i of `matrix` is name i.
        share_rows (bool): Store one row for names with the same prepared text (the same scores, a smaller index)
            where that makes the index smaller (`sparse.smaller_storage`).
        RETURNS (CharNgramTfidf): self.
        """
        prepared = [self.prepare(name) for name in names]
        shared, first_rows = shared_rows(prepared, share_rows)
        row_sizes = None if shared is None else shared.sizes
        vocab, counts, self.idf = fit_terms((self._prepared_ngrams(prepared[row]) for row in first_rows), row_sizes)
        self.shared, counts = smaller_storage(shared, counts, copies=1)
        self.vocab = NgramVocab.from_dict(vocab) if self.ngram_range[1] <= MAX_PACKED_NGRAM else vocab
        self.counts = TfMatrix.fit(counts, self.idf, self.sublinear_tf)
        self._matrix_t = None
        self._rare_t = {}
        return self

    def transform(self, strings: Sequence[str]) -> sp.csr_matrix:
        """Vectorise strings with the fitted vocabulary (unknown n-grams ignored).

        RETURNS (sp.csr_matrix): Shape (len(strings), n_features), L2-normalised rows.
        """
        self._require_fitted()
        vocab = self.vocab
        if isinstance(vocab, NgramVocab):
            rows, keys = ngram_keys([self.prepare(s) for s in strings], *self.ngram_range)
            ids = vocab.lookup(keys)
            known = ids >= 0
            indptr = np.zeros(len(strings) + 1, dtype=np.int64)
            np.cumsum(np.bincount(rows[known], minlength=len(strings)), out=indptr[1:])
            return self._weight(count_matrix(ids[known].astype(np.int32), indptr, (len(strings), len(vocab))))
        known_ngrams = ((j for j in (vocab.get(g) for g in self.ngrams(s)) if j is not None) for s in strings)
        return self._weight(row_counts(known_ngrams, len(vocab)))

    def top_k(
        self, queries: Sequence[str], k: int = 10, *, chunk_size: int = 64, max_df: float = 1.0
    ) -> Tuple[np.ndarray, np.ndarray]:
        """Exact cosine top-k names for each query, in sparse-matrix chunks.

        queries (Sequence[str]): The query strings.
        k (int): Number of names to return per query.
        chunk_size (int): Queries scored per sparse product (memory ~ chunk x names).
        max_df (float): If below 1, search only with the n-grams found in at most this fraction
            of the names (an inverted index of rare n-grams): much faster on large sets; the
            scores are then the part of the cosine those n-grams give, and a query sharing no
            rare n-gram with fewer than k names gets index -1 (score 0) in the free places.
            Ties: lower name first (every name tied with the k-th is ranked, as a full sort would).
        RETURNS (Tuple[np.ndarray, np.ndarray]): Name indices (int64) and cosine scores
            (float32), both of shape (len(queries), min(k, n_names)), best first.
        """
        self._require_fitted()
        return self.search(self.transform(queries), k, chunk_size=chunk_size, max_df=max_df)

    def search(
        self, query_vectors: sp.csr_matrix, k: int = 10, *, chunk_size: int = 64, max_df: float = 1.0
    ) -> Tuple[np.ndarray, np.ndarray]:
        """`top_k` for queries already vectorised by `transform`."""
        self._require_fitted()
        n_queries = query_vectors.shape[0]
        k_asked = k
        k_names = min(k, self.n_names)
        k = min(k, self.n_rows)
        out_idx = np.zeros((n_queries, k), dtype=np.int64)
        out_score = np.zeros((n_queries, k), dtype=np.float32)
        if k == 0 or not n_queries:
            return self.ranked_names(out_idx, out_score, k_names)
        if max_df < 1.0:
            return self.rare_top_k(query_vectors, k_names, max_df, chunk_size)
        if self._matrix_t is None:
            self._matrix_t = self.counts.to_csr().T.tocsr()
        q_all = query_vectors
        for start in range(0, n_queries, chunk_size):
            sims = (q_all[start : start + chunk_size] @ self._matrix_t).toarray()
            if k < sims.shape[1]:
                part = np.argpartition(-sims, k - 1, axis=1)[:, :k]
            else:
                part = np.tile(np.arange(sims.shape[1]), (sims.shape[0], 1))
            part_scores = np.take_along_axis(sims, part, axis=1)
            # Sort by score desc, then name index asc, so ties are deterministic.
            order = np.lexsort((part, -part_scores), axis=1)
            rows = slice(start, start + sims.shape[0])
            out_idx[rows] = np.take_along_axis(part, order, axis=1)
            out_score[rows] = np.take_along_axis(part_scores, order, axis=1)
        return self.join_added(query_vectors, self.ranked_names(out_idx, out_score, k_names), k_asked)

    def rare_top_k(
        self, query_vectors: sp.csr_matrix, k: int, max_df: float, chunk_size: int = 256
    ) -> Tuple[np.ndarray, np.ndarray]:
        """The k best names by the part of the cosine the n-grams of `rare_postings(max_df)` give, searched over
        those postings whatever `max_df` (1: every n-gram's), best first; ties: lower name first (every name tied
        with the k-th ranked, as a full sort would); -1 / 0.0 where fewer names share such an n-gram.

        RETURNS (Tuple[np.ndarray, np.ndarray]): name indices (int64) and scores (float32), (n_queries, k) or
            fewer columns where k exceeds the stored rows.
        """
        self._require_fitted()
        postings = self.rare_postings(max_df)
        ids, scores = top_k_postings(query_vectors, postings, min(k, self.n_rows), chunk_size)
        found = self.ranked_names(ids, scores, min(k, self.n_names))
        if self.added is None:
            return found
        # added names are scored by the same n-grams: those with postings here
        return self.join_added(query_vectors, found, k, np.diff(postings.indptr) > 0)

    def rare_postings(self, max_df: float) -> TfMatrix:
        """The inverted index (n-grams × stored rows) of the n-grams found in at most `max_df` of the names:
        saved by `to_disk(rare_max_df=max_df)`, or built once per value."""
        max_count = int(max_df * self.n_names)
        rare_t = self._rare_t.get(max_count)
        if rare_t is None:
            m = self.counts.counts()
            df = document_frequency(m, self.row_sizes)
            keep = (df <= max_count)[m.indices]
            counts = np.zeros(m.shape[0], dtype=np.int64)
            filled = np.diff(m.indptr) > 0
            if filled.any():
                counts[filled] = np.add.reduceat(keep, m.indptr[:-1][filled], dtype=np.int64)
            indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
            rare = sp.csr_matrix((m.data[keep], m.indices[keep], indptr), shape=m.shape)
            rare_t = TfMatrix.from_counts(
                rare.T.tocsr(), self.idf, self.counts.inv_norm, by_name=False, sublinear_tf=self.sublinear_tf
            )
            self._rare_t[max_count] = rare_t
        return rare_t

    def pair_scores(self, queries: Sequence[str], name_indices: Sequence[Sequence[int]]) -> List[np.ndarray]:
        """Cosine between each query and given candidate names (for re-ranking).

        name_indices (Sequence[Sequence[int]]): Candidate name indices per query.
        RETURNS (List[np.ndarray]): float32 scores aligned with `name_indices`.
        """
        self._require_fitted()
        if len(queries) != len(name_indices):
            raise ValueError("queries and name_indices must have the same length")
        return self.score(self.transform(queries), name_indices)

    def score(self, query_vectors: sp.csr_matrix, name_indices: Sequence[Sequence[int]]) -> List[np.ndarray]:
        """`pair_scores` for queries already vectorised by `transform`."""
        return self.name_cosines(query_vectors, name_indices)

    def to_disk(self, path: Union[str, Path], rare_max_df: Optional[float] = None) -> None:
        """Save to one uncompressed, aligned `.npz` file (no pickle; memory-mapped by `from_disk`).

        rare_max_df (Optional[float]): also save `rare_postings(rare_max_df)`, so that a search with this
            `max_df` reads them from the file instead of building them in memory.
        """
        self._require_fitted()
        m = self.counts
        rare: Dict[str, np.ndarray] = {}
        if rare_max_df is not None and 0 < rare_max_df < 1:
            rare = {
                "rare_max_count": np.array([int(rare_max_df * self.n_names)], dtype=np.int64),
                **self.rare_postings(rare_max_df).arrays("rare_"),
            }
        save_npz(
            Path(path),
            {
                "format_version": np.array([FORMAT_VERSION]),
                "ngram_range": np.array(self.ngram_range, dtype=np.int64),
                "flags": np.array([self.lowercase, self.sublinear_tf, self.pad], dtype=bool),
                **self._vocab_arrays(),
                "idf": self.idf,
                "inv_norm": m.inv_norm,
                **m.arrays(""),
                "shape": np.array(m.shape, dtype=np.int64),
                **self.shared_arrays(),
                **rare,
            },
        )

    def _vocab_arrays(self) -> Dict[str, np.ndarray]:
        if isinstance(self.vocab, NgramVocab):
            return {"vocab_keys": self.vocab.packed_keys, "vocab_ids": self.vocab.ids}
        return {"vocab": np.array(sorted(self.vocab, key=self.vocab.__getitem__), dtype=np.str_)}

    @classmethod
    def from_disk(cls, path: Union[str, Path], *, mmap: bool = False) -> "CharNgramTfidf":
        """Load an index saved by `to_disk`.

        mmap (bool): Memory-map the matrix (read-only, shared between processes, paged in
            as used) instead of reading it.
        RETURNS (CharNgramTfidf): The loaded index.
        """
        path = Path(path)
        fix = "Rebuild it with CharNgramTfidf().fit(names).to_disk(path) (or rebuild the linker)."
        if not path.exists():
            raise ArtifactError(path, "TF-IDF file not found", fix)
        try:
            stored = load_npz(path, mmap=mmap)
            _check_version(stored, path, fix)
            missing = [a for a in _ARRAYS if a not in stored]
            if missing:
                raise ArtifactError(path, f"arrays {missing} missing", fix)
            arrays = {a: stored[a] for a in _ARRAYS}
        except ArtifactError:
            raise
        except Exception as e:  # zipfile.BadZipFile, EOFError, ValueError, OSError
            raise ArtifactError(
                path, f"cannot be read ({type(e).__name__}: {e}); it is truncated or not a TF-IDF file", fix
            ) from e
        lo, hi = (int(x) for x in arrays["ngram_range"])
        lowercase, sublinear, pad = (bool(x) for x in arrays["flags"])
        self = cls((lo, hi), lowercase=lowercase, sublinear_tf=sublinear, pad=pad)
        self.vocab = _stored_vocab(stored, hi, path, fix)
        self.idf = np.asarray(arrays["idf"], dtype=np.float32)
        inv_norm = np.asarray(arrays["inv_norm"])
        shape = tuple(int(x) for x in arrays["shape"])
        if (
            len(shape) != 2
            or len(self.vocab) != shape[1]
            or self.idf.shape != (shape[1],)
            or inv_norm.dtype != np.float32
            or inv_norm.shape != (shape[0],)
        ):
            raise ArtifactError(path, "vocabulary, idf, norms and matrix sizes disagree", fix)
        self.counts = TfMatrix.from_arrays(
            stored,
            "",
            shape,
            self.idf,
            inv_norm,
            by_name=True,
            sublinear_tf=sublinear,
            path=path,
            what="sparse matrix arrays",
            fix=fix,
        )
        self.load_shared(stored, path, fix)
        if all(a in stored for a in _RARE_ARRAYS):
            self._rare_t[int(stored["rare_max_count"][0])] = TfMatrix.from_arrays(
                stored,
                "rare_",
                (shape[1], shape[0]),
                self.idf,
                inv_norm,
                by_name=False,
                sublinear_tf=sublinear,
                path=path,
                what="rare n-gram postings",
                fix=fix,
            )
        return self

    def _require_fitted(self) -> None:
        if not len(self.vocab):
            raise ValueError("CharNgramTfidf is not fitted: call fit(names) or from_disk(path)")

    def _weight(self, counts: sp.csr_matrix) -> sp.csr_matrix:
        return l2_tfidf(counts, self.idf, self.sublinear_tf)


def _check_version(stored: Mapping[str, np.ndarray], path: Path, fix: str) -> None:
    """Raise ArtifactError unless the file is of this FORMAT_VERSION (older ones hold float32 weights)."""
    if "format_version" not in stored:
        raise ArtifactError(path, "has no format version: it is not a TF-IDF file", fix)
    version = int(stored["format_version"][0])
    if version != FORMAT_VERSION:
        raise ArtifactError(
            path,
            f"TF-IDF format version {version} is not {FORMAT_VERSION} (this version stores "
            "term counts, one row for names with the same text): the file is from another "
            "spacy_nseen version",
            fix,
        )


def _stored_vocab(stored: Mapping[str, np.ndarray], max_n: int, path: Path, fix: str) -> Mapping[str, int]:
    """The saved vocabulary: packed n-gram keys (n-grams of at most 3 characters), else a dict of n-grams."""
    if max_n <= MAX_PACKED_NGRAM:
        if not all(a in stored for a in _PACKED_VOCAB):
            raise ArtifactError(path, f"arrays {list(_PACKED_VOCAB)} missing", fix)
        return NgramVocab.from_arrays(stored["vocab_keys"], stored["vocab_ids"], path, fix)
    if "vocab" not in stored:
        raise ArtifactError(path, "array 'vocab' missing", fix)
    return {g: i for i, g in enumerate(stored["vocab"].tolist())}
