"""The decision's threshold: a number, or null for each linker's NIL model's own."""
from spacy_nseen.linker.kb_linker import LinkerSettings
from spacy_nseen.linker.nil_decision import FEATURES, NilModel
from spacy_nseen.parts.decision import LinkDecision, make_nil_decision


def test_a_null_threshold_is_the_nil_models_own(toy_linker):
    linker = toy_linker.with_settings(LinkerSettings(cache_size=0))
    assert make_nil_decision().threshold is None
    assert make_nil_decision().threshold_for(linker) == 0.0  # no NIL model: every best candidate is kept
    weights = [0.0] * len(FEATURES)
    weights[FEATURES.index("bias")], weights[FEATURES.index("exact")] = -2.0, 4.0  # exact: 0.88, else 0.12
    linker.nil_model = NilModel(weights, threshold=0.5)
    assert make_nil_decision().threshold_for(linker) == 0.5
    assert make_nil_decision(threshold=0.1).threshold_for(linker) == 0.1
    off = linker.with_settings(LinkerSettings(cache_size=0, nil_decision=False))
    assert make_nil_decision().threshold_for(off) == 0.0  # NIL model off: the fused score against 0
    assert LinkDecision().threshold == 0.0  # a user's subclass keeps its old default
    mentions = ["FOXP2", "Zq7-Kx Lm"]
    results = linker.link(mentions, top_k=3)
    verdicts = make_nil_decision().verdicts(linker, mentions, results, [None, None])
    assert [v.keep for v in verdicts] == [True, False]


def test_without_the_nil_model_a_null_threshold_is_zero(toy_linker):
    linker = toy_linker.with_settings(LinkerSettings(cache_size=0))
    linker.nil_model = NilModel([0.0] * len(FEATURES), threshold=0.5)
    assert make_nil_decision(use_nil_model=False).threshold_for(linker) == 0.0
