"""training.ner.glued_name_rules: (prefix, suffix) pairs learned from the gold spans inside training tokens."""
import json
from pathlib import Path

import pytest
import spacy
import typer
from spacy.tokens import DocBin
from typer.testing import CliRunner

from training.ner.glued_name_rules import count_affixes, gold_tokens, main, select_rules, splits

NAMES = {"tau", "atg5", "ta", "htert"}


def test_splits_are_the_listed_names_strictly_inside() -> None:
    assert sorted(splits("hTau", NAMES)) == [(1, 3), (1, 4)]
    assert list(splits("Tau", NAMES)) == [(0, 2)]  # the whole token is never a split


def test_outcomes_per_pair_and_listed_tokens_skipped() -> None:
    tokens = [("hTau", "inner", (1, 4), "A"), ("hTau", "inner", (1, 4), "B"), ("hTau", "whole", (0, 0), "B"),
              ("Atg5F", "inner", (0, 4), "A"), ("hTERT", "whole", (0, 0), "A")]
    counts = count_affixes(tokens, NAMES)
    assert counts[("h", "")].outcomes == {"right": 2, "breaks": 1}
    assert counts[("h", "")].right_documents == {"A", "B"}
    assert counts[("h", "u")].outcomes == {"wrong": 2, "breaks": 1}  # `Ta` of `hTau`
    assert counts[("h", "u")].right_documents == set()
    assert counts[("", "F")].outcomes == {"right": 1}
    assert not any(prefix == "hT" for prefix, _ in counts)  # `hTERT` is itself listed: no split counted


def test_rules_kept_by_count_and_precision_most_precise_first() -> None:
    counts = count_affixes([("hTau", "inner", (1, 4), d) for d in "ABC"] + [("hTau", "whole", (0, 0), "A")]
                           + [("Atg5F", "inner", (0, 4), "A")] * 3, NAMES)
    rules = select_rules(counts, min_right=3, min_precision=0.7)
    assert [(r["prefix"], r["suffix"], r["precision"], r["documents"]) for r in rules] == [("", "F", 1.0, 1),
                                                                                         ("h", "", 0.75, 3)]
    assert select_rules(counts, min_right=4, min_precision=0.5) == []
    # `F` was right in one article only: that article's notation, not a rule
    assert [(r["prefix"], r["suffix"]) for r in select_rules(counts, 3, 0.7, min_documents=2)] == [("h", "")]


def test_gold_tokens_of_a_training_doc_and_the_command(tmp_path: Path) -> None:
    nlp = spacy.blank("en")
    doc = nlp.make_doc("hTau and Tau bind Atg5F")
    doc.user_data["mentions"] = [(1, 4, "protein"), (9, 12, "protein"), (18, 22, "gene"), (0, 4, "organism")]
    doc.user_data["pmc_id"] = "PMC1"
    assert list(gold_tokens([doc])) == [("hTau", "inner", (1, 4), "PMC1"), ("Tau", "whole", (0, 0), "PMC1"),
                                        ("Atg5F", "inner", (0, 4), "PMC1")]
    docs = [doc, doc.copy(), doc.copy()]
    docs[1].user_data.update(pmc_id="PMC2", mentions=doc.user_data["mentions"])
    docs[2].user_data.update(pmc_id="PMC2", mentions=doc.user_data["mentions"])
    DocBin(docs=docs, store_user_data=True).to_disk(tmp_path / "train.spacy")
    (tmp_path / "names.txt").write_text("Tau\nAtg5\n", encoding="utf8")
    app = typer.Typer()
    app.command()(main)
    result = CliRunner().invoke(app, [str(tmp_path / "train.spacy"), str(tmp_path / "names.txt"),
                                      str(tmp_path / "rules.json")])
    assert result.exit_code == 0, result.output
    rules = json.loads((tmp_path / "rules.json").read_text(encoding="utf8"))["rules"]
    assert [(r["prefix"], r["suffix"], r["right"]) for r in rules] == [("", "F", 3), ("h", "", 3)]
    assert all(r["documents"] == 2 for r in rules)
    result = CliRunner().invoke(app, [str(tmp_path / "train.spacy"), str(tmp_path / "names.txt"),
                                      str(tmp_path / "rules3.json"), "--min-documents", "3"])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "rules3.json").read_text(encoding="utf8"))["rules"] == []


def test_docs_without_an_article_id_are_refused() -> None:
    doc = spacy.blank("en").make_doc("hTau")
    doc.user_data["mentions"] = [(1, 4, "protein")]
    with pytest.raises(ValueError, match="pmc_id"):
        list(gold_tokens([doc]))
