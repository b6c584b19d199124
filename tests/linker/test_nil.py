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
    assert [cls.__name__ for cls in DECISIONS] == ["NilDecision"]
    assert isinstance(fusion.decision, NilDecision) and isinstance(fusion.decision, Decision)
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


def test_a_tag_name_is_a_feature_of_the_decision():
    index = FEATURES.index("tag_name")
    assert mention_features("HA", [])[index] == 1.0 and mention_features("3xFlag", [])[index] == 1.0
    assert mention_features("HAX1", [])[index] == 0.0 and mention_features("MYC", [])[index] == 0.0


def test_a_nil_model_of_another_version_names_the_file_and_a_linker_loads_without_it(linker_dirs, tmp_path):
    import json
    import shutil

    import pytest

    from spacy_nseen.errors import ArtifactError
    from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
    from spacy_nseen.linker.nil_decision import NIL_MODEL_FILE

    directory = tmp_path / "linker"
    shutil.copytree(linker_dirs["uniprot"], directory)
    NilModel([0.0] * len(FEATURES)).to_disk(directory / NIL_MODEL_FILE)
    data = json.loads((directory / NIL_MODEL_FILE).read_text())
    data["version"], data["features"] = 1, data["features"][:-1]  # as written before the tag-name feature
    data["weights"] = data["weights"][:-1]
    (directory / NIL_MODEL_FILE).write_text(json.dumps(data))
    with pytest.raises(ArtifactError, match="train_nil") as err:
        KnowledgeBaseLinker.from_disk(directory)
    assert str(directory / NIL_MODEL_FILE) in str(err.value)
    linker = KnowledgeBaseLinker.from_disk(directory, with_nil_model=False)  # how train_nil replaces it
    assert linker.nil_model is None and linker.link(["FOXP2"], top_k=1)[0]


HEAD_ACTIVATOR = [("UniProt:P69208", "Morphogenetic neuropeptide", "recommended"), ("UniProt:P69208", "HA", "alternative"),
                  ("UniProt:P01106", "Myc proto-oncogene protein", "recommended"), ("UniProt:P01106", "MYC", "gene_primary")]


def test_with_link_tag_names_off_a_tag_name_is_never_kept_and_its_candidates_stay(toy_encoder):
    from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
    from spacy_nseen.reference.reference_set import ReferenceSet

    built = KnowledgeBaseLinker.build("uniprot", toy_encoder, ReferenceSet.from_rows(HEAD_ACTIVATOR), n_trees=5, seed=0)
    weights = [0.0] * len(FEATURES)
    weights[FEATURES.index("bias")], weights[FEATURES.index("exact")] = -1.0, 4.0  # an exact match: p = σ(3)
    built.nil_model = NilModel(weights)
    mentions = ["HA", "3xHA", "MYC"]
    on = built.with_settings(LinkerSettings(cache_size=0))
    off = built.with_settings(LinkerSettings(cache_size=0, link_tag_names=False))
    results = on.link(mentions, top_k=2)
    assert results[0][0].kb_id == "UniProt:P69208" and results[2][0].kb_id == "UniProt:P01106"
    kept_on = on.verdicts(mentions, results, None, 0.5)
    kept_off = off.verdicts(mentions, results, None, 0.5)
    assert kept_on[0].keep and kept_on[2].keep
    assert [v.keep for v in kept_off] == [False, False, True]  # `HA` and `3xHA` are tags; `MYC` is the gene
    assert [v.probability for v in kept_off] == [v.probability for v in kept_on]  # the probability stays inspectable
    assert off.link(mentions, top_k=2)[0] == results[0]  # the candidates are the same


SIMPLE = [("UniProt:Q99732", "Lipopolysaccharide-induced tumor necrosis factor-alpha factor", "recommended"),
          ("UniProt:Q99732", "LITAF", "gene_primary"), ("UniProt:Q99732", "SIMPLE", "gene_synonym"),
          ("UniProt:P01308", "Insulin", "recommended"), ("UniProt:P01308", "INS", "gene_primary"),
          ("UniProt:P12931", "SRC", "gene_primary")]


def test_with_link_case_mismatch_off_a_lowercase_word_is_not_kept_for_an_alias_in_capitals(toy_encoder):
    from spacy_nseen.linker.kb_linker import KnowledgeBaseLinker
    from spacy_nseen.reference.reference_set import ReferenceSet

    built = KnowledgeBaseLinker.build("uniprot", toy_encoder, ReferenceSet.from_rows(SIMPLE), n_trees=5, seed=0)
    weights = [0.0] * len(FEATURES)
    weights[FEATURES.index("bias")], weights[FEATURES.index("exact")] = -1.0, 4.0  # an exact match: p = σ(3)
    built.nil_model = NilModel(weights)
    mentions = ["simple", "SIMPLE", "insulin", "src"]
    on = built.with_settings(LinkerSettings(cache_size=0))
    off = built.with_settings(LinkerSettings(cache_size=0, link_case_mismatch=False))
    results = on.link(mentions, top_k=2)
    assert [r[0].kb_id for r in results] == ["UniProt:Q99732", "UniProt:Q99732", "UniProt:P01308", "UniProt:P12931"]
    assert all(v.keep for v in on.verdicts(mentions, results, None, 0.5))
    kept_off = off.verdicts(mentions, results, None, 0.5)
    # `simple` matches only the alias SIMPLE; `SIMPLE` as written, `insulin` (`Insulin`) and `src` (primary) stay
    assert [v.keep for v in kept_off] == [False, True, True, True]
    assert off.fusion().case_vetoed("simple", results[0]) and not off.fusion().case_vetoed("src", results[3])
    assert off.link(mentions, top_k=2)[0] == results[0]  # the candidates are the same


def test_tag_name_rows_are_the_rows_of_the_tag_name_feature():
    from spacy_nseen.linker.nil_decision import tag_name_rows

    rows = numpy.vstack([mention_features(m, []) for m in ("HA", "HAX1", "GFP-tag", "LC3")])
    assert tag_name_rows(rows).tolist() == [True, False, True, False]
