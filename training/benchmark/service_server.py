"""A `spacy-nseen serve` process for the load test: started on 127.0.0.1 on a free port, waited for until every
worker is ready, its worker processes found through /proc, stopped with SIGTERM."""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, List, Optional

import httpx


def free_port() -> int:
    """RETURNS (int): A port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def child_pids(pid: int) -> List[int]:
    """RETURNS (List[int]): The processes whose parent is `pid` (from /proc/*/stat)."""
    children = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            children.append(int(entry.name))
    return sorted(children)


class ServiceProcess:
    """`python -m spacy_nseen serve` in a subprocess (its log in `log_path`).

    pipeline (str): The pipeline to serve.
    workers (int): Worker processes.
    log_path (Path): Where the server's output goes.
    extra (List[str]): More `serve` options (limits).
    """

    def __init__(self, pipeline: str, workers: int, log_path: Path, extra: Optional[List[str]] = None) -> None:
        self.pipeline, self.workers, self.log_path = pipeline, workers, log_path
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.extra = extra or []
        self.process: Optional[subprocess.Popen] = None
        self.log: Optional[IO[bytes]] = None

    def start(self, timeout: float = 300.0) -> "ServiceProcess":
        """Start the server and wait until `workers` workers answer ready (or raise after `timeout` s)."""
        self.log = open(self.log_path, "ab")
        command = [sys.executable, "-m", "spacy_nseen", "serve", "--pipeline", self.pipeline, "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--workers", str(self.workers), *self.extra]
        env = {**os.environ, "OMP_NUM_THREADS": "1"}
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        try:
            self.wait_ready(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def worker_pids(self) -> List[int]:
        """RETURNS (List[int]): The worker processes (children of the server that are not multiprocessing's
        resource tracker; the server itself when it has one worker)."""
        assert self.process is not None
        if self.workers == 1:  # uvicorn runs one worker in its own process
            return [self.process.pid]
        pids = []
        for pid in child_pids(self.process.pid):
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if b"resource_tracker" not in command:
                pids.append(pid)
        return pids

    def wait_ready(self, timeout: float) -> None:
        """Wait until every worker has loaded the pipeline: each current worker process has answered ready (the
        answer names its worker; a new connection goes to any worker)."""
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited ({self.process.returncode}): see {self.log_path}")
            workers = set(self.worker_pids())
            ready = set()
            for _ in range(20 * max(1, len(workers))):
                try:
                    answer = httpx.get(self.url + "/v1/ready", timeout=5)
                except httpx.HTTPError:
                    break
                if answer.status_code == 200:
                    ready.add(int(answer.json()["worker"]))
                if len(workers) >= self.workers and workers <= ready:
                    return
            time.sleep(0.5)
        raise RuntimeError(f"the server was not ready in {timeout:.0f} s: see {self.log_path}")

    def stop(self, timeout: float = 60.0) -> Optional[int]:
        """SIGTERM the server and wait for it. RETURNS (Optional[int]): its exit code (None: it had to be killed)."""
        if self.process is None:
            return None
        code: Optional[int] = None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                code = self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        else:
            code = self.process.returncode
        if self.log is not None:
            self.log.close()
        return code

    def __enter__(self) -> "ServiceProcess":
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()
