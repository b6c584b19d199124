"""`spacy-nseen serve`: options checked before anything starts (the service itself: tests/service/)."""

import pytest
from typer.testing import CliRunner

pytest.importorskip("uvicorn", reason="the service needs the serve extra")

from spacy_nseen.__main__ import app  # noqa: E402


@pytest.mark.parametrize(
    "options,message",
    [(["--workers", "0"], "--workers must be at least 1"), (["--max-texts", "0"], "max_texts must be positive")],
)
def test_bad_options_exit_2_with_a_message(options: list, message: str) -> None:
    result = CliRunner().invoke(app, ["serve", "--pipeline", "demo", *options])
    assert result.exit_code == 2 and message in result.output


def test_serve_is_a_command() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0 and "--pipeline" in result.output
