"""training.ner.compare_ner: even, odd and all (summed counts) of NER runs in one table."""
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from training.ner.compare_ner import run_scores

CHEM = {"tp": 3, "pred": 4, "gold": 6}


def write_half(path: Path, tp: int, pred: int, gold: int, organism_consistent: bool = True) -> None:
    score = {"tp": tp, "pred": pred, "gold": gold, "p": 0, "r": 0, "f": 0}
    metrics = {"views": {"bioid": {"all": score, "uniprot": score, "CHEMICAL": {**score, **CHEM}, "ORGANISM": score}}}
    if organism_consistent:
        metrics["organism_consistent"] = {**score, "gold": gold * 2}
    path.mkdir(parents=True)
    (path / "metrics.json").write_text(json.dumps(metrics), encoding="utf8")


def test_all_is_computed_from_the_summed_counts(tmp_path: Path) -> None:
    write_half(tmp_path / "even", 5, 10, 10)
    write_half(tmp_path / "odd", 1, 10, 2, organism_consistent=False)
    scores = run_scores(tmp_path)
    assert scores["even"]["ner_f"] == 0.5 and scores["odd"]["ner_organism_recall"] == 0.5
    assert scores["all"]["ner_f"] == pytest.approx(round(2 * 0.3 * 0.5 / 0.8, 4))
    assert scores["odd"]["ner_organism_recall_consistent"] == 0.0
    assert scores["all"]["ner_organism_recall_consistent"] == 0.25  # 5 of 20
    assert scores["all"]["ner_chemical_f"] == 0.6


def test_a_missing_half_names_the_command_to_run(tmp_path: Path) -> None:
    write_half(tmp_path / "even", 1, 1, 1)
    with pytest.raises(FileNotFoundError, match="--documents odd"):
        run_scores(tmp_path)


def test_the_command_writes_the_table(tmp_path: Path) -> None:
    import typer

    from training.ner.compare_ner import main

    for half in ("even", "odd"):
        write_half(tmp_path / "a" / half, 1, 2, 2)
    (tmp_path / "a" / "speed.json").write_text(json.dumps({"captions_per_s": 150.5, "peak_rss_mb": 300}), "utf8")
    app = typer.Typer()
    app.command()(main)
    result = CliRunner().invoke(app, ["--run", f"a={tmp_path / 'a'}", "--output", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    table = (tmp_path / "out" / "table.md").read_text(encoding="utf8")
    assert "| a | 0.500 / 0.500 / 0.500 |" in table and "150.5" in table
    assert json.loads((tmp_path / "out" / "table.json").read_text(encoding="utf8"))["runs"]["a"]["speed"]["peak_rss_mb"] == 300
