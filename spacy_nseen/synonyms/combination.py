"""The string and context scores as one calibrated probability: two logistic regressions (numpy only).

`with_context` reads (string score, context score); `string_only` reads the string score alone, for a pair where
one side has no context in the corpus. Both are fitted on held-out pairs (the dev entities of the synonym pairs),
so the combined score is also the calibrated probability the review file shows.
"""

import math
from dataclasses import dataclass, field
from typing import Dict, List, Sequence

import numpy


def fit_logistic(features: numpy.ndarray, labels: numpy.ndarray, l2: float = 1e-3, steps: int = 50) -> List[float]:
    """Fit a logistic regression with an intercept by Newton's method.

    features (numpy.ndarray): float (n, k); labels (numpy.ndarray): (n,) 0 or 1.
    RETURNS (List[float]): [intercept, w_1, ..., w_k].
    """
    x = numpy.hstack([numpy.ones((len(features), 1)), numpy.asarray(features, dtype=numpy.float64)])
    y = numpy.asarray(labels, dtype=numpy.float64)
    w = numpy.zeros(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + numpy.exp(-(x @ w)))
        gradient = x.T @ (p - y) + l2 * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + l2 * numpy.eye(len(w))
        step = numpy.linalg.solve(hessian, gradient)
        w -= step
        if float(numpy.abs(step).max()) < 1e-8:
            break
    return [float(v) for v in w]


def logistic(weights: Sequence[float], values: Sequence[float]) -> float:
    """RETURNS (float): the probability of a logistic regression's weights at one example."""
    z = weights[0] + sum(w * v for w, v in zip(weights[1:], values))
    return 1.0 / (1.0 + math.exp(-max(min(z, 50.0), -50.0)))


@dataclass
class ScoreCombiner:
    """Calibrated synonym probability from the string score and (when there is one) the context score.

    with_context (List[float]): [intercept, w_string, w_context].
    string_only (List[float]): [intercept, w_string].
    """

    with_context: List[float] = field(default_factory=lambda: [0.0, 1.0, 1.0])
    string_only: List[float] = field(default_factory=lambda: [0.0, 1.0])

    @classmethod
    def fit(cls, string: numpy.ndarray, context: numpy.ndarray, labels: numpy.ndarray) -> "ScoreCombiner":
        """RETURNS (ScoreCombiner): both regressions fitted on held-out pairs (NaN context rows: string only)."""
        has = ~numpy.isnan(context)
        with_context = fit_logistic(numpy.stack([string[has], context[has]], axis=1), labels[has])
        string_only = fit_logistic(string[:, None], labels)
        return cls(with_context, string_only)

    def probability(self, string: float, context: float) -> float:
        """RETURNS (float): the calibrated probability (the string-only regression when `context` is NaN)."""
        if math.isnan(context):
            return logistic(self.string_only, [string])
        return logistic(self.with_context, [string, context])

    def probabilities(self, string: numpy.ndarray, context: numpy.ndarray) -> numpy.ndarray:
        """RETURNS (numpy.ndarray): float64 probabilities of many pairs."""
        return numpy.array([self.probability(float(s), float(c)) for s, c in zip(string, context)])

    def to_json(self) -> Dict[str, List[float]]:
        return {"with_context": list(self.with_context), "string_only": list(self.string_only)}

    @classmethod
    def from_json(cls, data: Dict[str, List[float]]) -> "ScoreCombiner":
        return cls([float(v) for v in data["with_context"]], [float(v) for v in data["string_only"]])
