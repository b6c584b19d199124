import numpy
import pytest

from spacy_nseen.array_io import load_npz
from spacy_nseen.errors import ArtifactError
from spacy_nseen.token_index import NameTokenIndex, name_terms

NAMES = [
    "Autophagy-related protein LC3 A",
    "Autophagy-related protein LC3 B",
    "HLC3",
    "Apoptosis inhibitor survivin",
    "PLC-gamma-2",
    "Lc3 synthase",
]


def test_terms_are_words_and_joined_adjacent_words() -> None:
    assert name_terms("LC3 B") == ["lc3", "b", "lc3b"]
    assert name_terms("PLCγ2") == name_terms("PLC-gamma-2") == ["plc", "gamma", "2", "plcgamma", "gamma2"]
    assert name_terms("") == [] and name_terms("—…") == []


def test_a_word_inside_a_name_beats_a_similar_string() -> None:
    index = NameTokenIndex().fit(NAMES)
    ids, scores = index.top_k(["LC3", "LC3B", "survivin", "xyz"], 3)
    assert 2 not in ids[0]  # HLC3 shares no word with LC3
    assert set(ids[0]) == {0, 1, 5}
    assert ids[1, 0] == 1  # "LC3B" meets the joined words "LC3 B"
    assert ids[2, 0] == 3 and ids[2, 1] == -1
    assert (ids[3] == -1).all() and (scores[3] == 0).all()


def test_scores_are_cosines_and_pair_scores_agree_with_top_k() -> None:
    index = NameTokenIndex().fit(NAMES)
    ids, scores = index.top_k(["LC3 B"], 2)
    (pair,) = index.pair_scores(["LC3 B"], [list(ids[0])])
    numpy.testing.assert_allclose(pair, scores[0], rtol=1e-5)
    (self_score,) = index.pair_scores(["HLC3"], [[2]])
    assert self_score[0] == pytest.approx(1.0, abs=1e-5)
    assert ((scores >= 0) & (scores <= 1.0 + 1e-6)).all()


def test_disk_round_trip_and_errors(tmp_path) -> None:
    index = NameTokenIndex().fit(NAMES)
    path = tmp_path / "tokens.npz"
    index.to_disk(path)
    loaded = NameTokenIndex.from_disk(path)
    assert loaded.top_k(["LC3"], 3)[0].tolist() == index.top_k(["LC3"], 3)[0].tolist()
    with pytest.raises(ArtifactError, match="not found"):
        NameTokenIndex.from_disk(tmp_path / "missing.npz")
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(ArtifactError, match="tokens.npz"):
        NameTokenIndex.from_disk(path)


def _full_sort_top_k(index: NameTokenIndex, queries, k):
    """The reference ranking: every name's cosine, sorted by (score desc, name index asc)."""
    sims = (index.transform(queries) @ index.matrix.T).toarray()
    out = []
    for row in sims:
        nonzero = numpy.flatnonzero(row)
        order = nonzero[numpy.lexsort((nonzero, -row[nonzero]))][:k]
        out.append(order.tolist() + [-1] * (k - len(order)))
    return out


def test_search_keeps_the_full_sort_order_with_ties() -> None:
    # Many names tie on the shared word: the k kept must be the lowest name indices, as a full sort gives.
    names = [f"kinase {i}" for i in range(40)] + ["kinase", "other kinase", "protein kinase C"]
    index = NameTokenIndex().fit(names)
    queries = ["kinase", "kinase 7", "protein kinase", "nothing"]
    for k in (1, 3, 10, 50):
        ids, _ = index.top_k(queries, k)
        assert ids.tolist() == _full_sort_top_k(index, queries, min(k, len(names)))
    ids, scores = index.search(index.transform(queries), 5)
    assert ids.tolist() == index.top_k(queries, 5)[0].tolist()
    assert index.score(index.transform(["kinase 7"]), [[7, 8]])[0].tolist() == index.pair_scores(["kinase 7"], [[7, 8]])[0].tolist()


def test_saved_index_is_memory_mapped_with_its_postings(tmp_path) -> None:
    index = NameTokenIndex().fit(NAMES)
    index.to_disk(tmp_path / "tokens.npz")
    loaded = NameTokenIndex.from_disk(tmp_path / "tokens.npz")
    for part in (loaded.matrix.data, loaded.matrix.indices, loaded.matrix.indptr, loaded.postings.data):
        assert not part.flags.owndata and not part.flags.writeable  # views of the read-only file map
    assert loaded._postings is not None  # read from the file, not rebuilt in memory
    stored = load_npz(tmp_path / "tokens.npz")
    assert "vocab" not in stored and stored["vocab_utf8"].dtype == numpy.uint8  # not a fixed-width unicode array
    assert loaded.vocab == index.vocab
    assert (loaded.postings != index.postings).nnz == 0
    # A file written before the postings were saved still loads; they are then built on first search.
    m = index.matrix
    vocab = numpy.array(sorted(index.vocab, key=index.vocab.__getitem__), dtype=numpy.str_)
    numpy.savez(tmp_path / "old.npz", format_version=numpy.array([1]), vocab=vocab, idf=index.idf, data=m.data,
                indices=m.indices, indptr=m.indptr, shape=numpy.array(m.shape, dtype=numpy.int64))
    old = NameTokenIndex.from_disk(tmp_path / "old.npz")
    assert old._postings is None and old.top_k(["LC3"], 3)[0].tolist() == index.top_k(["LC3"], 3)[0].tolist()


def test_foreign_sparse_arrays_are_an_artifact_error(tmp_path) -> None:
    index = NameTokenIndex().fit(NAMES)
    m = index.matrix
    vocab = numpy.array(sorted(index.vocab, key=index.vocab.__getitem__), dtype=numpy.str_)
    bad_indices = m.indices.copy()
    bad_indices[0] = m.shape[1] + 5  # a term column past the vocabulary
    numpy.savez(tmp_path / "bad.npz", format_version=numpy.array([1]), vocab=vocab, idf=index.idf, data=m.data,
                indices=bad_indices, indptr=m.indptr, shape=numpy.array(m.shape, dtype=numpy.int64))
    with pytest.raises(ArtifactError, match="bad.npz"):
        NameTokenIndex.from_disk(tmp_path / "bad.npz")
