"""`training.tuning.tune_nil`: the threshold is chosen on the probabilities as the linker decides on them."""
import numpy

from spacy_nseen.linker.nil_decision import FEATURES, NilModel, mention_features
from spacy_nseen.linker.settings import LinkerSettings
from training.tuning.tune_nil import decided_probabilities, link_prf


def test_a_tag_name_counts_as_unlinked_where_the_linker_never_links_one():
    features = numpy.vstack([mention_features(m, []) for m in ("HA", "LC3", "3xFlag")])
    model = NilModel([0.0] * len(FEATURES))  # p = 0.5 everywhere
    assert decided_probabilities(model, LinkerSettings(), features).tolist() == [0.5, 0.5, 0.5]
    assert decided_probabilities(model, LinkerSettings(link_tag_names=False), features).tolist() == [0.0, 0.5, 0.0]
    vetoed = numpy.array([False, True, False])  # `Fusion.case_vetoed` of each row's link
    assert decided_probabilities(model, LinkerSettings(), features, vetoed).tolist() == [0.5, 0.0, 0.5]


def test_link_prf_counts_right_links_among_the_linked():
    data = {"label": numpy.array([1, 0, 1, 0]), "normalized": numpy.array([1, 1, 1, 0]), "nil": numpy.array([0, 0, 0, 1])}
    q = link_prf(numpy.array([0.9, 0.8, 0.1, 0.05]), data, 0.5)
    assert (q["right"], q["linked"], q["gold"]) == (1, 2, 3) and q["p"] == 0.5 and q["r"] == round(1 / 3, 4)
    assert q["nil_unlinked_share"] == 1.0
