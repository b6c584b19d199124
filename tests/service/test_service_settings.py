"""Settings travel to uvicorn's workers as JSON; a limit of zero or less is an error naming it."""

import pytest

from spacy_nseen.service.settings import ENV_VAR, ServiceLimits, ServiceSettings


def test_settings_round_trip_through_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = ServiceSettings("demo", ServiceLimits(max_texts=5, timeout_seconds=2.5), ("https://a.org",), True, 2)
    monkeypatch.setenv(ENV_VAR, settings.to_env())
    assert ServiceSettings.from_env() == settings


def test_no_settings_in_the_environment_says_how_to_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    with pytest.raises(RuntimeError, match="spacy-nseen serve --pipeline"):
        ServiceSettings.from_env()


def test_a_limit_must_be_positive() -> None:
    with pytest.raises(ValueError, match="max_texts must be positive"):
        ServiceLimits(max_texts=0)
    assert ServiceLimits(max_queue=0).max_queue == 0
