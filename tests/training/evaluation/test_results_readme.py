import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from training.evaluation.results_readme import app, format_value, read_figures, render, results_path

REPO = Path(__file__).parents[3]
HEADLINE = {
    "e2e_f": {"value": 0.5966, "command": "python -m training.evaluation.evaluate_pipeline training_output/pipeline "
                                          "corpus/ner/dev.spacy results/pipeline --headline results/headline.json"},
    "ner_peak_rss_mb": {"value": 387.2, "command": "python -m training.benchmark.benchmark --output "
                                                   "results/bench/benchmark.json --headline results/headline.json"},
    "scale_two_process_speedup": {"value": 2.079, "command": "python -m training.benchmark.benchmark_scale x.tsv.gz"},
    "new_figure": {"value": 0.5, "command": "python -m x --out results/new"},
}


def small_repo(root: Path) -> Path:
    """A repository root with a headline file and the results files its commands write."""
    (root / "results" / "pipeline").mkdir(parents=True)
    (root / "results" / "pipeline" / "metrics.md").write_text("# pipeline\n")
    (root / "results" / "bench").mkdir()
    (root / "results" / "bench" / "benchmark.json").write_text("{}")
    (root / "results" / "bench" / "benchmark.md").write_text("# bench\n")
    (root / "results" / "scale").mkdir()
    (root / "results" / "scale" / "scale.md").write_text("# scale\n")
    (root / "results" / "new").mkdir()
    (root / "results" / "new" / "README.md").write_text("# new\n")
    (root / "results" / "headline.json").write_text(json.dumps(HEADLINE))
    return root


def test_results_path_reads_the_output_option_a_positional_path_or_the_default():
    assert results_path(HEADLINE["e2e_f"]["command"]) == "results/pipeline"
    assert results_path(HEADLINE["ner_peak_rss_mb"]["command"]) == "results/bench/benchmark.json"
    assert results_path(HEADLINE["scale_two_process_speedup"]["command"]) == "results/scale"
    assert results_path("python -m x --headline results/headline.json") is None


def test_the_page_links_each_figure_to_its_results_file(tmp_path):
    root = small_repo(tmp_path)
    figures = read_figures(root / "results" / "headline.json", root)
    assert [(f.key, f.results_file) for f in figures] == [
        ("e2e_f", "results/pipeline/metrics.md"), ("ner_peak_rss_mb", "results/bench/benchmark.md"),
        ("new_figure", "results/new/README.md"), ("scale_two_process_speedup", "results/scale/scale.md")]
    page = render(figures)
    assert "| F, all linked entities | 0.597 | [`pipeline/metrics.md`](pipeline/metrics.md) |" in page
    assert "| NER alone, peak RSS | 387 MB | [`bench/benchmark.md`](bench/benchmark.md) |" in page
    assert "## Other" in page and "| `new_figure` | 0.500 | [`new/README.md`](new/README.md) |" in page
    assert page.count("```bash") == len(HEADLINE)


def test_a_missing_results_file_is_an_error(tmp_path):
    root = small_repo(tmp_path)
    (root / "results" / "scale" / "scale.md").unlink()
    with pytest.raises(ValueError, match="no results file"):
        read_figures(root / "results" / "headline.json", root)
    args = ["--root", str(root), "--headline", str(root / "results" / "headline.json"),
            "--output", str(root / "results" / "README.md")]
    assert CliRunner().invoke(app, args).exit_code == 2


def test_write_then_check(tmp_path):
    root = small_repo(tmp_path)
    output = root / "results" / "README.md"
    args = ["--root", str(root), "--headline", str(root / "results" / "headline.json"), "--output", str(output)]
    assert CliRunner().invoke(app, args + ["--check"]).exit_code == 1  # not written yet
    assert CliRunner().invoke(app, args).exit_code == 0
    assert CliRunner().invoke(app, args + ["--check"]).exit_code == 0
    output.write_text(output.read_text() + "edited\n")
    assert CliRunner().invoke(app, args + ["--check"]).exit_code == 1


def test_format_value():
    assert (format_value(0.8547, "share"), format_value(1265.0, "mb"), format_value(154.0, "rate"),
            format_value(2.079, "ratio")) == ("0.855", "1,265 MB", "154", "2.08×")


def test_the_committed_page_is_up_to_date():
    args = ["--root", str(REPO), "--headline", str(REPO / "results" / "headline.json"),
            "--output", str(REPO / "results" / "README.md"), "--check"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
