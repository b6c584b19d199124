import numpy
import pytest

from spacy_nseen.linker.nil_metrics import at_threshold, average_precision, balanced_threshold, roc_auc


def test_roc_auc_by_hand():
    # right links 0.9, 0.4; wrong 0.5, 0.1: of the 4 (right, wrong) pairs, 3 are ordered right
    assert roc_auc(numpy.array([0.9, 0.4, 0.5, 0.1]), numpy.array([1, 1, 0, 0])) == pytest.approx(0.75)
    assert roc_auc(numpy.array([0.5, 0.5]), numpy.array([1, 0])) == pytest.approx(0.5)  # a tie counts half
    assert roc_auc(numpy.array([0.3]), numpy.array([1])) == 0.5  # one class only


def test_average_precision_by_hand():
    # ranked: right (P 1/1), wrong, right (P 2/3): mean 5/6
    assert average_precision(numpy.array([0.9, 0.5, 0.4]), numpy.array([1, 0, 1])) == pytest.approx(5 / 6)
    assert average_precision(numpy.array([0.9]), numpy.array([0])) == 0.0


def test_figures_at_a_threshold_and_the_balanced_one():
    scores, labels = numpy.array([0.9, 0.8, 0.3, 0.2, 0.6]), numpy.array([1, 1, 0, 0, 0])
    assert at_threshold(scores, labels, 0.5) == {"threshold": 0.5, "precision": round(2 / 3, 4), "recall": 1.0,
                                                 "nil_recall": round(2 / 3, 4)}
    threshold = balanced_threshold(scores, labels)
    assert 0.6 < threshold <= 0.8  # keeps both right links, leaves all wrong ones unlinked
