"""Word-level TF-IDF over reference names: an inverted index of name tokens.

Character n-grams (`ngram_tfidf`) and the char encoder see `LC3` as close to `HLC3`; a reader sees the word
`LC3` inside `Autophagy-related protein LC3 B`. This index scores that: each name is a TF-IDF vector of its
terms — the words (letters and digits, case-folded, Greek letters spelled out, so `PLCγ2` gives `plc gamma 2`)
and every two adjacent words joined (`LC3 B` also gives `lc3b`, so the mention `LC3B` meets it) — and a
mention is scored by cosine against every name that shares a term.
"""
import re
import unicodedata
from pathlib import Path
from typing import Dict, Iterable, List, Sequence, Tuple, Union

import numpy
import scipy.sparse as sp

from .array_io import load_npz, save_npz
from .errors import ArtifactError
from .greek_letters import spell_out_greek
from .sparse_cosine import checked_csr, l2_tfidf, pair_cosines

FORMAT_VERSION = 1
_WORD_RE = re.compile(r"[^\W_]+")
_ARRAYS = ("format_version", "idf", "data", "indices", "indptr", "shape")
# The vocabulary: "vocab_utf8" (the terms joined by newlines, UTF-8 bytes; terms are letters and digits only),
# or, in files written before it, "vocab" (a fixed-width unicode array, as wide as the longest term).
_VOCAB_ARRAYS = ("vocab_utf8", "vocab")
# The inverted index (the matrix transposed), saved since the files that have it were written: optional.
_POSTINGS = ("postings_data", "postings_indices", "postings_indptr")
REBUILD = "Rebuild the linker (nlp.initialize() or the project's index step) or copy its complete directory."


def name_terms(text: str) -> List[str]:
    """The terms of a string: its words and each pair of adjacent words joined.

    text (str): any string.
    RETURNS (List[str]): the terms, with repeats.
    """
    words = _WORD_RE.findall(spell_out_greek(unicodedata.normalize("NFKC", text), separator=" ").casefold())
    return words + [a + b for a, b in zip(words, words[1:])]


class NameTokenIndex:
    """TF-IDF vectors of the terms of reference names, with cosine search over an inverted index."""

    def __init__(self) -> None:
        self.vocab: Dict[str, int] = {}
        self.idf = numpy.zeros((0,), dtype=numpy.float32)
        self.matrix = sp.csr_matrix((0, 0), dtype=numpy.float32)
        self._postings = None

    @property
    def n_names(self) -> int:
        return self.matrix.shape[0]

    def fit(self, names: Iterable[str]) -> "NameTokenIndex":
        """Build the vocabulary, idf weights (ln((1 + n) / (1 + df)) + 1) and the L2-normalised name matrix."""
        vocab: Dict[str, int] = {}
        rows: List[List[int]] = [[vocab.setdefault(t, len(vocab)) for t in name_terms(name)] for name in names]
        counts = self._counts(rows, len(vocab))
        df = numpy.bincount(counts.indices, minlength=len(vocab))
        self.vocab = vocab
        self.idf = (numpy.log((1.0 + len(rows)) / (1.0 + df)) + 1.0).astype(numpy.float32)
        self.matrix = self._weight(counts)
        self._postings = None
        return self

    def transform(self, strings: Sequence[str]) -> sp.csr_matrix:
        """TF-IDF vectors of strings (terms unknown to the index are ignored)."""
        vocab = self.vocab
        rows = [[vocab[t] for t in name_terms(s) if t in vocab] for s in strings]
        return self._weight(self._counts(rows, len(vocab)))

    def top_k(self, queries: Sequence[str], k: int, chunk_size: int = 256) -> Tuple[numpy.ndarray, numpy.ndarray]:
        """The k best names per query by cosine (ties: lower name index first); -1 / 0.0 where fewer share a term.

        RETURNS (Tuple[numpy.ndarray, numpy.ndarray]): name indices (int64) and cosines (float32), (len(queries), k).
        """
        return self.search(self.transform(queries), k, chunk_size)

    def search(self, query_vectors: sp.csr_matrix, k: int, chunk_size: int = 256) -> Tuple[numpy.ndarray, numpy.ndarray]:
        """`top_k` for queries already vectorised by `transform`."""
        n_queries = query_vectors.shape[0]
        k = max(1, min(k, max(self.n_names, 1)))
        out_idx = numpy.full((n_queries, k), -1, dtype=numpy.int64)
        out_score = numpy.zeros((n_queries, k), dtype=numpy.float32)
        if not n_queries or not self.n_names:
            return out_idx, out_score
        postings = self.postings
        for start in range(0, n_queries, chunk_size):
            sims = (query_vectors[start : start + chunk_size] @ postings).tocsr()
            for r in range(sims.shape[0]):
                lo, hi = sims.indptr[r], sims.indptr[r + 1]
                if lo == hi:
                    continue
                cols, vals = sims.indices[lo:hi], sims.data[lo:hi]
                if len(vals) > k:
                    # Keep the k best and every name tied with the k-th, then order exactly as a full sort would.
                    kth = vals[numpy.argpartition(-vals, k - 1)[k - 1]]
                    keep = vals >= kth
                    cols, vals = cols[keep], vals[keep]
                order = numpy.lexsort((cols, -vals))[:k]
                out_idx[start + r, : len(order)] = cols[order]
                out_score[start + r, : len(order)] = vals[order]
        return out_idx, out_score

    @property
    def postings(self) -> sp.csr_matrix:
        """RETURNS (sp.csr_matrix): the inverted index, (terms × names): the saved one, or built once."""
        if self._postings is None:
            self._postings = self.matrix.T.tocsr()
        return self._postings

    def pair_scores(self, queries: Sequence[str], name_indices: Sequence[Sequence[int]]) -> List[numpy.ndarray]:
        """Cosine between each query and its candidate names."""
        if len(queries) != len(name_indices):
            raise ValueError("queries and name_indices must have the same length")
        return self.score(self.transform(queries), name_indices)

    def score(self, query_vectors: sp.csr_matrix, name_indices: Sequence[Sequence[int]]) -> List[numpy.ndarray]:
        """`pair_scores` for queries already vectorised by `transform`."""
        return pair_cosines(query_vectors, self.matrix, name_indices)

    def to_disk(self, path: Union[str, Path]) -> None:
        """Save to one uncompressed, aligned `.npz` file (no pickle; memory-mapped by `from_disk`)."""
        vocab = sorted(self.vocab, key=self.vocab.__getitem__)
        m, postings = self.matrix, self.postings
        save_npz(Path(path), {
            "format_version": numpy.array([FORMAT_VERSION]),
            "vocab_utf8": numpy.frombuffer("\n".join(vocab).encode("utf8"), dtype=numpy.uint8),
            "idf": self.idf, "data": m.data, "indices": m.indices, "indptr": m.indptr,
            "shape": numpy.array(m.shape, dtype=numpy.int64), "postings_data": postings.data,
            "postings_indices": postings.indices, "postings_indptr": postings.indptr,
        })

    @classmethod
    def from_disk(cls, path: Union[str, Path]) -> "NameTokenIndex":
        """Load what `to_disk` saved; an ArtifactError names a missing, truncated or foreign file."""
        path = Path(path)
        if not path.exists():
            raise ArtifactError(path, "name token index not found", REBUILD)
        try:
            stored = load_npz(path, mmap=True)
            missing = [a for a in _ARRAYS if a not in stored] + ([] if any(a in stored for a in _VOCAB_ARRAYS) else ["vocab_utf8"])
            if missing:
                raise ArtifactError(path, f"arrays {missing} missing", REBUILD)
            arrays = {a: stored[a] for a in _ARRAYS + _POSTINGS + _VOCAB_ARRAYS if a in stored}
            if "vocab_utf8" in arrays:
                text = numpy.asarray(arrays["vocab_utf8"], dtype=numpy.uint8).tobytes().decode("utf8")
                terms = text.split("\n") if text else []
            else:
                terms = arrays["vocab"].tolist()
        except ArtifactError:
            raise
        except Exception as err:  # BadZipFile, EOFError, ValueError, OSError
            raise ArtifactError(path, f"cannot be read ({type(err).__name__}: {err})", REBUILD) from None
        if int(arrays["format_version"][0]) != FORMAT_VERSION:
            raise ArtifactError(path, f"format version {int(arrays['format_version'][0])} is not {FORMAT_VERSION}", REBUILD)
        self = cls()
        self.vocab = {t: i for i, t in enumerate(terms)}
        self.idf = arrays["idf"].astype(numpy.float32)
        shape = tuple(int(x) for x in arrays["shape"])
        if len(self.vocab) != shape[1] or len(self.idf) != shape[1]:
            raise ArtifactError(path, "vocabulary, idf and matrix sizes disagree", REBUILD)
        self.matrix = checked_csr(arrays["data"], arrays["indices"], arrays["indptr"], shape, path, "sparse matrix arrays", REBUILD)
        if all(a in arrays for a in _POSTINGS):
            self._postings = checked_csr(arrays["postings_data"], arrays["postings_indices"], arrays["postings_indptr"],
                                         shape[::-1], path, "sparse matrix arrays", REBUILD)
        return self

    @staticmethod
    def _counts(rows: List[List[int]], n_terms: int) -> sp.csr_matrix:
        indptr = numpy.zeros(len(rows) + 1, dtype=numpy.int64)
        numpy.cumsum([len(r) for r in rows], out=indptr[1:])
        indices = numpy.fromiter((t for r in rows for t in r), dtype=numpy.int32, count=int(indptr[-1]))
        counts = sp.csr_matrix((numpy.ones(len(indices), dtype=numpy.float32), indices, indptr), shape=(len(rows), n_terms))
        counts.sum_duplicates()
        return counts

    def _weight(self, counts: sp.csr_matrix) -> sp.csr_matrix:
        return l2_tfidf(counts, self.idf)

