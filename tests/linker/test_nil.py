"""The NIL decision stage (`spacy_nseen.linker.signals.nil`): the linker's NilModel on its ranked result."""
import numpy

from spacy_nseen.linker.kb_linker import LinkerSettings
from spacy_nseen.linker.nil_decision import FEATURES, NilModel, mention_features
from spacy_nseen.linker.signals import DECISIONS, Decision
from spacy_nseen.linker.signals.nil import NilDecision, decision_features

MENTIONS = ["FOXP2", "FOX-P2", "hras", "PLCG2", "IKK-beta", "p53", "Forkhead box protein", "PLC gamma"]
def test_the_nil_stage_is_the_nil_model_on_the_features_of_the_ranked_result(toy_linker):
    weights = [0.0] * len(FEATURES)
    weights[FEATURES.index("bias")], weights[FEATURES.index("score")] = -1.0, 3.0
    linker = toy_linker.with_settings(LinkerSettings(cache_size=0))
    linker.nil_model = NilModel(weights, platt_a=0.5, platt_b=0.1)
    fusion = linker.fusion()
    assert [cls.__name__ for cls in DECISIONS] == ["NilDecision"] and isinstance(fusion.decision, NilDecision) and isinstance(fusion.decision, Decision)
    mentions = MENTIONS + [" "]
    results = linker.link(mentions, top_k=3)
    expected = linker.nil_model.probabilities(numpy.vstack([mention_features(m, c) for m, c in zip(mentions, results)]))
    expected[-1] = 0.0  # no candidates: probability 0
    numpy.testing.assert_array_equal(linker.link_probabilities(mentions, results), expected)
    verdicts = linker.verdicts(mentions, results, None, 0.5)
    assert [v.probability for v in verdicts] == [float(p) for p in expected]
    assert [v.keep for v in verdicts] == [bool(c) and p >= 0.5 for c, p in zip(results, expected)]
    assert toy_linker.link_probabilities(MENTIONS, results[:-1]) is None  # the shared linker has no NIL model


def test_the_features_are_those_of_mention_features_and_none_for_no_mention(toy_linker):
    results = toy_linker.link(MENTIONS, top_k=3)
    expected = numpy.vstack([mention_features(m, c) for m, c in zip(MENTIONS, results)])
    numpy.testing.assert_array_equal(decision_features(toy_linker, MENTIONS, results), expected)
    assert decision_features(toy_linker, [], []).shape == (0, len(FEATURES))
