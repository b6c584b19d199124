"""The load client calls 127.0.0.1 only and summarises what it sent."""

import pytest

from training.benchmark.load_client import Outcome, check_local, summarise


def test_only_127_0_0_1_is_called() -> None:
    check_local("http://127.0.0.1:8080")
    for url in ("http://localhost:8080", "http://10.0.0.1:80", "https://127.0.0.1.example.org:1"):
        with pytest.raises(ValueError, match="only calls http://127.0.0.1"):
            check_local(url)


def test_summary_counts_statuses_and_takes_percentiles_of_the_200s() -> None:
    outcomes = [Outcome(200, s / 1000, 2) for s in range(1, 101)] + [Outcome(503, 0.001, 2), Outcome(-1, 10.0, 0)]
    outcomes[0] = Outcome(200, 0.001, 2, attempt=1)  # the retry of the 503
    summary = summarise(outcomes)
    assert summary["requests"] == 100 and summary["answers"] == 101 and summary["statuses"] == {"200": 100, "503": 1}
    assert summary["requests_per_s"] == 10.0 and summary["texts_per_s"] == 20.0
    assert summary["p50_ms"] == 50.5 and summary["p99_ms"] == pytest.approx(99.0, abs=0.1)
