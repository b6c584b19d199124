import numpy
import pytest

from spacy_nseen.errors import ArtifactError
from spacy_nseen.retrieval.array_io import load_npz
from spacy_nseen.retrieval.word_tfidf import NameTokenIndex, name_terms

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
    parts = (loaded.counts.entries, loaded.counts.indptr, loaded.postings.entries, loaded.postings.indptr,
             loaded.counts.inv_norm, loaded.vocab.hashes, loaded.vocab.ids, loaded.vocab.utf8, loaded.vocab.offsets)
    for part in parts:
        assert not part.flags.owndata and not part.flags.writeable  # views of the read-only file map
    assert loaded._postings is not None  # read from the file, not rebuilt in memory
    stored = load_npz(tmp_path / "tokens.npz")
    assert "data" not in stored and stored["entries"].dtype == stored["postings_entries"].dtype == numpy.uint32
    assert "vocab" not in stored and stored["vocab_utf8"].dtype == numpy.uint8  # not a fixed-width unicode array
    assert dict(loaded.vocab) == dict(index.vocab) == {t: i for i, t in enumerate(dict.fromkeys(
        t for name in NAMES for t in name_terms(name)))}
    assert (loaded.postings.to_csr() != index.postings.to_csr()).nnz == 0


def _old_format_arrays(index: NameTokenIndex, version: int = 1):
    """The arrays a format-1 file (float32 weights, string vocabulary) holds."""
    m = index.matrix
    vocab = numpy.array(list(index.vocab), dtype=numpy.str_)
    return dict(format_version=numpy.array([version]), vocab=vocab, idf=index.idf, data=m.data, indices=m.indices,
                indptr=m.indptr, shape=numpy.array(m.shape, dtype=numpy.int64))


def test_an_older_format_asks_for_a_rebuild(tmp_path) -> None:
    index = NameTokenIndex().fit(NAMES)
    numpy.savez(tmp_path / "old.npz", **_old_format_arrays(index))
    with pytest.raises(ArtifactError, match=r"old\.npz: name token index format version 1 is not 3.*Rebuild"):
        NameTokenIndex.from_disk(tmp_path / "old.npz")
    saved = _saved_with(tmp_path, index, format_version=numpy.array([2]))  # format 2: no df, a row per name
    with pytest.raises(ArtifactError, match=r"bad\.npz: name token index format version 2 is not 3.*Rebuild"):
        NameTokenIndex.from_disk(saved)
    numpy.savez(tmp_path / "foreign.npz", x=numpy.zeros(3))
    with pytest.raises(ArtifactError, match="foreign.npz: has no format version"):
        NameTokenIndex.from_disk(tmp_path / "foreign.npz")


def _saved_with(tmp_path, index: NameTokenIndex, **changes):
    path = tmp_path / "tokens.npz"
    index.to_disk(path)
    arrays = {name: numpy.array(value) for name, value in load_npz(path).items()}
    arrays.update(changes)
    numpy.savez(tmp_path / "bad.npz", **arrays)
    return tmp_path / "bad.npz"


def test_foreign_sparse_arrays_are_an_artifact_error(tmp_path) -> None:
    index = NameTokenIndex().fit(NAMES)
    counts = index.counts
    bad_column = numpy.array(counts.entries)
    bad_column[0] |= (1 << counts.col_bits) - 1  # a term column past the vocabulary
    bad_postings = numpy.array(index.postings.entries)
    bad_postings[-1] |= (1 << index.postings.col_bits) - 1  # a name row past the names
    for change in (dict(entries=bad_column), dict(postings_entries=bad_postings)):  # not scanned on load
        loaded = NameTokenIndex.from_disk(_saved_with(tmp_path, index, **change))
        with pytest.raises(ArtifactError, match="bad.npz: .* a column out of range"):
            loaded.counts.to_csr() if "entries" in change else loaded.postings.to_csr()
    changes = [dict(entries=counts.entries.astype(numpy.float32)), dict(postings_indptr=index.postings.indptr[::-1]),
               dict(entries=counts.entries[:-1]), dict(inv_norm=counts.inv_norm[:-1]), dict(idf=index.idf[:-1]),
               dict(vocab_hash_ids=numpy.zeros(len(index.vocab), numpy.int32)),
               dict(vocab_offsets=numpy.array(index.vocab.offsets[:-1])), dict(vocab_hashes=index.vocab.hashes[::-1].copy())]
    for change in changes:
        with pytest.raises(ArtifactError, match="bad.npz"):
            NameTokenIndex.from_disk(_saved_with(tmp_path, index, **change))
    path = tmp_path / "tokens.npz"
    for cut in (100, 1000, path.stat().st_size // 2, path.stat().st_size - 10):
        (tmp_path / "cut.npz").write_bytes(path.read_bytes()[:cut])
        with pytest.raises(ArtifactError, match="cut.npz"):
            NameTokenIndex.from_disk(tmp_path / "cut.npz")
