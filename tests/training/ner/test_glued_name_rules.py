"""training.ner.glued_name_rules: (prefix, suffix) pairs learned from the gold spans inside training tokens."""
import json
from pathlib import Path

import spacy
from spacy.tokens import DocBin
from typer.testing import CliRunner
import typer

from training.ner.glued_name_rules import count_affixes, gold_tokens, main, select_rules, splits

NAMES = {"tau", "atg5", "ta", "htert"}


def test_splits_are_the_listed_names_strictly_inside() -> None:
    assert sorted(splits("hTau", NAMES)) == [(1, 3), (1, 4)]
    assert list(splits("Tau", NAMES)) == [(0, 2)]  # the whole token is never a split


def test_outcomes_per_pair_and_listed_tokens_skipped() -> None:
    tokens = [("hTau", "inner", (1, 4)), ("hTau", "inner", (1, 4)), ("hTau", "whole", (0, 0)),
              ("Atg5F", "inner", (0, 4)), ("hTERT", "whole", (0, 0))]
    counts = count_affixes(tokens, NAMES)
    assert counts[("h", "")] == {"right": 2, "breaks": 1}
    assert counts[("h", "u")] == {"wrong": 2, "breaks": 1}  # `Ta` of `hTau`
    assert counts[("", "F")] == {"right": 1}
    assert not any(prefix == "hT" for prefix, _ in counts)  # `hTERT` is itself listed: no split counted


def test_rules_kept_by_count_and_precision_most_precise_first() -> None:
    counts = count_affixes([("hTau", "inner", (1, 4))] * 3 + [("hTau", "whole", (0, 0))]
                           + [("Atg5F", "inner", (0, 4))] * 3, NAMES)
    rules = select_rules(counts, min_right=3, min_precision=0.7)
    assert [(r["prefix"], r["suffix"], r["precision"]) for r in rules] == [("", "F", 1.0), ("h", "", 0.75)]
    assert select_rules(counts, min_right=4, min_precision=0.5) == []


def test_gold_tokens_of_a_training_doc_and_the_command(tmp_path: Path) -> None:
    nlp = spacy.blank("en")
    doc = nlp.make_doc("hTau and Tau bind Atg5F")
    doc.user_data["mentions"] = [(1, 4, "protein"), (9, 12, "protein"), (18, 22, "gene"), (0, 4, "organism")]
    assert list(gold_tokens([doc])) == [("hTau", "inner", (1, 4)), ("Tau", "whole", (0, 0)),
                                        ("Atg5F", "inner", (0, 4))]
    DocBin(docs=[doc] * 3, store_user_data=True).to_disk(tmp_path / "train.spacy")
    (tmp_path / "names.txt").write_text("Tau\nAtg5\n", encoding="utf8")
    app = typer.Typer()
    app.command()(main)
    result = CliRunner().invoke(app, [str(tmp_path / "train.spacy"), str(tmp_path / "names.txt"),
                                      str(tmp_path / "rules.json")])
    assert result.exit_code == 0, result.output
    rules = json.loads((tmp_path / "rules.json").read_text(encoding="utf8"))["rules"]
    assert [(r["prefix"], r["suffix"], r["right"]) for r in rules] == [("", "F", 3), ("h", "", 3)]
