"""Engines that run shard tasks: in this process, or in a pool of local processes. Each yields results in
completion order and keeps only a few tasks in flight, so a corpus of any size streams through.
(`distributed.py` adds a Dask cluster.)"""

import multiprocessing
import sys
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Callable, Iterable, Iterator, Optional, Protocol, Set

from .worker import ShardResult, ShardTask, annotate_shard, load_pipeline

IN_FLIGHT_PER_WORKER = 2


class Engine(Protocol):
    """Runs `annotate_shard` over tasks."""

    output_format: str

    @property
    def n_workers(self) -> int:
        """The workers that run tasks at once."""
        ...

    def run(self, tasks: Iterable[ShardTask]) -> Iterator[ShardResult]:
        """YIELDS (ShardResult): One result per task, in completion order."""
        ...

    def close(self) -> None:
        """Release the workers."""
        ...


class InProcessEngine:
    """Annotate in the calling process (the pipeline is loaded once, on the first shard).

    pipeline (str): Package name or path.
    output_format (str): `jsonl` or `bioc-xml`.
    batch_size (int): Docs per `nlp.pipe` batch.
    on_text (Optional[Callable[[], None]]): called as each text is annotated (progress per text); the other
        engines report whole shards.
    """

    n_workers = 1

    def __init__(self, pipeline: str, output_format: str = "jsonl", batch_size: int = 64) -> None:
        self.pipeline, self.output_format, self.batch_size = pipeline, output_format, batch_size
        self.on_text: Optional[Callable[[], None]] = None

    def run(self, tasks: Iterable[ShardTask]) -> Iterator[ShardResult]:
        for task in tasks:
            yield annotate_shard(self.pipeline, task, self.output_format, self.batch_size, on_text=self.on_text)

    def close(self) -> None:
        pass


START_METHODS = ("fork", "spawn")


def default_start_method() -> str:
    """RETURNS (str): `fork` where the platform offers it (Linux), else `spawn`."""
    return "fork" if sys.platform.startswith("linux") else "spawn"


class ProcessPoolEngine:
    """Annotate in `n_workers` processes using one torch thread each.

    With `fork`, this process loads the pipeline once (without running it, so no thread pool exists yet)
    and the workers inherit it: its arrays and weights stay shared, copy-on-write, and a worker costs little
    more than its working memory. With `spawn`, each worker loads the pipeline itself (only memory-mapped
    index files are shared, through the page cache).

    pipeline (str): Package name or path.
    n_workers (int): Processes.
    output_format (str): `jsonl` or `bioc-xml`.
    batch_size (int): Docs per `nlp.pipe` batch.
    start_method (Optional[str]): `fork` or `spawn` (default: `default_start_method()`).
    """

    def __init__(
        self,
        pipeline: str,
        n_workers: int,
        output_format: str = "jsonl",
        batch_size: int = 64,
        start_method: Optional[str] = None,
    ) -> None:
        if n_workers < 1:
            raise ValueError(f"n_workers must be at least 1, not {n_workers}")
        start_method = start_method or default_start_method()
        if start_method not in START_METHODS:
            raise ValueError(f"start_method {start_method!r}: use one of {START_METHODS}")
        self.pipeline, self.n_workers, self.start_method = pipeline, n_workers, start_method
        self.output_format, self.batch_size = output_format, batch_size
        if start_method == "fork":
            load_pipeline(pipeline, n_threads=1)
        self._pool: Optional[ProcessPoolExecutor] = ProcessPoolExecutor(
            max_workers=n_workers, mp_context=multiprocessing.get_context(start_method)
        )

    def run(self, tasks: Iterable[ShardTask]) -> Iterator[ShardResult]:
        assert self._pool is not None, "engine closed"
        pending: Set[Future] = set()
        limit = IN_FLIGHT_PER_WORKER * self.n_workers
        for task in tasks:
            pending.add(self._pool.submit(annotate_shard, self.pipeline, task, self.output_format, self.batch_size, 1))
            while len(pending) >= limit:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                yield from (f.result() for f in done)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            yield from (f.result() for f in done)

    def worker_pids(self) -> Set[int]:
        """RETURNS (Set[int]): The process ids of the pool's workers (started so far)."""
        return set(getattr(self._pool, "_processes", {}) or {})

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None
