import random

import numpy

from spacy_nseen.linker.kb_nil import (
    NEAR_MISSES,
    kb_nil_examples,
    made_up_name,
    train_kb_nil,
    usual_variants,
)
from spacy_nseen.linker.nil_decision import FEATURES
from spacy_nseen.text.normalization import loose_key


def test_usual_variants_keep_the_loose_key():
    for form in usual_variants("HEK-293 T").values():
        assert loose_key(form) == loose_key("HEK-293 T")


def test_near_misses_change_the_name():
    rng = random.Random(0)
    assert NEAR_MISSES["other_number"]("AbLab-010", rng, []) != "AbLab-010"
    assert NEAR_MISSES["other_number"]("HeLa", rng, []) is None  # no number to change
    assert NEAR_MISSES["swapped_part"]("pEF-V5-p53", rng, ["Rab7"]).count("Rab7") == 1
    changed = NEAR_MISSES["changed_letter"]("Jurkat", rng, [])
    assert len(changed) == 6 and changed != "Jurkat"
    assert made_up_name(rng, 8)


def test_examples_are_labelled_by_kind(fresh_toy_linker):
    entities = list(range(fresh_toy_linker.reference_set.n_entities))
    examples = kb_nil_examples(fresh_toy_linker, entities, seed=0, per_entity=2)
    assert examples.features.shape == (len(examples.labels), len(FEATURES))
    kinds = numpy.array([k.split(":")[0] for k in examples.kinds])
    assert set(kinds) >= {"own_name", "held_out", "made_up"}
    for kind in ("held_out", "near_miss", "made_up"):
        assert not examples.labels[kinds == kind].any()  # wrong by construction
    assert examples.labels[kinds == "own_name"].mean() > 0.8  # an own name links to its entity


def test_a_model_fitted_on_the_kb_separates_own_names_from_made_up_ones(fresh_toy_linker):
    model, report = train_kb_nil(fresh_toy_linker, n_entities=100, seed=0)
    assert 0.0 < model.threshold < 1.0 and report["threshold"] == model.threshold
    held = report["held_out"]
    assert held["roc_auc"] > 0.9 and held["recall"] > 0.8 and held["nil_recall"] > 0.8, held
    assert model.info["held_out"] == held
    fresh_toy_linker.nil_model = model
    right, made_up = fresh_toy_linker.link(["foxp2", "Zq7-Kx Lm"], top_k=5)
    p = fresh_toy_linker.link_probabilities(["foxp2", "Zq7-Kx Lm"], [right, made_up])
    assert p[0] >= model.threshold > p[1]
