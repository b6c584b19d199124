"""`spacy-nseen serve`: options checked before anything starts (the service itself: tests/service/)."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("uvicorn", reason="the service needs the serve extra")

from spacy_nseen.__main__ import app  # noqa: E402


@pytest.mark.parametrize(
    "options,message",
    [
        (["--workers", "0"], "--workers must be at least 1"),
        (["--max-texts", "0"], "max_texts must be positive"),
        (["--pipeline", "no_such_pipeline_here"], "neither a path nor an installed pipeline package"),
    ],
)
def test_bad_options_exit_2_with_a_message(options: list, message: str, tmp_path: Path) -> None:
    pipeline = [] if "--pipeline" in options else ["--pipeline", str(tmp_path)]
    result = CliRunner().invoke(app, ["serve", *pipeline, *options])
    assert result.exit_code == 2 and message in " ".join(result.output.split())


def test_serve_is_a_command() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0 and "--pipeline" in result.output
