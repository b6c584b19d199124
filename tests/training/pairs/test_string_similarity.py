import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import JaroWinkler, Levenshtein

from training.pairs.string_similarity import char_ngrams, jaccard3, pairwise_similarity


def test_jaccard3_by_hand():
    # "ab" padded "  ab  " -> {"  a", " ab", "ab ", "b  "}; "abc" -> {"  a", " ab", "abc", "bc ", "c  "}
    assert char_ngrams("ab") == {"  a", " ab", "ab ", "b  "}
    assert jaccard3("ab", "abc") == pytest.approx(2 / 7)
    assert jaccard3("", "") == 1.0
    assert jaccard3("x", "y") == 0.0


def test_labels_equal_rapidfuzz():
    left = ["FOX P2", "FOX-P2", "Ras", "Ras", "PLCγ2"]
    right = ["FOXP2", "FOXP2", "RAS", "ras", "PLC-gamma-2"]
    lev = pairwise_similarity("levenshtein", left, right)
    jw = pairwise_similarity("jaro_winkler", left, right)
    jac = pairwise_similarity("jaccard3", left, right)
    for i, (a, b) in enumerate(zip(left, right)):
        assert lev[i] == pytest.approx(Levenshtein.normalized_similarity(a, b), abs=1e-6)
        assert jw[i] == pytest.approx(JaroWinkler.normalized_similarity(a, b), abs=1e-6)
        assert jac[i] == pytest.approx(jaccard3(a, b), abs=1e-6)
    assert lev.dtype == np.float32


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.text(max_size=12), st.text(max_size=12)), min_size=1, max_size=8))
def test_labels_in_unit_interval(pairs):
    left, right = [a for a, _ in pairs], [b for _, b in pairs]
    for measure in ("jaccard3", "levenshtein", "jaro_winkler"):
        values = pairwise_similarity(measure, left, right)
        assert values.shape == (len(pairs),)
        assert np.all((values >= 0) & (values <= 1))
        for a, b, v in zip(left, right, values):
            if a == b:
                assert v == pytest.approx(1.0)


def test_bad_arguments():
    with pytest.raises(ValueError):
        pairwise_similarity("cosine", ["a"], ["b"])
    with pytest.raises(ValueError):
        pairwise_similarity("levenshtein", ["a"], [])
