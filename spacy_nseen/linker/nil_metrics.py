"""How well a NIL decision separates right links from wrong ones: ROC AUC, average precision, the figures at a
threshold, and the threshold that keeps the most of both (CoSiNES treats "no entity fits" as a decision with its
own ROC curve). numpy only."""

from typing import Dict

import numpy


def roc_auc(scores: numpy.ndarray, labels: numpy.ndarray) -> float:
    """The area under the ROC curve: the chance that a right link scores above a wrong one (ties count half).

    scores (numpy.ndarray): per example, the probability that its link is right.
    labels (numpy.ndarray): per example, 1 when its link is right.
    RETURNS (float): the AUC; 0.5 (no information) when either class is empty.
    """
    s = numpy.asarray(scores, dtype=numpy.float64)
    y = numpy.asarray(labels) > 0
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    if not n_pos or not n_neg:
        return 0.5
    order = numpy.argsort(s, kind="mergesort")
    ranks = numpy.empty(len(s))
    sorted_s = s[order]
    # average ranks over ties (1-based)
    starts = numpy.r_[0, numpy.flatnonzero(numpy.diff(sorted_s)) + 1]
    ends = numpy.r_[starts[1:], len(s)]
    for start, end in zip(starts, ends):
        ranks[order[start:end]] = (start + end + 1) / 2.0
    return float((ranks[y].sum() - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg))


def average_precision(scores: numpy.ndarray, labels: numpy.ndarray) -> float:
    """The area under the precision-recall curve of the right links (mean precision at each right link).

    RETURNS (float): the average precision; 0 when there is no right link.
    """
    s = numpy.asarray(scores, dtype=numpy.float64)
    y = numpy.asarray(labels) > 0
    if not y.any():
        return 0.0
    order = numpy.argsort(-s, kind="mergesort")
    hits = y[order]
    precision = numpy.cumsum(hits) / numpy.arange(1, len(hits) + 1)
    return float(precision[hits].mean())


def at_threshold(scores: numpy.ndarray, labels: numpy.ndarray, threshold: float) -> Dict[str, float]:
    """RETURNS (Dict[str, float]): precision and recall of the links kept at `threshold`, and the share of wrong
    links left unlinked (`nil_recall`)."""
    kept = numpy.asarray(scores, dtype=numpy.float64) >= threshold
    y = numpy.asarray(labels) > 0
    right = int((kept & y).sum())
    return {
        "threshold": float(threshold),
        "precision": round(right / max(1, int(kept.sum())), 4),
        "recall": round(right / max(1, int(y.sum())), 4),
        "nil_recall": round(int((~kept & ~y).sum()) / max(1, int((~y).sum())), 4),
    }


def balanced_threshold(scores: numpy.ndarray, labels: numpy.ndarray, step: float = 0.01) -> float:
    """The threshold (on a grid of `step`) with the best balanced accuracy, mean of the recall of right links and
    the share of wrong ones left unlinked; among equals, the middle one.

    RETURNS (float): the threshold, in (0, 1).
    """
    grid = numpy.round(numpy.arange(step, 1.0, step), 6)
    balanced = [(lambda q: q["recall"] + q["nil_recall"])(at_threshold(scores, labels, t)) for t in grid]
    best = max(balanced)
    ties = [t for t, b in zip(grid, balanced) if b >= best - 1e-9]
    return float(ties[len(ties) // 2])
