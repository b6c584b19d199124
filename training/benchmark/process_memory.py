"""Memory of running processes from `/proc/<pid>/smaps_rollup` (Linux): RSS, PSS (shared pages divided
among the processes that map them, so memory-mapped index pages count once over all workers) and USS
(private pages), anonymous pages (the heap: what grows if memory leaks; the rest of RSS is pages of mapped files),
and a thread that records each process's peak while a run goes on."""
import threading
from pathlib import Path
from typing import Callable, Dict, Iterable, Optional

FIELDS = {"Rss": "rss", "Pss": "pss", "Private_Clean": "uss", "Private_Dirty": "uss", "Anonymous": "anon"}


def process_memory(pid: int) -> Optional[Dict[str, int]]:
    """Memory of one process, in bytes.

    pid (int): The process id.
    RETURNS (Optional[Dict[str, int]]): `rss`, `pss`, `uss` and `anon` (anonymous pages: the heap, not the
        memory-mapped files); None if the process is gone or /proc has no smaps_rollup (not Linux).
    """
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return None
    memory = {"rss": 0, "pss": 0, "uss": 0, "anon": 0}
    for line in text.splitlines():
        key, _, rest = line.partition(":")
        if key in FIELDS:
            memory[FIELDS[key]] += int(rest.split()[0]) * 1024
    return memory


class PeakMemory:
    """Sample the memory of some processes every `interval` seconds in a thread; keep each one's peak.

    pids (Callable[[], Iterable[int]]): The processes to watch (asked again at every sample).
    interval (float): Seconds between samples.
    """

    def __init__(self, pids: Callable[[], Iterable[int]], interval: float = 0.2) -> None:
        self.pids, self.interval = pids, interval
        self.peaks: Dict[int, Dict[str, int]] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def sample(self) -> None:
        """Take one sample now."""
        for pid in list(self.pids()):
            memory = process_memory(pid)
            if memory is None:
                continue
            peak = self.peaks.setdefault(pid, dict(memory))
            for key, value in memory.items():
                peak[key] = max(peak[key], value)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.sample()

    def __enter__(self) -> "PeakMemory":
        self.sample()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.sample()


def parent_pid(pid: int) -> Optional[int]:
    """RETURNS (Optional[int]): The parent process id of `pid` (from /proc), None if it is gone."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None
