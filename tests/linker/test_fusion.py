"""The fusion of signals: one protocol, one weighted score."""
import numpy
import pytest

from spacy_nseen.linker.fusion import Fusion
from spacy_nseen.linker.kb_linker import LinkerSettings
from spacy_nseen.linker.signals import SCORING_SIGNALS, Decision, Queries, Signal
from spacy_nseen.linker.signals.char_tfidf import CharTfidfSignal
from spacy_nseen.linker.signals.fuzzy import FuzzySignal
from spacy_nseen.linker.signals.word_tfidf import WordTfidfSignal

MENTIONS = ["FOXP2", "FOX-P2", "hras", "PLCG2", "IKK-beta", "p53", "Forkhead box protein", "PLC gamma"]
TUNED = dict(cache_size=0, sparse_max_df=0.3, fuzzy_weight=0.2, sparse_weight=0.4, token_weight=0.1)


def test_the_scoring_signals_follow_the_protocol_in_the_order_of_the_weighted_sum(toy_linker):
    assert [cls.weight_setting for cls in SCORING_SIGNALS] == ["token_weight", "sparse_weight", "fuzzy_weight"]
    fusion = Fusion(toy_linker.with_settings(LinkerSettings(**TUNED)), LinkerSettings(**TUNED), "hybrid")
    assert [type(w.signal) for w in fusion.signals] == [WordTfidfSignal, CharTfidfSignal, FuzzySignal]
    assert [w.weight for w in fusion.signals] == [0.1, 0.4, 0.2]
    assert fusion.dense_weight == pytest.approx(0.3)
    for signal in [w.signal for w in fusion.signals] + [fusion.dense, fusion.exact, fusion.organism]:
        assert isinstance(signal, Signal), signal
    # a weight of 0 or dense mode leaves a signal out
    assert [type(w.signal) for w in Fusion(toy_linker, LinkerSettings(token_weight=0.0), "hybrid").signals] == [CharTfidfSignal]
    dense = Fusion(toy_linker, LinkerSettings(**TUNED), "dense")
    assert dense.signals == [] and dense.dense_weight == 1.0 and dense.exact is None


def test_the_fused_score_is_the_weighted_sum_of_the_signals(toy_linker):
    settings = LinkerSettings(**TUNED, exact_short_cut=False)
    fusion = Fusion(toy_linker, settings, "hybrid")
    queries = Queries(MENTIONS, MENTIONS, [None] * len(MENTIONS))
    fusion.exact.match(queries, fusion.organism.allowed_rows)
    pools = fusion.dense.candidates(queries, list(range(len(MENTIONS))), 10)
    fused = fusion.fused_scores(queries, pools)
    dense = fusion.dense.scores(queries, pools)
    parts = {type(w.signal): w.signal.scores(queries, pools) for w in fusion.signals}
    for row in range(len(MENTIONS)):
        expected = 0.3 * dense[row] + 0.1 * parts[WordTfidfSignal][row] + 0.4 * parts[CharTfidfSignal][row] + 0.2 * parts[FuzzySignal][row]
        numpy.testing.assert_allclose(fused[row], expected, rtol=1e-6, atol=1e-6)


def test_a_new_scoring_signal_joins_the_fusion_by_its_module_and_weight(toy_linker, monkeypatch):
    """What adding a signal takes: a class with the protocol and a weight setting (here fuzzy_weight's, standing
    for a new field), registered in its own module; the fusion, the fill and the linker are unchanged."""

    class ConstantSignal:
        name, weight_setting, pool_order = "constant", "fuzzy_weight", 3

        @classmethod
        def from_linker(cls, linker, settings, mode):
            return cls() if mode == "hybrid" and settings.fuzzy_weight > 0 else None

        def candidates(self, queries, rows, n):
            return None

        def scores(self, queries, pools):
            return [numpy.full(len(pool), 0.5, dtype=numpy.float32) for pool in pools]

    settings = LinkerSettings(cache_size=0, fuzzy_weight=0.2, exact_short_cut=False)
    monkeypatch.setattr("spacy_nseen.linker.fusion.SCORING_SIGNALS",
                        [cls for cls in SCORING_SIGNALS if cls is not FuzzySignal] + [ConstantSignal])
    fusion = Fusion(toy_linker, settings, "hybrid")
    assert [type(w.signal) for w in fusion.signals] == [WordTfidfSignal, CharTfidfSignal, ConstantSignal]
    queries = Queries(MENTIONS, MENTIONS, [None] * len(MENTIONS))
    pools = fusion.dense.candidates(queries, list(range(len(MENTIONS))), 10)
    fused = fusion.fused_scores(queries, pools)
    dense = fusion.dense.scores(queries, pools)
    word, char = (w.signal.scores(queries, pools) for w in fusion.signals[:2])
    for row in range(len(MENTIONS)):
        numpy.testing.assert_allclose(fused[row], 0.3 * dense[row] + 0.45 * word[row] + 0.05 * char[row] + 0.2 * 0.5, rtol=1e-6, atol=1e-6)
    assert len(toy_linker.with_settings(settings).link(MENTIONS, top_k=3)) == len(MENTIONS)  # the linker links with it


def test_a_new_decision_stage_joins_the_fusion_by_its_module_and_setting(toy_linker, monkeypatch):
    """The NIL stage's protocol: a class with `name`, `setting` (here nil_decision's, standing for a new field),
    `from_linker` and `probabilities`, registered in its own module; the fusion's verdicts, the linker's
    `link_probabilities` and the component read it without an edit."""

    class ConstantDecision:
        name, setting = "constant", "nil_decision"

        @classmethod
        def from_linker(cls, linker, settings, mode):
            return cls() if settings.nil_decision else None

        def probabilities(self, queries, results):
            return numpy.asarray([0.25 if c else 0.0 for c in results])

    monkeypatch.setattr("spacy_nseen.linker.fusion.DECISIONS", [ConstantDecision])
    settings = LinkerSettings(cache_size=0)
    fusion = Fusion(toy_linker, settings, "hybrid")
    assert isinstance(fusion.decision, ConstantDecision) and isinstance(fusion.decision, Decision)
    linker = toy_linker.with_settings(settings)
    results = linker.link(MENTIONS, top_k=3)
    assert linker.link_probabilities(MENTIONS, results).tolist() == [0.25] * len(MENTIONS)
    assert [v.keep for v in linker.verdicts(MENTIONS, results, None, 0.2)] == [True] * len(MENTIONS)
    assert [v.keep for v in linker.verdicts(MENTIONS, results, None, 0.3)] == [False] * len(MENTIONS)
    assert {v.score for v in linker.verdicts(MENTIONS, results, None, 0.3)} == {0.25}
    # its setting off: no decision stage, the best candidate's score decides
    off = toy_linker.with_settings(LinkerSettings(cache_size=0, nil_decision=False))
    assert off.fusion().decision is None and off.link_probabilities(MENTIONS, results) is None
    assert [v.score for v in off.verdicts(MENTIONS, results, None, 0.0)] == [c[0].score for c in results]


def test_pool_names_are_read_once_per_batch_and_shared():
    from spacy_nseen.linker.signals.base import pool_names

    class CountingNames(list):
        reads = 0

        def __getitem__(self, i):
            CountingNames.reads += 1
            return list.__getitem__(self, i)

    names = CountingNames(["a", "b", "c", "d"])
    queries = Queries(["x", "y"], ["x", "y"], [None, None])
    assert pool_names(queries, names, [[0, 2], [2, 3]]) == {0: "a", 2: "c", 3: "d"}
    assert CountingNames.reads == 3
    assert pool_names(queries, names, [[3, 1]])[1] == "b" and CountingNames.reads == 4  # only the new row
