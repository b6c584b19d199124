"""Faults of a served pipeline (the demo's, 2 workers on 127.0.0.1): a worker killed mid-load is replaced and the
other requests succeed; SIGTERM lets the requests in flight finish."""

import os
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the service needs the serve extra: pip install -e '.[serve]'")

from training.benchmark.service_faults import kill_a_worker, sigterm_in_flight  # noqa: E402
from training.benchmark.service_server import ServiceProcess  # noqa: E402

REPO = Path(__file__).resolve().parents[3]
TEXTS = ["MDM2 binds p53 in HeLa cells.", "Mouse embryonic fibroblasts treated with glucose.", "Trp53 in MEFs."]


def demo_pipeline() -> Path:
    named = os.environ.get("NSEEN_DEMO_PIPELINE")
    return Path(named) if named else Path(os.environ.get("NSEEN_DEMO_RUN", REPO)) / "training_output/demo/pipeline"


@pytest.mark.slow
@pytest.mark.skipif(not demo_pipeline().is_dir(), reason="no demo pipeline: run `bash scripts/demo.sh` (.ci/run does)")
def test_a_killed_worker_is_replaced_and_sigterm_finishes_the_requests_in_flight(tmp_path: Path) -> None:
    server = ServiceProcess(str(demo_pipeline()), 2, tmp_path / "server.log").start()
    try:
        killed = kill_a_worker(server, [{"texts": [text]} for text in TEXTS], n_requests=60)
        failed = sum(n for status, n in killed["load"]["statuses"].items() if status != "200")
        assert failed <= 4, killed  # at most the requests in flight on the killed worker (4 clients)
        assert killed["replaced"], killed
        assert killed["after_replacement"]["statuses"] == {"200": 40}
        stopped = sigterm_in_flight(server, [{"texts": TEXTS * 10}] * 2, delay=0.3)
        assert stopped["load"]["statuses"] == {"200": 2} and stopped["exit_code"] == 0, stopped
    finally:
        server.stop()
