import numpy
import pytest

from spacy_nseen.retrieval.shared_vectors import VectorRows

INF = numpy.inf


def test_equal_keys_share_a_vector_numbered_by_first_appearance():
    rows, first_rows = VectorRows.from_keys(["a", "b", "a", "c", "b", "a"])
    assert first_rows == [0, 1, 3]
    assert rows.row_vectors.tolist() == [0, 1, 0, 2, 1, 0]
    assert rows.n_rows == 6 and rows.n_vectors == 3 and not rows.is_identity
    assert [rows.rows[rows.indptr[v]:rows.indptr[v + 1]].tolist() for v in range(3)] == [[0, 2, 5], [1, 4], [3]]


def test_distinct_keys_give_the_identity():
    rows, first_rows = VectorRows.from_keys(["x", "y", "z"])
    assert first_rows == [0, 1, 2] and rows.is_identity
    assert VectorRows.identity(3).to_arrays().keys() == rows.to_arrays().keys()
    assert VectorRows.identity(0).n_vectors == 0 and VectorRows.identity(0).is_identity


def test_expand_lists_each_vectors_rows_in_turn_and_keeps_the_first_n():
    rows, _ = VectorRows.from_keys(["a", "b", "a", "c", "b", "a"])
    ids = numpy.array([[1, 0, -1], [2, -1, -1], [-1, -1, -1]])
    sims = numpy.array([[0.9, 0.8, -INF], [0.7, -INF, -INF], [-INF, -INF, -INF]], dtype=numpy.float32)
    out_rows, out_sims = rows.expand(ids, sims, 4)
    assert out_rows.tolist() == [[1, 4, 0, 2], [3, -1, -1, -1], [-1, -1, -1, -1]]
    numpy.testing.assert_array_equal(out_sims, numpy.array([[0.9, 0.9, 0.8, 0.8], [0.7, -INF, -INF, -INF], [-INF] * 4], numpy.float32))
    assert out_rows.dtype == numpy.int64 and out_sims.dtype == numpy.float32
    wide_rows, _ = rows.expand(ids, sims, 7)
    assert wide_rows[0].tolist() == [1, 4, 0, 2, 5, -1, -1]


def test_expand_with_the_identity_changes_nothing_but_the_width():
    ids = numpy.array([[2, 0, 1]])
    sims = numpy.array([[0.5, 0.4, 0.3]], dtype=numpy.float32)
    out_rows, out_sims = VectorRows.identity(3).expand(ids, sims, 2)
    assert out_rows.tolist() == [[2, 0]]
    numpy.testing.assert_array_equal(out_sims, sims[:, :2])


def test_arrays_round_trip_and_are_checked():
    rows, _ = VectorRows.from_keys(["a", "b", "a"])
    again = VectorRows.from_arrays(rows.to_arrays(), n_rows=3, n_vectors=2)
    assert again.row_vectors.tolist() == rows.row_vectors.tolist() and again.rows.tolist() == rows.rows.tolist()
    with pytest.raises(ValueError, match="reference set has 4"):
        VectorRows.from_arrays(rows.to_arrays(), n_rows=4, n_vectors=2)
    with pytest.raises(ValueError, match="index stores 3"):
        VectorRows.from_arrays(rows.to_arrays(), n_rows=3, n_vectors=3)
    with pytest.raises(ValueError, match="missing: rows"):
        VectorRows.from_arrays({k: v for k, v in rows.to_arrays().items() if k != "rows"}, n_rows=3, n_vectors=2)
    broken = dict(rows.to_arrays(), row_vectors=numpy.array([0, 1, 7], dtype=numpy.int32))
    with pytest.raises(ValueError, match="out of range"):
        VectorRows.from_arrays(broken, n_rows=3, n_vectors=2)


def test_best_rows_rank_the_rows_of_ranked_vectors_as_a_search_over_rows_would():
    rng = numpy.random.default_rng(0)
    for _ in range(200):
        n_rows = int(rng.integers(1, 40))
        keys = rng.integers(0, max(1, n_rows // 2), n_rows).tolist()
        rows, _ = VectorRows.from_keys(keys)
        vector_scores = rng.choice(numpy.float32([0.1, 0.5, 0.9]), rows.n_vectors)  # many ties
        row_scores = vector_scores[rows.row_vectors]
        k = int(rng.integers(1, 8))
        # the vectors' own ranking, as a search over vectors gives it: score, then lower vector first
        ranked = numpy.lexsort((numpy.arange(rows.n_vectors), -vector_scores))[:k]
        ids = numpy.full((1, k), -1)
        ids[0, :len(ranked)] = ranked
        sims = numpy.zeros((1, k), numpy.float32)
        sims[0, :len(ranked)] = vector_scores[ranked]
        got_rows, got_scores = rows.best_rows(ids, sims, k)
        expected = numpy.lexsort((numpy.arange(n_rows), -row_scores))[:k]
        assert got_rows[0, :len(expected)].tolist() == expected.tolist()
        assert got_scores[0, :len(expected)].tolist() == row_scores[expected].tolist()
        assert (got_rows[0, len(expected):] == -1).all() and (got_scores[0, len(expected):] == 0).all()


def test_vectors_of_checks_the_rows():
    rows, _ = VectorRows.from_keys(["a", "b", "a"])
    assert rows.vectors_of(numpy.array([2, 1, 0])).tolist() == [0, 1, 0]
    assert rows.sizes.tolist() == [2, 1]
    for bad in ([-1], [3]):
        with pytest.raises(IndexError):
            rows.vectors_of(numpy.array(bad))
