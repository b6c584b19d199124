import math

import numpy
import pytest

from spacy_nseen.synonyms.combination import ScoreCombiner, fit_logistic, logistic


def test_fit_logistic_separates_and_orders() -> None:
    rng = numpy.random.default_rng(0)
    x = rng.normal(size=(400, 1))
    y = (x[:, 0] + 0.3 * rng.normal(size=400) > 0).astype(int)
    weights = fit_logistic(x, y)
    assert weights[1] > 1.0
    assert logistic(weights, [2.0]) > 0.9 > 0.1 > logistic(weights, [-2.0])


def test_combiner_uses_the_string_only_regression_without_context() -> None:
    string = numpy.array([0.9, 0.8, 0.3, 0.2, 0.85, 0.25])
    context = numpy.array([0.9, numpy.nan, 0.1, numpy.nan, 0.2, 0.95])
    labels = numpy.array([1, 1, 0, 0, 1, 0])
    combiner = ScoreCombiner.fit(string, context, labels)
    assert combiner.probability(0.9, math.nan) == pytest.approx(logistic(combiner.string_only, [0.9]))
    back = ScoreCombiner.from_json(combiner.to_json())
    assert back.probabilities(string, context) == pytest.approx(combiner.probabilities(string, context))
