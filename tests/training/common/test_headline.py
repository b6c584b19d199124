import json
from pathlib import Path

import pytest

from training.common.headline import HeadlineError, command_line, read_headline, update_headline


def test_update_creates_and_merges_keys(tmp_path: Path):
    path = tmp_path / "results" / "headline.json"
    update_headline(path, {"e2e_precision": 0.25, "e2e_f": 0.3}, "python -m a x")
    update_headline(path, {"chebi_hits1": 0.7, "e2e_f": 0.31}, "python -m b y")
    data = json.loads(path.read_text())
    assert data == {
        "chebi_hits1": {"value": 0.7, "command": "python -m b y"},
        "e2e_f": {"value": 0.31, "command": "python -m b y"},
        "e2e_precision": {"value": 0.25, "command": "python -m a x"},
    }
    assert not [p for p in path.parent.iterdir() if p.name != "headline.json"]  # no temporary left


def test_keeps_keys_written_as_plain_numbers(tmp_path: Path):
    path = tmp_path / "headline.json"
    path.write_text(json.dumps({"pipeline_peak_rss_mb": 1116}))
    update_headline(path, {"e2e_f": 0.5}, "python -m c")
    assert read_headline(path)["pipeline_peak_rss_mb"] == 1116


@pytest.mark.parametrize("content", ["[1, 2]", "{not json", ""])
def test_bad_file_is_a_clear_error(tmp_path: Path, content: str):
    path = tmp_path / "headline.json"
    path.write_text(content)
    with pytest.raises(HeadlineError, match="headline.json"):
        update_headline(path, {"e2e_f": 0.5}, "python -m c")
    assert path.read_text() == content  # left untouched


@pytest.mark.parametrize("value", [float("nan"), "0.5", True, None])
def test_figures_must_be_finite_numbers(tmp_path: Path, value):
    with pytest.raises(HeadlineError, match="e2e_f"):
        update_headline(tmp_path / "h.json", {"e2e_f": value}, "python -m c")
    assert not (tmp_path / "h.json").exists()


def test_command_is_required_and_rendered(tmp_path: Path):
    with pytest.raises(HeadlineError, match="command"):
        update_headline(tmp_path / "h.json", {"e2e_f": 0.5}, " ")
    assert command_line("training.evaluation.evaluate_pipeline", ["p", "--x", "1"]) == "python -m training.evaluation.evaluate_pipeline p --x 1"
