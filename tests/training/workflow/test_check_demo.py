import json

import pytest
import typer

from training.common.data_errors import DataFileError
from training.workflow.check_demo import check_demo, compare

FIGURES = {"pipeline/metrics.json:end_to_end.all.f": {"value": 0.5, "tolerance": 0.01},
           "pipeline/metrics.json:ner_only.ents_f": {"value": 0.7, "tolerance": 0.0}}


def write_results(root, f, ents_f):
    (root / "pipeline").mkdir(parents=True, exist_ok=True)
    (root / "pipeline" / "metrics.json").write_text(json.dumps({"end_to_end": {"all": {"f": f}}, "ner_only": {"ents_f": ents_f}}))


def test_figures_within_their_tolerance_reproduce(tmp_path, capsys):
    write_results(tmp_path, 0.509, 0.7)
    assert [row[4] for row in compare(FIGURES, tmp_path)] == [True, True]
    write_results(tmp_path, 0.52, 0.7001)
    assert [row[4] for row in compare(FIGURES, tmp_path)] == [False, False]


def test_the_check_prints_its_verdict_and_fails_only_when_strict(tmp_path, capsys):
    expected = tmp_path / "expected.json"
    expected.write_text(json.dumps({"note": "n", "figures": FIGURES}))
    write_results(tmp_path / "run", 0.6, 0.7)
    check_demo(expected, tmp_path / "run", strict=False, write=False)
    assert "NOT REPRODUCED: 1 of 2" in capsys.readouterr().out
    with pytest.raises(typer.Exit):
        check_demo(expected, tmp_path / "run", strict=True, write=False)
    check_demo(expected, tmp_path / "run", strict=False, write=True)
    check_demo(expected, tmp_path / "run", strict=True, write=False)
    assert capsys.readouterr().out.splitlines()[-1].startswith("REPRODUCED: all 2 figures")


def test_a_missing_result_file_is_named(tmp_path):
    with pytest.raises(DataFileError, match="demo result file not found"):
        compare(FIGURES, tmp_path)
