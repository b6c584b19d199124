"""Names added to built indexes (`retrieval.added_rows`): side blocks searched exactly, their hits joined to the built index's."""
import numpy
import pytest
import scipy.sparse as sp

from spacy_nseen.retrieval.added_rows import AddedRows, AddedVectors, best_columns, join_hits
from spacy_nseen.retrieval.char_tfidf import CharNgramTfidf
from spacy_nseen.retrieval.exact_names import ExactNameIndex
from spacy_nseen.retrieval.name_index import AnnoyNameIndex
from spacy_nseen.retrieval.word_tfidf import NameTokenIndex

NAMES = ["Histone H3", "PLC-gamma-2", "Phospholipase C-gamma-2", "IKK epsilon", "IKBKE", "Beclin-1", "p62"]
ADDED = ["Sequestosome p62", "hTau", "PLCg2"]
QUERIES = ["PLCg2", "sequestosome", "IKK-e", "Histone H3", "nothing like it"]


def unit_rows(n: int, dim: int, seed: int) -> numpy.ndarray:
    vectors = numpy.random.default_rng(seed).normal(size=(n, dim)).astype(numpy.float32)
    return vectors / numpy.linalg.norm(vectors, axis=1, keepdims=True)


def test_best_columns_ranks_by_score_then_lower_row_and_drops_low_scores():
    scores = numpy.array([[0.2, 0.9, 0.9, 0.0], [0.0, 0.0, 0.0, 0.0]], dtype=numpy.float32)
    ids, values = best_columns(scores, 3, first_row=10, min_score=0.0)
    assert ids.tolist() == [[11, 12, 10], [-1, -1, -1]]
    assert values[0].tolist() == pytest.approx([0.9, 0.9, 0.2])


def test_join_hits_keeps_every_built_hit_and_adds_only_added_ones_in_the_n_best():
    base = (numpy.array([[3, 1, 2]]), numpy.array([[0.9, 0.5, 0.4]], dtype=numpy.float32))
    added = (numpy.array([[11, 10]]), numpy.array([[0.6, 0.4]], dtype=numpy.float32))
    ids, scores = join_hits(base, added, n=3, empty_score=0.0)
    # 11 (0.6) beats the third built hit; 10 ties it (0.4) and ranks after it: not among the 3 best
    assert ids.tolist() == [[3, 11, 1, 2]] and scores[0].tolist() == pytest.approx([0.9, 0.6, 0.5, 0.4])
    weak = (numpy.array([[12]]), numpy.array([[0.1]], dtype=numpy.float32))
    same = join_hits(base, weak, n=3, empty_score=0.0)
    assert same[0] is base[0] and same[1] is base[1]  # nothing joins: the built hits as they were


def test_join_hits_takes_added_hits_when_the_built_index_found_fewer_than_n():
    base = (numpy.array([[4, -1, -1]]), numpy.array([[0.3, 0.0, 0.0]], dtype=numpy.float32))
    added = (numpy.array([[10, -1]]), numpy.array([[0.1, 0.0]], dtype=numpy.float32))
    ids, scores = join_hits(base, added, n=3, empty_score=0.0)
    assert ids.tolist() == [[4, 10]] and scores.tolist() == [pytest.approx([0.3, 0.1])]


def test_an_index_with_added_vectors_finds_them_exactly_and_keeps_its_own_hits():
    vectors, extra, queries = unit_rows(40, 8, 0), unit_rows(3, 8, 1), unit_rows(6, 8, 2)
    index = AnnoyNameIndex.build(vectors, n_trees=10, n_jobs=1)
    grown = index.with_added(extra)
    assert (index.n_items, grown.n_items, grown.n_built) == (40, 43, 40) and index.added is None
    ids, sims = grown.query(queries, 5)
    base_ids, base_sims = index.query(queries, 5)
    everything = numpy.concatenate([vectors, extra])
    for row in range(len(queries)):
        found = ids[row][ids[row] >= 0]
        assert set(base_ids[row].tolist()) <= set(found.tolist())  # every built hit is still there
        best = numpy.argsort(-(everything @ queries[row]), kind="stable")[:5]
        assert set(best.tolist()) <= set(found.tolist())  # and the 5 nearest of all, added ones included
        numpy.testing.assert_allclose(sims[row][ids[row] >= 0], everything[found] @ queries[row], atol=1e-5)
    numpy.testing.assert_array_equal(grown.item_vectors(numpy.array([41, 3])), numpy.stack([extra[1], vectors[3]]))
    numpy.testing.assert_array_equal(grown.item_vector(42), extra[2])
    assert grown.with_added(extra[:1]).n_items == 44
    with pytest.raises(ValueError, match="vectors"):
        index.with_added(numpy.zeros((2, 5), numpy.float32))


def test_an_added_vector_that_matches_a_query_is_its_first_hit():
    vectors, extra = unit_rows(40, 8, 0), unit_rows(2, 8, 3)
    grown = AnnoyNameIndex.build(vectors, n_trees=10, n_jobs=1).with_added(extra)
    ids, sims = grown.query(extra[1:], 3)
    assert ids[0, 0] == 41 and sims[0, 0] == pytest.approx(1.0, abs=1e-5)


def test_a_saved_index_with_added_vectors_holds_the_built_names_only(tmp_path):
    vectors, extra = unit_rows(20, 8, 0), unit_rows(2, 8, 1)
    AnnoyNameIndex.build(vectors, n_trees=4, n_jobs=1).with_added(extra).save(tmp_path / "names.ann")
    assert AnnoyNameIndex.load(tmp_path / "names.ann", dim=8, n_items=20).n_items == 20


@pytest.mark.parametrize("make", [lambda: CharNgramTfidf().fit(NAMES), lambda: NameTokenIndex().fit(NAMES)])
def test_sparse_indexes_score_added_names_with_their_own_vocabulary(make):
    index = make()
    grown = index.with_added_names(ADDED)
    assert (grown.n_names, grown.n_searched, index.added) == (len(NAMES), len(NAMES) + len(ADDED), None)
    queries = grown.transform(QUERIES)
    everything = sp.vstack([index.matrix, index.transform(ADDED)])
    full = (queries @ everything.T).toarray()
    pools = [list(range(len(NAMES) + len(ADDED)))] * len(QUERIES)
    for row, scores in enumerate(grown.score(queries, pools)):
        numpy.testing.assert_allclose(scores, full[row], atol=1e-6)
    ids, _ = grown.search(queries, 3)
    base_ids, _ = index.search(queries, 3)
    for row in range(len(QUERIES)):
        assert set(base_ids[row][base_ids[row] >= 0].tolist()) <= set(ids[row].tolist())
    if isinstance(index, CharNgramTfidf):
        assert ids[0][0] == len(NAMES) + 2  # `PLCg2` is an added name
    else:  # the words no built name has (`plcg2`, `sequestosome`) are not terms of the index: left out
        assert ids[0].tolist() == [-1] * 3 and full[1].max() == 0.0
    assert grown.with_added_names(["IKK"]).n_searched == len(NAMES) + len(ADDED) + 1


def test_the_rare_ngram_search_of_added_names_reads_the_same_ngrams():
    tfidf = CharNgramTfidf().fit(NAMES * 3)  # common n-grams: found in more than max_df of the names
    grown = tfidf.with_added_names(["PLCg2"])
    queries = grown.transform(["PLCg2"])
    ids, scores = grown.search(queries, 2, max_df=0.2)
    assert ids[0][0] == len(NAMES) * 3 and 0 < scores[0][0] < 1.0  # a part of the cosine, as for built names


def test_added_rows_cosines_name_rows_outside_the_block():
    rows = AddedRows(5, sp.csr_matrix(numpy.eye(2, dtype=numpy.float32)))
    queries = sp.csr_matrix(numpy.array([[1, 0], [0.6, 0.8]], dtype=numpy.float32))
    assert rows.cosines(queries, [0, 1, 1], [5, 5, 6]).tolist() == pytest.approx([1.0, 0.6, 0.8])
    with pytest.raises(IndexError):
        rows.cosines(queries, [0], [4])
    with pytest.raises(IndexError):
        AddedVectors(5, numpy.eye(2, dtype=numpy.float32)).vectors_of(numpy.array([7]))


def test_extended_exact_keys_equal_the_keys_built_from_all_names():
    names = NAMES + ADDED
    extended = ExactNameIndex.build(NAMES).extended(names, len(NAMES))
    built = ExactNameIndex.build(names)
    for ours, theirs in ((extended.strict, built.strict), (extended.loose, built.loose)):
        numpy.testing.assert_array_equal(ours[0], theirs[0])
        numpy.testing.assert_array_equal(ours[1], theirs[1])
    assert extended.lookup("hTau") == {len(NAMES) + 1: 2} and extended.strict_rows("Tau") == []
    assert extended.strict_rows("hTau") == [len(NAMES) + 1]
    with pytest.raises(ValueError, match="holds 7 names"):
        ExactNameIndex.build(NAMES).extended(names, 3)
