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


def write_records(path: Path, records) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def test_a_mistyped_pipeline_or_format_writes_nothing(tmp_path: Path, tiny_pipeline: str, write_jsonl):
    corpus = write_jsonl(tmp_path / "c.jsonl", 2)
    out = tmp_path / "out"
    typo = runner.invoke(app, ["annotate", str(corpus), str(out), "-p", tiny_pipeline + "x", "--no-progress"])
    assert typo.exit_code == 1 and "--pipeline" in flat(typo.output)
    fmt = runner.invoke(app, ["annotate", str(corpus), str(out), "-p", tiny_pipeline, "--format", "jsonlines"])
    assert fmt.exit_code == 2 and "--format 'jsonlines'" in flat(fmt.output)
    assert not out.exists()
    fixed = runner.invoke(app, ["annotate", str(corpus), str(out), "-p", tiny_pipeline, "--no-progress"])
    assert fixed.exit_code == 0, fixed.output


def test_duplicate_ids_are_warned_and_strict_fails(tmp_path: Path, tiny_pipeline: str):
    corpus = write_records(tmp_path / "c.jsonl", [{"id": 1, "text": "TP53 binds ATP."}, {"id": "1", "text": "x"},
                                                  {"id": 1, "text": "HRAS"}, {"text": "no id"}])
    result = runner.invoke(app, ["annotate", str(corpus), str(tmp_path / "o"), "-p", tiny_pipeline, "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "1 records repeat an earlier id (e.g. 1); policy: keep all" in flat(result.output)
    assert "1 records had no id" in flat(result.output)
    records = [json.loads(line) for line in (tmp_path / "o" / "shard-000000.jsonl").read_text().splitlines()]
    assert [r["id"] for r in records] == [1, "1", 1, "c.jsonl:4"]  # ids as given, numbers stay numbers
    strict = runner.invoke(app, ["annotate", str(corpus), str(tmp_path / "o"), "-p", tiny_pipeline, "--no-progress",
                                 "--strict"])
    assert strict.exit_code == 3 and "--strict" in flat(strict.output)


def test_strict_fails_on_skipped_records(tmp_path: Path, tiny_pipeline: str, write_jsonl):
    corpus = write_jsonl(tmp_path / "c.jsonl", 3, extra=b'{"id": [1], "text": "a"}\n')
    args = ["annotate", str(corpus), str(tmp_path / "o"), "-p", tiny_pipeline, "--no-progress"]
    assert runner.invoke(app, args).exit_code == 0
    strict = runner.invoke(app, args + ["--strict"])
    assert strict.exit_code == 3 and "1 records skipped" in flat(strict.output)
    bad = (tmp_path / "o" / "bad_records.jsonl").read_text()
    assert "id is a list" in bad


def test_every_written_record_validates_against_the_shipped_schema(tmp_path: Path, tiny_pipeline: str, write_jsonl):
    jsonschema = __import__("pytest").importorskip("jsonschema")
    from spacy_nseen.corpus.annotate import RECORD_SCHEMA

    schema = json.loads(RECORD_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    corpus = write_jsonl(tmp_path / "c.jsonl", 30)
    with corpus.open("a", encoding="utf-8") as f:
        f.write(json.dumps({"id": 7.5, "text": "FOXP2 and water", "source": {"pmc": 1}}) + "\n")
        f.write(json.dumps({"text": "no id, no entity"}) + "\n")
    result = runner.invoke(app, ["annotate", str(corpus), str(tmp_path / "o"), "-p", tiny_pipeline, "--no-progress",
                                 "--shard-size", "8"])
    assert result.exit_code == 0, result.output
    lines = [line for f in sorted((tmp_path / "o").glob("shard-*.jsonl")) for line in f.read_text().splitlines()]
    assert len(lines) == 32
    records = [json.loads(line) for line in lines]
    assert sum(len(r["entities"]) for r in records) > 30
    for record in records:
        validator.validate(record)


def test_logs_are_free_of_ansi_codes_when_not_a_terminal(tmp_path: Path, tiny_pipeline: str, write_jsonl):
    corpus = write_jsonl(tmp_path / "c.jsonl", 3, extra=b"\xff\n")
    result = subprocess.run([sys.executable, "-m", "spacy_nseen", "annotate", str(corpus), str(tmp_path / "o"),
                             "-p", tiny_pipeline], capture_output=True, text=True, timeout=300,
                            cwd=Path(__file__).parents[2], env={**__import__("os").environ, "NSEEN_PROGRESS_EVERY": "0"})
    assert result.returncode == 0, result.stderr
    assert "3 texts" in result.stdout and "annotate: 4/4 (100%) records" in result.stderr
    assert "\x1b[" not in result.stdout + result.stderr and "\r" not in result.stderr


def test_an_unreachable_scheduler_is_a_one_line_error(tmp_path: Path, tiny_pipeline: str, write_jsonl):
    __import__("pytest").importorskip("distributed")
    import socket

    with socket.socket() as s:  # a free port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    corpus = write_jsonl(tmp_path / "c.jsonl", 2)
    result = subprocess.run([sys.executable, "-m", "spacy_nseen", "annotate", str(corpus), str(tmp_path / "o"),
                             "-p", tiny_pipeline, "--scheduler", f"tcp://127.0.0.1:{port}", "--connect-timeout", "2"],
                            capture_output=True, text=True, timeout=120, cwd=Path(__file__).parents[2])
    assert result.returncode == 1
    errors = [line for line in result.stdout.splitlines() + result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1 and f"no Dask scheduler answered at tcp://127.0.0.1:{port} within 2 s" in errors[0], errors
    assert not (tmp_path / "o" / "manifest.json").exists()


def test_version():
    from spacy_nseen import __version__

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"spacy-nseen {__version__}"
