"""Word-level TF-IDF over reference names: an inverted index of name tokens.

Character n-grams (`ngram_tfidf`) and the char encoder see `LC3` as close to `HLC3`; a reader sees the word
`LC3` inside `Autophagy-related protein LC3 B`. This index scores that: each name is a TF-IDF vector of its
terms — the words (letters and digits, case-folded, Greek letters spelled out, so `PLCγ2` gives `plc gamma 2`)
and every two adjacent words joined (`LC3 B` also gives `lc3b`, so the mention `LC3B` meets it) — and a
mention is scored by cosine against every name that shares a term.

Stored compactly (format 2): packed term counts (column | count << bits, uint32) and a float32 inverse norm per
name instead of float32 weights and int32 columns (`sparse.TfMatrix`; the weights of the rows and postings a
query touches are rebuilt bit-identically), and the vocabulary as sorted 64-bit hashes checked against the terms'
UTF-8 bytes (`term_vocab.HashedTermVocab`).

Format 3: names with the same terms share one stored row (`sparse.NameCounts`; the optional `shared_*` arrays),
and the number of names of each term (`df`) is saved for the search that skips common terms.
"""

import re
import unicodedata
from pathlib import Path
from typing import Iterable, List, Mapping, Sequence, Tuple, Union

import numpy
import scipy.sparse as sp

from ..errors import ArtifactError
from ..text.greek import spell_out_greek
from .array_io import load_npz, save_npz
from .sparse import (
    NameCounts,
    TfMatrix,
    document_frequency,
    fit_terms,
    l2_tfidf,
    row_counts,
    shared_rows,
    smaller_storage,
    top_k_postings,
    without_common_terms,
)
from .term_vocab import HashedTermVocab

# 2: term counts + inverse norms instead of float32 weights; the vocabulary as sorted hashes.
# 3: names with the same terms share a stored row; the names of each term (`df`) saved.
FORMAT_VERSION = 3
_WORD_RE = re.compile(r"[^\W_]+")
# The vocabulary is "vocab_utf8" (the terms joined by newlines, UTF-8 bytes; terms are letters and digits only),
# "vocab_offsets" (start of each term, then the end + 1), "vocab_hashes" (sorted) and "vocab_hash_ids".
_VOCAB = ("vocab_utf8", "vocab_offsets", "vocab_hashes", "vocab_hash_ids")
# The matrix (names × terms) and the inverted index (its transpose) as packed term counts (see sparse.TfMatrix).
_ARRAYS = (
    "format_version",
    "idf",
    "df",
    "inv_norm",
    "entries",
    "indptr",
    "shape",
    "postings_entries",
    "postings_indptr",
) + _VOCAB
REBUILD = "Rebuild the linker (nlp.initialize() or the project's index step) or copy its complete directory."


def name_terms(text: str) -> List[str]:
    """The terms of a string: its words and each pair of adjacent words joined.

    text (str): any string.
    RETURNS (List[str]): the terms, with repeats.
    """
    words = _WORD_RE.findall(spell_out_greek(unicodedata.normalize("NFKC", text), separator=" ").casefold())
    return words + [a + b for a, b in zip(words, words[1:])]


class NameTokenIndex(NameCounts):
    """TF-IDF vectors of the terms of reference names, with cosine search over an inverted index."""

    def __init__(self) -> None:
        self.vocab: Mapping[str, int] = HashedTermVocab.from_terms([])
        self.idf = numpy.zeros((0,), dtype=numpy.float32)
        self.counts = TfMatrix.empty()
        self.shared = None
        self.df = numpy.zeros((0,), dtype=numpy.int32)
        self._postings: Union[TfMatrix, None] = None

    def fit(self, names: Iterable[str], *, share_rows: bool = True) -> "NameTokenIndex":
        """Build the vocabulary, idf weights (ln((1 + n) / (1 + df)) + 1) and the L2-normalised name matrix.

        share_rows (bool): Store one row for names with the same terms (the same scores, a smaller index) where that
            makes the index smaller (`sparse.smaller_storage`).
        """
        terms = [name_terms(name) for name in names]
        shared, first_rows = shared_rows([tuple(sorted(t)) for t in terms], share_rows)
        vocab, counts, self.idf = fit_terms(
            (terms[row] for row in first_rows), None if shared is None else shared.sizes
        )
        self.shared, counts = smaller_storage(shared, counts, copies=2)  # the name matrix and its postings
        self.vocab = HashedTermVocab.from_terms(list(vocab))
        self.df = document_frequency(counts, self.row_sizes).astype(numpy.int32)
        self.counts = TfMatrix.fit(counts, self.idf)
        self._postings = None
        return self

    def transform(self, strings: Sequence[str]) -> sp.csr_matrix:
        """TF-IDF vectors of strings (terms unknown to the index are ignored)."""
        terms = [name_terms(s) for s in strings]
        distinct = list(dict.fromkeys(t for row in terms for t in row))
        ids = dict(zip(distinct, self._lookup(distinct).tolist()))
        rows = [[ids[t] for t in row if ids[t] >= 0] for row in terms]
        return self._weight(row_counts(rows, len(self.vocab)))

    def _lookup(self, terms: List[str]) -> numpy.ndarray:
        if isinstance(self.vocab, HashedTermVocab):
            return self.vocab.lookup(terms)
        return numpy.array([self.vocab.get(t, -1) for t in terms], dtype=numpy.int64)

    def top_k(self, queries: Sequence[str], k: int, chunk_size: int = 256) -> Tuple[numpy.ndarray, numpy.ndarray]:
        """The k best names per query by cosine (ties: lower name index first); -1 / 0.0 where fewer share a term.

        RETURNS (Tuple[numpy.ndarray, numpy.ndarray]): name indices (int64) and cosines (float32), (len(queries), k).
        """
        return self.search(self.transform(queries), k, chunk_size)

    def search(
        self, query_vectors: sp.csr_matrix, k: int, chunk_size: int = 256
    ) -> Tuple[numpy.ndarray, numpy.ndarray]:
        """`top_k` for queries already vectorised by `transform`."""
        n_queries = query_vectors.shape[0]
        k = max(1, min(k, max(self.n_names, 1)))
        out_idx = numpy.full((n_queries, k), -1, dtype=numpy.int64)
        out_score = numpy.zeros((n_queries, k), dtype=numpy.float32)
        if not n_queries or not self.n_names:
            return out_idx, out_score
        found = self.ranked_names(*top_k_postings(query_vectors, self.postings, k, chunk_size), k)
        return self.join_added(query_vectors, found, k)

    def rare_search(self, query_vectors: sp.csr_matrix, k: int, max_df: float) -> Tuple[numpy.ndarray, numpy.ndarray]:
        """`search` with only the query terms found in at most `max_df` of the names (short posting lists)."""
        rare = without_common_terms(query_vectors, self.df, int(max_df * self.n_names))
        return self.search(rare, k)

    @property
    def postings(self) -> TfMatrix:
        """RETURNS (TfMatrix): the inverted index, (terms × names): the saved one, or built once."""
        if self._postings is None:
            self._postings = self.counts.transposed()
        return self._postings

    def pair_scores(self, queries: Sequence[str], name_indices: Sequence[Sequence[int]]) -> List[numpy.ndarray]:
        """Cosine between each query and its candidate names."""
        if len(queries) != len(name_indices):
            raise ValueError("queries and name_indices must have the same length")
        return self.score(self.transform(queries), name_indices)

    def score(self, query_vectors: sp.csr_matrix, name_indices: Sequence[Sequence[int]]) -> List[numpy.ndarray]:
        """`pair_scores` for queries already vectorised by `transform`."""
        return self.name_cosines(query_vectors, name_indices)

    def to_disk(self, path: Union[str, Path]) -> None:
        """Save to one uncompressed, aligned `.npz` file (no pickle; memory-mapped by `from_disk`)."""
        vocab = self.vocab if isinstance(self.vocab, HashedTermVocab) else HashedTermVocab.from_terms(list(self.vocab))
        m = self.counts
        save_npz(
            Path(path),
            {
                "format_version": numpy.array([FORMAT_VERSION]),
                "vocab_utf8": vocab.utf8,
                "vocab_offsets": vocab.offsets,
                "vocab_hashes": vocab.hashes,
                "vocab_hash_ids": vocab.ids,
                "idf": self.idf,
                "df": self.df,
                "inv_norm": m.inv_norm,
                **m.arrays(""),
                "shape": numpy.array(m.shape, dtype=numpy.int64),
                **self.postings.arrays("postings_"),
                **self.shared_arrays(),
            },
        )

    @classmethod
    def from_disk(cls, path: Union[str, Path]) -> "NameTokenIndex":
        """Load what `to_disk` saved; an ArtifactError names a missing, truncated, foreign or older file."""
        path = Path(path)
        if not path.exists():
            raise ArtifactError(path, "name token index not found", REBUILD)
        try:
            stored = load_npz(path, mmap=True)
            _check_version(stored, path)
            missing = [a for a in _ARRAYS if a not in stored]
            if missing:
                raise ArtifactError(path, f"arrays {missing} missing", REBUILD)
            shape = tuple(int(x) for x in stored["shape"])
        except ArtifactError:
            raise
        except Exception as err:  # BadZipFile, EOFError, ValueError, OSError
            raise ArtifactError(path, f"cannot be read ({type(err).__name__}: {err})", REBUILD) from None
        self = cls()
        utf8, offsets, hashes, hash_ids = (stored[a] for a in _VOCAB)
        self.vocab = HashedTermVocab.from_arrays(utf8, offsets, hashes, hash_ids, path=path, fix=REBUILD)
        self.idf = numpy.asarray(stored["idf"], dtype=numpy.float32)
        self.df = numpy.asarray(stored["df"])
        inv_norm = stored["inv_norm"]
        if (
            len(shape) != 2
            or len(self.vocab) != shape[1]
            or self.idf.shape != (shape[1],)
            or self.df.shape != (shape[1],)
            or self.df.dtype.kind not in "iu"
            or inv_norm.dtype != numpy.float32
            or inv_norm.shape != (shape[0],)
        ):
            raise ArtifactError(path, "vocabulary, idf, norms and matrix sizes disagree", REBUILD)
        self.counts = TfMatrix.from_arrays(
            stored,
            "",
            shape,
            self.idf,
            inv_norm,
            by_name=True,
            sublinear_tf=False,
            path=path,
            what="sparse matrix arrays",
            fix=REBUILD,
        )
        self._postings = TfMatrix.from_arrays(
            stored,
            "postings_",
            (shape[1], shape[0]),
            self.idf,
            inv_norm,
            by_name=False,
            sublinear_tf=False,
            path=path,
            what="postings arrays",
            fix=REBUILD,
        )
        self.load_shared(stored, path, REBUILD)
        return self

    def _weight(self, counts: sp.csr_matrix) -> sp.csr_matrix:
        return l2_tfidf(counts, self.idf)


def _check_version(stored: Mapping[str, numpy.ndarray], path: Path) -> None:
    """Raise ArtifactError unless the file is of this FORMAT_VERSION (older ones hold float32 weights)."""
    if "format_version" not in stored:
        raise ArtifactError(path, "has no format version: it is not a name token index", REBUILD)
    version = int(stored["format_version"][0])
    if version != FORMAT_VERSION:
        raise ArtifactError(
            path,
            f"name token index format version {version} is not {FORMAT_VERSION} (this version "
            "stores term counts, one row for names with the same terms): the file is from another spacy_nseen version",
            REBUILD,
        )
