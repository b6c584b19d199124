"""The workflow's encoder trainer on the toy reference set: rounds under a step budget, reproducible, resumable."""
import inspect
import json
from pathlib import Path
from typing import Any, Dict

import numpy

from spacy_nseen.cli.train_encoder import train_encoder as train_encoder_command
from spacy_nseen.encoder.layer import encoder_defaults
from spacy_nseen.encoder_training.siamese import reference_pairs
from spacy_nseen.reference.reference_set import ReferenceSet
from training.encoder.train_encoder import train
from training.pairs.pair_store import PairStore

REFERENCE = Path(__file__).parents[2] / "fixtures" / "toy_reference.tsv"
SETTINGS: Dict[str, Any] = dict(
    kb_name="", vocab_size=160, char_width=8, hidden_width=12, depth=1, output_width=16, pooling="max", max_length=32,
    char_normalization="fold", dropout=0.0, batch_pairs=16, in_batch_weight=1.0, in_batch_loss="infonce",
    temperature=0.05, learning_rate=2e-3, rounds=3, epochs_per_round=5.0, max_steps=30, max_minutes=0.0,
    hard_neighbors=3, set_weights="semantic=1,hard_negative=1", n_dev=3, n_trees=2, build_precision="fp32", threads=1,
    seed=0, resume=False, short_forms=False)
SHAPE = ("vocab_size", "char_width", "hidden_width", "depth", "output_width", "pooling", "max_length", "dropout")


def pair_store(path: Path) -> Path:
    reference = ReferenceSet.from_tsv(REFERENCE)
    store = PairStore(list(reference.names), reference.name_entity.tolist(), list(reference.kb_ids), seed=0)
    left, right, label = reference_pairs(numpy.asarray(reference.name_entity), seed=0)
    store.append(left[label == 1], right[label == 1], 1.0, "semantic_positive")
    store.append(left[label == 0], right[label == 0], 0.0, "semantic_negative")
    store.save(path)
    return path


def test_rounds_share_the_step_budget_and_the_same_seed_gives_the_same_encoder(tmp_path: Path):
    pairs = pair_store(tmp_path / "pairs.npz")
    for run in ("a", "b"):
        train(pairs, REFERENCE, tmp_path / run, **SETTINGS)
    log = [json.loads(line) for line in (tmp_path / "a" / "log.jsonl").read_text().splitlines()]
    assert [(r["steps"], r["step_budget"]) for r in log] == [(12, 12), (9, 9), (9, 9)]
    assert [r["hard_negatives_added"] > 0 for r in log] == [True, True, False]
    weights = [(tmp_path / run / "encoder" / "encoder.safetensors").read_bytes() for run in ("a", "b")]
    assert weights[0] == weights[1]
    summary = json.loads((tmp_path / "a" / "training_summary.json").read_text())
    assert summary["steps"] == 30 and not summary["cut_short_by_time_guard"]
    # a finished run resumed trains no further round
    train(pairs, REFERENCE, tmp_path / "a", **{**SETTINGS, "resume": True})
    assert len((tmp_path / "a" / "log.jsonl").read_text().splitlines()) == 3
    assert (tmp_path / "a" / "encoder" / "encoder.safetensors").read_bytes() == weights[0]


def test_both_trainers_take_the_shape_defaults_of_the_architecture():
    defaults = encoder_defaults()
    for command in (train, train_encoder_command):
        options = inspect.signature(command).parameters
        for name in SHAPE:
            if name in options:
                assert options[name].default.default == defaults[name], (command.__module__, name)
