import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from spacy_nseen.__main__ import app

runner = CliRunner()


def flat(output: str) -> str:
    """wasabi wraps long messages: compare with single spaces."""
    return " ".join(output.split())


def test_cli_annotates_and_summarises(tmp_path: Path, tiny_pipeline: str, write_jsonl):
    corpus = write_jsonl(tmp_path / "c.jsonl", 9, extra=b"\xff\n")
    result = runner.invoke(app, ["annotate", str(corpus), str(tmp_path / "out"), "--pipeline", tiny_pipeline,
                                 "--shard-size", "4", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "9 texts (0 of 3 shards resumed)" in flat(result.output) and "1 bad records" in flat(result.output)
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["texts"] == 9
    again = runner.invoke(app, ["annotate", str(corpus), str(tmp_path / "out"), "--pipeline", tiny_pipeline,
                                "--shard-size", "4", "--no-progress"])
    assert again.exit_code == 0 and "(3 of 3 shards resumed)" in flat(again.output)


def test_cli_errors_are_one_line_failures(tmp_path: Path, tiny_pipeline: str, write_jsonl):
    corpus = write_jsonl(tmp_path / "c.jsonl", 2)
    missing = runner.invoke(app, ["annotate", str(tmp_path / "none.jsonl"), str(tmp_path / "o"), "-p", tiny_pipeline])
    assert missing.exit_code == 1 and "none.jsonl: no such file or directory" in flat(missing.output)
    runner.invoke(app, ["annotate", str(corpus), str(tmp_path / "o"), "-p", tiny_pipeline, "--no-progress"])
    other = runner.invoke(app, ["annotate", str(corpus), str(tmp_path / "o"), "-p", tiny_pipeline, "--shard-size", "5"])
    assert other.exit_code == 1 and "other settings (shard_size differ)" in flat(other.output)
    bad = runner.invoke(app, ["annotate", str(corpus), str(tmp_path / "o2"), "-p", tiny_pipeline, "--output-format", "csv"])
    assert bad.exit_code == 2 and "--output-format" in bad.output


def test_python_dash_m_lists_the_command():
    result = subprocess.run([sys.executable, "-m", "spacy_nseen", "--help"], capture_output=True, text=True,
                            cwd=Path(__file__).parents[2], timeout=120)
    assert result.returncode == 0 and "annotate" in result.stdout
