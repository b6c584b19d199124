"""Faults under load: a worker killed mid-load (uvicorn starts a new one; the requests not on it succeed), and
SIGTERM with requests in flight (they finish before the server exits)."""

import asyncio
import os
import signal
import threading
import time
from typing import Any, Dict, List, Sequence

from .load_client import run_load, summarise
from .service_server import ServiceProcess


def kill_a_worker(server: ServiceProcess, bodies: Sequence[Dict[str, Any]], n_requests: int = 200) -> Dict[str, Any]:
    """SIGKILL one worker when a quarter of `n_requests` single-text requests (4 clients) are sent.

    RETURNS (Dict[str, Any]): The load's summary, the killed pid, the workers after, and whether a new one came.
    """
    before = server.worker_pids()
    killed: List[int] = []

    def on_request(index: int) -> None:
        if index == n_requests // 4 and not killed:
            killed.append(before[0])
            os.kill(before[0], signal.SIGKILL)

    outcomes = asyncio.run(run_load(server.url, bodies, 4, n_requests, 300.0, on_request=on_request))
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(set(server.worker_pids()) - set(before)) < 1:
        time.sleep(0.5)
    server.wait_ready(120)
    after = server.worker_pids()
    followup = summarise(asyncio.run(run_load(server.url, bodies, 4, 40, 120.0)))
    return {
        "load": summarise(outcomes),
        "killed": killed,
        "workers_before": before,
        "workers_after": after,
        "replaced": len(after) == len(before) and killed[0] not in after,
        "after_replacement": followup,
    }


def sigterm_in_flight(server: ServiceProcess, bodies: Sequence[Dict[str, Any]], delay: float = 0.3) -> Dict[str, Any]:
    """Send one request per body at once, SIGTERM the server `delay` s later.

    RETURNS (Dict[str, Any]): The requests' summary and the server's exit code.
    """
    assert server.process is not None
    process = server.process
    timer = threading.Timer(delay, lambda: process.send_signal(signal.SIGTERM))
    timer.start()
    outcomes = asyncio.run(run_load(server.url, bodies, len(bodies), len(bodies), 300.0))
    timer.join()
    code = process.wait(120)
    return {"load": summarise(outcomes), "exit_code": code}
