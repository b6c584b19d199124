import numpy as np
import pytest
from sklearn.feature_extraction.text import TfidfVectorizer

from spacy_nseen.errors import ArtifactError
from spacy_nseen.retrieval.array_io import load_npz
from spacy_nseen.retrieval.char_tfidf import CharNgramTfidf

NAMES = ["Histone H3/a", "PLC-gamma-2", "Phospholipase C-gamma-2", "IKK  epsilon", "IKBKE", "x"]
QUERIES = ["histone h3", "PLCg2", "IKKe", "zzz", ""]


@pytest.mark.parametrize("ngram_range", [(1, 3), (3, 3), (2, 4)])
@pytest.mark.parametrize("sublinear", [False, True])
def test_matches_sklearn(ngram_range, sublinear):
    ours = CharNgramTfidf(ngram_range, sublinear_tf=sublinear, pad=False).fit(NAMES)
    sk = TfidfVectorizer(analyzer="char", ngram_range=ngram_range, sublinear_tf=sublinear).fit(NAMES)
    assert len(ours.vocab) == len(sk.vocabulary_)
    np.testing.assert_allclose(ours.matrix.toarray().sum(), sk.transform(NAMES).toarray().sum(),
                               rtol=1e-5)
    a = (ours.transform(QUERIES) @ ours.matrix.T).toarray()
    b = (sk.transform(QUERIES) @ sk.transform(NAMES).T).toarray()
    np.testing.assert_allclose(a, b, atol=1e-5)


def test_top_k_and_pair_scores():
    t = CharNgramTfidf((1, 3)).fit(NAMES)
    idx, scores = t.top_k(QUERIES, k=3, chunk_size=2)
    full = (t.transform(QUERIES) @ t.matrix.T).toarray()
    assert idx.shape == (5, 3)
    np.testing.assert_allclose(scores, np.sort(full, axis=1)[:, ::-1][:, :3], atol=1e-6)
    assert idx[0, 0] == 0 and idx[1, 0] == 1
    assert np.all(np.diff(scores, axis=1) <= 1e-7)
    pairs = t.pair_scores(QUERIES[:2], [[0, 2], [5]])
    np.testing.assert_allclose(pairs[0], full[0, [0, 2]], atol=1e-6)
    np.testing.assert_allclose(pairs[1], full[1, [5]], atol=1e-6)
    big_idx, _ = t.top_k(["x"], k=100)
    assert big_idx.shape == (1, len(NAMES))


def test_hand_worked_idf():
    t = CharNgramTfidf((1, 1), pad=False).fit(["ab", "a"])
    # idf(a) = ln(3/3)+1 = 1, idf(b) = ln(3/2)+1; "ab" -> [1, 1.405] normalised
    b = np.log(1.5) + 1
    np.testing.assert_allclose(t.transform(["ab"]).toarray()[0][[t.vocab["a"], t.vocab["b"]]],
                               np.array([1, b]) / np.hypot(1, b), rtol=1e-6)


def test_disk_roundtrip_and_errors(tmp_path):
    t = CharNgramTfidf((2, 3), sublinear_tf=True).fit(NAMES)
    path = tmp_path / "tfidf.npz"
    t.to_disk(path)
    t2 = CharNgramTfidf.from_disk(path)
    assert t2.ngram_range == (2, 3) and t2.sublinear_tf
    np.testing.assert_array_equal(t.top_k(QUERIES, 2)[0], t2.top_k(QUERIES, 2)[0])
    with pytest.raises(ArtifactError, match="not found"):
        CharNgramTfidf.from_disk(tmp_path / "missing.npz")
    bad = tmp_path / "bad.npz"
    bad.write_bytes(path.read_bytes()[:100])
    with pytest.raises(ArtifactError, match="truncated"):
        CharNgramTfidf.from_disk(bad)
    with pytest.raises(ValueError, match="not fitted"):
        CharNgramTfidf().top_k(["a"], 1)


def test_padding_gives_short_names_word_boundary_ngrams() -> None:
    padded = CharNgramTfidf((3, 3)).fit(["Ca", "Zn", "CaCl2"])
    unpadded = CharNgramTfidf((3, 3), pad=False).fit(["Ca", "Zn", "CaCl2"])
    assert " ca" in padded.ngrams("Ca") and padded.ngrams("Ca") == [" ca", "ca "]
    assert unpadded.ngrams("Ca") == []
    idx, score = padded.top_k(["ca"], 1)
    assert idx[0, 0] == 0 and score[0, 0] > 0.99


def test_padding_unifies_unicode_dashes() -> None:
    t = CharNgramTfidf((2, 3)).fit(["IL-2", "IL-6"])
    idx, score = t.top_k(["IL\u20102"], 1)
    assert idx[0, 0] == 0 and abs(score[0, 0] - 1.0) < 1e-5


def test_saved_rare_postings_are_read_not_rebuilt(tmp_path):
    names = NAMES * 3 + [f"kinase {i}" for i in range(30)]
    index = CharNgramTfidf().fit(names)
    queries = ["kinase 7", "PLCγ2", "histone"]
    expected = index.top_k(queries, 5, max_df=0.2)
    index.to_disk(tmp_path / "tfidf.npz", rare_max_df=0.2)
    loaded = CharNgramTfidf.from_disk(tmp_path / "tfidf.npz", mmap=True)
    (saved,) = loaded._rare_t.values()
    assert not saved.entries.flags.owndata and saved.entries.dtype == np.uint32  # a view of the file map: counts
    assert (saved.to_csr() != index.rare_postings(0.2).to_csr()).nnz == 0
    got = loaded.top_k(queries, 5, max_df=0.2)
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])
    assert list(loaded._rare_t) == [int(0.2 * len(names))]  # no postings built for the saved max_df
    ids, _ = loaded.search(loaded.transform(queries), 5, max_df=0.5)  # another max_df: built on demand
    assert ids.shape == (3, 5) and len(loaded._rare_t) == 2


def test_compact_storage_types(tmp_path):
    index = CharNgramTfidf().fit(NAMES)
    index.to_disk(tmp_path / "tfidf.npz", rare_max_df=0.5)
    stored = load_npz(tmp_path / "tfidf.npz")
    assert "data" not in stored and "vocab" not in stored and "rare_data" not in stored
    assert stored["entries"].dtype == np.uint32 and stored["indptr"].dtype == np.int32  # column | count << bits
    assert stored["rare_entries"].dtype == np.uint32 and stored["inv_norm"].dtype == np.float32
    assert stored["vocab_keys"].dtype == np.uint64 and list(index.vocab)[:3] == [" ", "h", "i"]
    counts = index.counts.counts()
    assert counts.data.max() >= 2 and np.array_equal(counts.indices, index.matrix.indices)


def test_an_older_format_asks_for_a_rebuild(tmp_path):
    index = CharNgramTfidf().fit(NAMES)
    m = index.matrix
    np.savez(tmp_path / "old.npz", format_version=np.array([2]), ngram_range=np.array([1, 3]),
             flags=np.array([True, False, True]), vocab=np.array(list(index.vocab), dtype=np.str_), idf=index.idf,
             data=m.data, indices=m.indices, indptr=m.indptr, shape=np.array(m.shape))
    with pytest.raises(ArtifactError, match=r"old\.npz: TF-IDF format version 2 is not 4.*Rebuild"):
        CharNgramTfidf.from_disk(tmp_path / "old.npz", mmap=True)
    # format 3 had a row per name and no map of the names that share one
    index.to_disk(tmp_path / "tfidf.npz")
    arrays = {name: np.array(value) for name, value in load_npz(tmp_path / "tfidf.npz").items()}
    np.savez(tmp_path / "v3.npz", **{**arrays, "format_version": np.array([3])})
    with pytest.raises(ArtifactError, match=r"v3\.npz: TF-IDF format version 3 is not 4.*Rebuild"):
        CharNgramTfidf.from_disk(tmp_path / "v3.npz", mmap=True)


def test_foreign_arrays_are_an_artifact_error(tmp_path):
    index = CharNgramTfidf().fit(NAMES)
    path = tmp_path / "tfidf.npz"
    index.to_disk(path, rare_max_df=0.5)
    good = {name: np.array(value) for name, value in load_npz(path).items()}
    bits = index.counts.col_bits
    bad_column = good["entries"].copy()
    bad_column[3] = (bad_column[3] >> bits << bits) | ((1 << bits) - 1)  # a column past the n-grams (35 < 2^6)
    no_count = good["entries"].copy()
    no_count[5] &= (1 << bits) - 1  # a count of 0
    bad_rare = good["rare_entries"].copy()
    bad_rare[0] |= (1 << index.counts.transposed().col_bits) - 1  # a name row past the names
    falling = good["indptr"].copy()
    falling[2] = falling[3] + 1
    # the entries are not scanned on load: a column out of range fails the first read, a count of 0 weighs as 1
    for change, fails in ((dict(entries=bad_column), True), (dict(rare_entries=bad_rare), True),
                          (dict(entries=no_count), False)):
        np.savez(tmp_path / "late.npz", **{**good, **change})
        loaded = CharNgramTfidf.from_disk(tmp_path / "late.npz", mmap=True)
        if fails:
            with pytest.raises(ArtifactError, match="late.npz: .* a column out of range"):
                loaded.rare_top_k(loaded.transform(NAMES), 3, 0.5) and loaded.counts.to_csr()
        else:
            assert np.isfinite(loaded.counts.to_csr().data).all()
    changes = [dict(entries=good["entries"].astype(np.float32)), dict(entries=good["entries"].astype(np.uint64)),
               dict(entries=good["entries"][:-1]), dict(indptr=falling), dict(inv_norm=good["inv_norm"][:-2]),
               dict(vocab_ids=good["vocab_ids"][::-1] * 0), dict(vocab_keys=good["vocab_keys"][::-1].copy()),
               dict(indptr=good["indptr"][:-1]), dict(idf=good["idf"][:-1])]
    for change in changes:
        np.savez(tmp_path / "bad.npz", **{**good, **change})
        with pytest.raises(ArtifactError, match="bad.npz"):
            CharNgramTfidf.from_disk(tmp_path / "bad.npz", mmap=True)
    for cut in (200, path.stat().st_size // 2, path.stat().st_size - 5):
        (tmp_path / "cut.npz").write_bytes(path.read_bytes()[:cut])
        with pytest.raises(ArtifactError, match="cut.npz"):
            CharNgramTfidf.from_disk(tmp_path / "cut.npz", mmap=True)


def test_rare_top_k_searches_postings_even_with_every_ngram():
    # max_df 1: every n-gram's postings, so a name sharing none with the query is no candidate (the exact
    # search, `search(max_df=1)`, ranks every name, at cosine 0 where none is shared)
    index = CharNgramTfidf(pad=False).fit(["abc", "xyz"])
    q = index.transform(["abd"])
    ids, scores = index.rare_top_k(q, 2, 1.0)
    assert ids.tolist() == [[0, -1]] and scores[0, 1] == 0.0 and scores[0, 0] > 0
    assert index.search(q, 2)[0].tolist() == [[0, 1]]
