"""The compact sparse indexes (term counts + inverse norms, array vocabularies) give bit-identical results to the
format they replace (float32 weights, dict vocabularies): every id, order and score is compared exactly."""
from typing import Dict, List, Sequence, Tuple

import numpy
import pytest
import scipy.sparse as sp

from spacy_nseen.retrieval import term_vocab
from spacy_nseen.retrieval.char_tfidf import CharNgramTfidf
from spacy_nseen.retrieval.sparse import TfMatrix, column_bits
from spacy_nseen.retrieval.term_vocab import HashedTermVocab, NgramVocab, ngram_keys, pack_ngram, unpack_ngram
from spacy_nseen.retrieval.word_tfidf import NameTokenIndex, name_terms

PIECES = ["α", "β-", "γ", "Δ9", "κB", "IL-2", "IL‐6", "p53", "TNF–α", "2,3-dihydroxy", "(2S,3R)-", "propan-2-yl",
          "N-acetyl", "methyl", "phosphate", "kinase", "protein", "receptor", "aaaa", "zzz", "---", "  ", "ω-3",
          "μ-opioid", "1,2-diacyl-sn-glycero-3-phospho-L-serine", "CoA", "Ca2+", "Zn", "H2O", "E3 ubiquitin",
          "ligase", "LC3", "B", "c-Myc", "Na⁺/K⁺", "β-D-glucopyranosyl", "ẞ", "İ", "𝛼", "😀", "x\u00ady", "ﬁ"]


def _names(n: int, seed: int) -> List[str]:
    """Varied names: Greek letters, dashes, long IUPAC-like names, repeated characters, odd Unicode."""
    rng = numpy.random.default_rng(seed)
    out = []
    for _ in range(n):
        parts = rng.choice(PIECES, size=int(rng.integers(1, 9)))
        sep = rng.choice(["", " ", "-", "  "])
        out.append(sep.join(parts))
    return out + ["a", "Ca", "x" * 300, "α" * 40, "", " ", "IL-2", "IL-2"]


NAMES = _names(400, 0)
QUERIES = _names(150, 1) + ["", "qqq", "IL2", "β", "tnf alpha", "x"]


# The replaced implementation (format 2 / format 1), kept here as the reference.
def _old_l2_tfidf(counts: sp.csr_matrix, idf: numpy.ndarray, sublinear_tf: bool = False) -> sp.csr_matrix:
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


def _old_pair_cosines(queries: sp.csr_matrix, names: sp.csr_matrix, name_indices: Sequence[Sequence[int]]):
    lengths = numpy.array([len(c) for c in name_indices], dtype=numpy.int64)
    flat = numpy.fromiter((j for c in name_indices for j in c), dtype=numpy.int64, count=int(lengths.sum()))
    q = queries[numpy.repeat(numpy.arange(queries.shape[0]), lengths)]
    scores = numpy.asarray(q.multiply(names[flat]).sum(axis=1), dtype=numpy.float32).ravel()
    return numpy.split(scores, numpy.cumsum(lengths)[:-1]) if len(lengths) else []


def _counts(rows: List[List[int]], n_terms: int) -> sp.csr_matrix:
    indptr = numpy.zeros(len(rows) + 1, dtype=numpy.int64)
    numpy.cumsum([len(r) for r in rows], out=indptr[1:])
    indices = numpy.array([t for r in rows for t in r], dtype=numpy.int32)
    counts = sp.csr_matrix((numpy.ones(len(indices), dtype=numpy.float32), indices, indptr), shape=(len(rows), n_terms))
    counts.sum_duplicates()
    return counts


class OldTfidf:
    """The format-2 CharNgramTfidf: a dict vocabulary and the float32 matrix."""

    def __init__(self, names: Sequence[str], template: CharNgramTfidf) -> None:
        self.t = template
        self.vocab: Dict[str, int] = {}
        rows = [[self.vocab.setdefault(g, len(self.vocab)) for g in template.ngrams(n)] for n in names]
        counts = _counts(rows, len(self.vocab))
        df = numpy.bincount(counts.indices, minlength=len(self.vocab))
        self.idf = (numpy.log((1.0 + len(rows)) / (1.0 + df)) + 1.0).astype(numpy.float32)
        self.matrix = _old_l2_tfidf(counts, self.idf, template.sublinear_tf)

    def transform(self, strings: Sequence[str]) -> sp.csr_matrix:
        rows = [[self.vocab[g] for g in self.t.ngrams(s) if g in self.vocab] for s in strings]
        return _old_l2_tfidf(_counts(rows, len(self.vocab)), self.idf, self.t.sublinear_tf)

    def rare_postings(self, max_df: float) -> sp.csr_matrix:
        m = self.matrix
        df = numpy.bincount(m.indices, minlength=m.shape[1])
        keep = (df <= int(max_df * m.shape[0]))[m.indices]
        counts = numpy.array([keep[m.indptr[i]:m.indptr[i + 1]].sum() for i in range(m.shape[0])], dtype=numpy.int64)
        indptr = numpy.concatenate([[0], numpy.cumsum(counts)]).astype(numpy.int64)
        return sp.csr_matrix((m.data[keep], m.indices[keep], indptr), shape=m.shape).T.tocsr()

    def search_rare(self, q_all: sp.csr_matrix, k: int, max_df: float, chunk_size: int) -> Tuple[numpy.ndarray, numpy.ndarray]:
        rare_t = self.rare_postings(max_df)
        k = min(k, self.matrix.shape[0])
        out_idx = numpy.full((q_all.shape[0], k), -1, dtype=numpy.int64)
        out_score = numpy.zeros((q_all.shape[0], k), dtype=numpy.float32)
        for start in range(0, q_all.shape[0], chunk_size):
            sims = q_all[start:start + chunk_size] @ rare_t
            sims.sort_indices()
            for row in range(sims.shape[0]):
                lo, hi = sims.indptr[row], sims.indptr[row + 1]
                names, scores = sims.indices[lo:hi], sims.data[lo:hi]
                order = numpy.lexsort((names, -scores))[:k]  # a full sort: ties, lower name first
                out_idx[start + row, :len(order)] = names[order]
                out_score[start + row, :len(order)] = scores[order]
        return out_idx, out_score


class OldTokens:
    """The format-1 NameTokenIndex: a dict vocabulary, the float32 matrix and its float32 postings."""

    def __init__(self, names: Sequence[str]) -> None:
        self.vocab: Dict[str, int] = {}
        rows = [[self.vocab.setdefault(t, len(self.vocab)) for t in name_terms(n)] for n in names]
        counts = _counts(rows, len(self.vocab))
        df = numpy.bincount(counts.indices, minlength=len(self.vocab))
        self.idf = (numpy.log((1.0 + len(rows)) / (1.0 + df)) + 1.0).astype(numpy.float32)
        self.matrix = _old_l2_tfidf(counts, self.idf)
        self.postings = self.matrix.T.tocsr()

    def transform(self, strings: Sequence[str]) -> sp.csr_matrix:
        rows = [[self.vocab[t] for t in name_terms(s) if t in self.vocab] for s in strings]
        return _old_l2_tfidf(_counts(rows, len(self.vocab)), self.idf)

    def search(self, query_vectors: sp.csr_matrix, k: int, chunk_size: int = 256):
        n_queries = query_vectors.shape[0]
        k = max(1, min(k, max(self.matrix.shape[0], 1)))
        out_idx = numpy.full((n_queries, k), -1, dtype=numpy.int64)
        out_score = numpy.zeros((n_queries, k), dtype=numpy.float32)
        for start in range(0, n_queries, chunk_size):
            sims = (query_vectors[start:start + chunk_size] @ self.postings).tocsr()
            for r in range(sims.shape[0]):
                lo, hi = sims.indptr[r], sims.indptr[r + 1]
                if lo == hi:
                    continue
                cols, vals = sims.indices[lo:hi], sims.data[lo:hi]
                if len(vals) > k:
                    kth = vals[numpy.argpartition(-vals, k - 1)[k - 1]]
                    keep = vals >= kth
                    cols, vals = cols[keep], vals[keep]
                order = numpy.lexsort((cols, -vals))[:k]
                out_idx[start + r, :len(order)] = cols[order]
                out_score[start + r, :len(order)] = vals[order]
        return out_idx, out_score


def _assert_same_csr(a: sp.csr_matrix, b: sp.csr_matrix) -> None:
    assert a.shape == b.shape and a.dtype == b.dtype == numpy.float32
    for x, y in ((a.data, b.data), (a.indices, b.indices), (a.indptr, b.indptr)):
        assert numpy.array_equal(x, y)


def _by_name(index, postings: sp.csr_matrix) -> sp.csr_matrix:
    """Postings over stored rows as postings over names (each name's column is its row's)."""
    if index.shared is None:
        return postings
    by_name = sp.csr_matrix(postings[:, index.shared.row_vectors])
    by_name.sort_indices()
    return by_name


def _pools(n_queries: int, n_names: int, seed: int) -> List[List[int]]:
    rng = numpy.random.default_rng(seed)
    return [rng.integers(0, n_names, size=int(rng.integers(0, 60))).tolist() for _ in range(n_queries)]


def _assert_same_lists(a: List[numpy.ndarray], b: List[numpy.ndarray]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert x.dtype == y.dtype == numpy.float32 and numpy.array_equal(x, y)


@pytest.mark.parametrize("ngram_range,sublinear,pad", [((1, 3), False, True), ((1, 3), True, True),
                                                       ((2, 3), False, False), ((3, 3), True, True),
                                                       ((1, 1), False, True), ((2, 4), False, True)])
def test_char_ngram_tfidf_is_bit_identical(tmp_path, ngram_range, sublinear, pad) -> None:
    _check_char_ngram_tfidf(tmp_path, ngram_range, sublinear, pad)


def test_small_blocks_give_the_same_results(tmp_path, monkeypatch) -> None:
    # Rare postings rebuilt per 2 chunks, candidates scored 50 rows at a time: nothing may change.
    from spacy_nseen.retrieval import sparse as sparse_cosine
    monkeypatch.setattr(sparse_cosine, "POSTINGS_BLOCK", 20)
    monkeypatch.setattr(sparse_cosine, "PAIR_BLOCK", 50)
    _check_char_ngram_tfidf(tmp_path, (1, 3), False, True)
    test_name_token_index_is_bit_identical(tmp_path)


def _check_char_ngram_tfidf(tmp_path, ngram_range, sublinear, pad) -> None:
    new = CharNgramTfidf(ngram_range, sublinear_tf=sublinear, pad=pad).fit(NAMES)
    old = OldTfidf(NAMES, CharNgramTfidf(ngram_range, sublinear_tf=sublinear, pad=pad))
    new.to_disk(tmp_path / "tfidf.npz", rare_max_df=0.05)
    loaded = CharNgramTfidf.from_disk(tmp_path / "tfidf.npz", mmap=True)
    assert dict(new.vocab) == dict(loaded.vocab) == old.vocab
    assert isinstance(loaded.vocab, NgramVocab) == (ngram_range[1] <= 3)
    _assert_same_csr(new.matrix, old.matrix)
    _assert_same_csr(loaded.matrix, old.matrix)
    q_old = old.transform(QUERIES)
    pools = _pools(len(QUERIES), len(NAMES), 2)
    for index in (new, loaded):
        q_new = index.transform(QUERIES)
        _assert_same_csr(q_new, q_old)
        _assert_same_lists(index.score(q_new, pools), _old_pair_cosines(q_old, old.matrix, pools))
        for max_df, k, chunk in ((0.05, 10, 64), (0.05, 3, 7), (0.2, 25, 16)):
            ids, scores = index.search(q_new, k, max_df=max_df, chunk_size=chunk)
            old_ids, old_scores = old.search_rare(q_old, k, max_df, chunk)
            assert numpy.array_equal(ids, old_ids) and numpy.array_equal(scores, old_scores)
        _assert_same_csr(_by_name(index, index.rare_postings(0.05).to_csr()), old.rare_postings(0.05))


def test_name_token_index_is_bit_identical(tmp_path) -> None:
    new = NameTokenIndex().fit(NAMES)
    old = OldTokens(NAMES)
    new.to_disk(tmp_path / "tokens.npz")
    loaded = NameTokenIndex.from_disk(tmp_path / "tokens.npz")
    assert dict(new.vocab) == dict(loaded.vocab) == old.vocab
    _assert_same_csr(loaded.matrix, old.matrix)
    _assert_same_csr(_by_name(loaded, loaded.postings.to_csr()), old.postings)
    q_old = old.transform(QUERIES)
    pools = _pools(len(QUERIES), len(NAMES), 3)
    for index in (new, loaded):
        q_new = index.transform(QUERIES)
        _assert_same_csr(q_new, q_old)
        _assert_same_lists(index.score(q_new, pools), _old_pair_cosines(q_old, old.matrix, pools))
        for k, chunk in ((10, 256), (1, 5), (50, 33)):
            ids, scores = index.search(q_new, k, chunk)
            old_ids, old_scores = old.search(q_old, k, chunk)
            assert numpy.array_equal(ids, old_ids) and numpy.array_equal(scores, old_scores)


def test_counts_share_a_uint32_with_the_column_or_use_uint64() -> None:
    wide = CharNgramTfidf((1, 1)).fit(["ab", "x" * 300])
    assert wide.counts.entries.dtype == numpy.uint32 and int(wide.counts.tf.max()) == 300
    _assert_same_csr(wide.matrix, OldTfidf(["ab", "x" * 300], CharNgramTfidf((1, 1))).matrix)
    counts = sp.csr_matrix(numpy.array([[1, 0, 70000], [0, 3, 0]], dtype=numpy.float32))
    huge = TfMatrix.fit(counts, numpy.ones(3, numpy.float32))  # 2 column bits + 17 count bits: still uint32
    assert huge.entries.dtype == numpy.uint32 and huge.tf.tolist() == [1, 70000, 3]
    many_columns = sp.csr_matrix((numpy.array([5e6, 1.0], numpy.float32), numpy.array([0, 1 << 20]), numpy.array([0, 1, 2])),
                                 shape=(2, (1 << 20) + 1))
    big = TfMatrix.fit(many_columns, numpy.ones(many_columns.shape[1], numpy.float32))  # 21 + 23 bits: uint64
    assert big.entries.dtype == numpy.uint64 and big.indptr.dtype == numpy.int64 and big.tf.tolist() == [5000000, 1]
    _assert_same_csr(big.to_csr(), _old_l2_tfidf(many_columns, numpy.ones(many_columns.shape[1], numpy.float32)))
    _assert_same_csr(big.rows([1, 0, 1]), _old_l2_tfidf(many_columns, numpy.ones(many_columns.shape[1], numpy.float32))[[1, 0, 1]])


def test_numpy_row_gather_equals_scipys(monkeypatch) -> None:
    from spacy_nseen.retrieval import sparse as tf_matrix
    index = NameTokenIndex().fit(NAMES)
    rows = numpy.random.default_rng(5).integers(0, index.n_rows, 300)
    expected = index.counts.rows(rows)
    monkeypatch.setattr(tf_matrix, "_csr_row_index", None)
    _assert_same_csr(index.counts.rows(rows), expected)
    _assert_same_csr(index.postings.rows(numpy.arange(10)), index.counts.to_csr().T.tocsr()[:10])
    for bad in ([-1], [index.n_rows], [0, 1 << 40]):
        with pytest.raises(IndexError):
            index.counts.rows(bad)


def test_hash_collisions_never_give_a_wrong_id(monkeypatch) -> None:
    # A hash with only 3 values: almost every lookup meets other terms with its hash first.
    monkeypatch.setattr(term_vocab, "term_hash", lambda term: len(term) % 3)
    new = NameTokenIndex().fit(NAMES)
    old = OldTokens(NAMES)
    assert dict(new.vocab) == old.vocab
    assert new.vocab.lookup(["kinase", "nope", "", "p53", "kinas"]).tolist() == [
        old.vocab["kinase"], -1, -1, old.vocab["p53"], -1]
    _assert_same_csr(new.transform(QUERIES), old.transform(QUERIES))


def test_packed_ngram_keys_are_exact() -> None:
    for gram in ["a", "ab", "abc", "\x00", "\x00\x00", "𝛼😀\U0010ffff", "\ud800b"]:
        assert unpack_ngram(pack_ngram(gram)) == gram
    assert pack_ngram("abcd") == 0 and pack_ngram("") == 0
    texts = [" a\x00b ", "", "😀x", "\ud800\udfff"]
    rows, keys = ngram_keys(texts, 1, 3)
    template = CharNgramTfidf((1, 3), lowercase=False, pad=False)
    expected = [(i, pack_ngram(g)) for i, t in enumerate(texts) for g in template.ngrams(t)]
    assert sorted(zip(rows.tolist(), keys.tolist())) == sorted(expected)
    vocab = HashedTermVocab.from_terms(["b", "a", "ab"])
    assert list(vocab) == ["b", "a", "ab"] and vocab["ab"] == 2 and "c" not in vocab and len(vocab) == 3


# Orthologs' and case variants' names: many names with the same text or the same terms, so many ties.
SHARED_NAMES = [n for name in NAMES[:120] for n in (name, name.upper(), name.lower(), name)] + ["IL 2", "il-2", "2 IL"]


def test_names_with_the_same_text_share_a_row_and_change_no_result(tmp_path) -> None:
    for make in (CharNgramTfidf, NameTokenIndex):
        shared, own = make().fit(SHARED_NAMES), make().fit(SHARED_NAMES, share_rows=False)
        assert shared.n_names == own.n_names == own.n_rows == len(SHARED_NAMES)
        assert shared.n_rows < len(SHARED_NAMES) // 2 and own.shared is None
        assert numpy.array_equal(shared.idf, own.idf)
        shared.to_disk(tmp_path / "shared.npz")
        loaded = make.from_disk(tmp_path / "shared.npz")
        assert loaded.n_names == len(SHARED_NAMES) and loaded.n_rows == shared.n_rows
        pools = _pools(len(QUERIES), len(SHARED_NAMES), 4)
        q = own.transform(QUERIES)
        for index in (shared, loaded):
            _assert_same_csr(index.matrix, own.matrix)
            _assert_same_lists(index.score(q, pools), own.score(q, pools))
            for k in (1, 3, 10, 40):
                if make is CharNgramTfidf:
                    pairs = [(index.search(q, k, max_df=0.05), own.search(q, k, max_df=0.05)),
                             (index.rare_top_k(q, k, 0.3), own.rare_top_k(q, k, 0.3))]
                else:
                    pairs = [(index.search(q, k), own.search(q, k)), (index.rare_search(q, k, 0.02), own.rare_search(q, k, 0.02))]
                for (ids, scores), (own_ids, own_scores) in pairs:
                    assert numpy.array_equal(ids, own_ids) and numpy.array_equal(scores, own_scores)


def test_a_damaged_map_of_shared_rows_is_an_artifact_error(tmp_path) -> None:
    from spacy_nseen.errors import ArtifactError
    from spacy_nseen.retrieval.array_io import load_npz

    for make in (CharNgramTfidf, NameTokenIndex):
        make().fit(SHARED_NAMES).to_disk(tmp_path / "good.npz")
        good = {name: numpy.array(value) for name, value in load_npz(tmp_path / "good.npz").items()}
        partial = {k: v for k, v in good.items() if k != "shared_rows"}
        for arrays in (partial, {**good, "shared_row_vectors": good["shared_row_vectors"][:-1]},
                       {**good, "shared_indptr": good["shared_indptr"][:-1]},
                       {**good, "shared_row_vectors": good["shared_row_vectors"] + 10 ** 6}):
            numpy.savez(tmp_path / "bad.npz", **arrays)
            with pytest.raises(ArtifactError, match="bad.npz: its map of the names that share a row"):
                make.from_disk(tmp_path / "bad.npz")


def test_a_map_that_would_cost_more_than_it_saves_is_not_kept() -> None:
    names = NAMES[:-2] + [NAMES[0]]  # nearly all distinct: one repeat
    for make in (CharNgramTfidf, NameTokenIndex):
        index, own = make().fit(names), make().fit(names, share_rows=False)
        assert index.shared is None and index.n_rows == index.n_names == len(names)
        _assert_same_csr(index.matrix, own.matrix)
        assert numpy.array_equal(index.idf, own.idf)


def test_damaged_term_counts_are_artifact_errors_on_load_or_first_read(tmp_path) -> None:
    """Offsets are checked on load; the entries are not scanned then (that would read every mapped page), so a
    column out of range is an ArtifactError naming the file when a search first reads it."""
    from spacy_nseen.errors import ArtifactError
    from spacy_nseen.retrieval.array_io import load_npz

    CharNgramTfidf().fit(NAMES).to_disk(tmp_path / "good.npz")
    good = {name: numpy.array(value) for name, value in load_npz(tmp_path / "good.npz").items()}
    shifted = good["indptr"].copy()
    shifted[1] = shifted[2] + 1
    numpy.savez(tmp_path / "offsets.npz", **{**good, "indptr": shifted})
    with pytest.raises(ArtifactError, match="offsets.npz: its sparse matrix arrays disagree"):
        CharNgramTfidf.from_disk(tmp_path / "offsets.npz")
    entries = good["entries"].copy()
    entries[:] |= entries.dtype.type((1 << column_bits(int(good["shape"][1]))) - 1)  # every column: the last + more
    numpy.savez(tmp_path / "columns.npz", **{**good, "entries": entries})
    loaded = CharNgramTfidf.from_disk(tmp_path / "columns.npz")
    with pytest.raises(ArtifactError, match="columns.npz: its sparse matrix arrays hold a column out of range"):
        loaded.counts.rows([0, 1])
    with pytest.raises(ArtifactError, match="columns.npz: its sparse matrix arrays hold a column out of range"):
        loaded.counts.counts()
