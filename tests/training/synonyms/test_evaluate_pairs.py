import numpy
import pytest

from spacy_nseen.synonyms.combination import ScoreCombiner
from training.synonyms.evaluate_pairs import evaluate, mean_average_precision


def test_map_is_the_mean_of_each_anchors_average_precision() -> None:
    anchors = ["a", "a", "a", "b", "b"]
    scores = numpy.array([0.9, 0.5, 0.7, 0.2, 0.8])
    labels = numpy.array([1, 1, 0, 1, 0])
    # a: ranking 1, 0, 1 -> AP = (1 + 2/3) / 2; b: ranking 0, 1 -> AP = 1/2
    assert mean_average_precision(anchors, scores, labels) == pytest.approx(((1 + 2 / 3) / 2 + 0.5) / 2)


def test_evaluate_reports_each_system_and_negative_kind() -> None:
    pairs = [
        {"a": "x", "b": "y", "label": 1, "kind": "positive", "string_score": 0.9},
        {"a": "x", "b": "z", "label": 0, "kind": "random", "string_score": 0.1},
        {"a": "x", "b": "w", "label": 0, "kind": "string_similar", "string_score": 0.95},
    ]
    result = evaluate(pairs, numpy.array([0.8, 0.2, 0.1]), ScoreCombiner([0.0, 1.0, 10.0], [0.0, 1.0]))
    assert result["random"]["string_only"]["auc"] == 1.0
    assert result["string_similar"]["string_only"]["auc"] == 0.0
    assert result["string_similar"]["context_only"]["auc"] == 1.0
    assert result["all"]["combined"]["auc"] == 1.0 and result["all"]["combined"]["positives"] == 1
