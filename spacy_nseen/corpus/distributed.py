"""Run the shards on a Dask cluster (`pip install "spacy-nseen[distributed]"`): a real cluster given by its
scheduler address, or a local one. Each worker loads the pipeline once (the first shard it gets) and
returns the shard's text to this process, which writes it: workers need the pipeline (an installed
package or a path they can read), not the output directory."""

from typing import Any, Iterable, Iterator, Optional, Set

from ..errors import NseenError
from .worker import ShardResult, ShardTask, annotate_shard

IN_FLIGHT_PER_WORKER = 2
# Dask's statistical profiler walks the task thread's stack every 10 ms: on the pipeline's deep call stacks
# that cost ~40 % more CPU per text; the 20 ms event-loop tick and 100 ms memory monitor take the GIL from
# the task thread. Dask's nannies also start each worker with MALLOC_TRIM_THRESHOLD_=65536, which turns off
# glibc's adaptive malloc thresholds: the pipeline's arrays are then unmapped and faulted in again on every
# batch (8× the page faults, ~20 % more CPU per text); None leaves glibc's defaults, as in a process pool
# (measured: results/scale/dask_overhead.md). Start the
# workers of a real cluster with DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False
# DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL=1s DASK_DISTRIBUTED__WORKER__MEMORY__MONITOR_INTERVAL=1s and a Dask
# config file (DASK_CONFIG) with `distributed: {nanny: {pre-spawn-environ: {MALLOC_TRIM_THRESHOLD_: null}}}`
# for the same effect.
WORKER_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
}
INSTALL_HINT = 'the distributed engine needs Dask: pip install "spacy-nseen[distributed]"'
CONNECT_TIMEOUT = 5.0


class SchedulerUnreachableError(NseenError):
    """The Dask scheduler given by its address did not answer within the connect timeout."""


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError as err:
        raise ImportError(INSTALL_HINT) from err
    return distributed


class DaskEngine:
    """Annotate on a Dask cluster.

    pipeline (str): Package name or path, as the workers see it.
    address (Optional[str]): Scheduler address such as `tcp://10.0.0.5:8786`; None starts a local cluster.
    n_workers (int): Workers of the local cluster (one thread each); ignored with `address`.
    output_format (str): `jsonl` or `bioc-xml`.
    batch_size (int): Docs per `nlp.pipe` batch.
    memory_limit (str): Memory limit of each local worker (Dask's syntax, e.g. `4GB`).
    connect_timeout (float): Seconds to wait for the scheduler at `address` before failing.
    """

    def __init__(
        self,
        pipeline: str,
        address: Optional[str] = None,
        n_workers: int = 2,
        output_format: str = "jsonl",
        batch_size: int = 64,
        memory_limit: str = "auto",
        connect_timeout: float = CONNECT_TIMEOUT,
    ) -> None:
        distributed = _import_distributed()
        self.pipeline, self.output_format, self.batch_size = pipeline, output_format, batch_size
        self._cluster = None
        if address is None:
            import dask

            with dask.config.set(WORKER_CONFIG):  # the nannies hand this config to the worker processes
                self._cluster = distributed.LocalCluster(
                    n_workers=n_workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    memory_limit=memory_limit,
                )
            self.client = distributed.Client(self._cluster)
        else:
            try:
                self.client = distributed.Client(address, timeout=f"{connect_timeout}s")
            except (OSError, TimeoutError, ValueError) as err:
                reason = str(err).splitlines()[0] if str(err) else type(err).__name__
                raise SchedulerUnreachableError(
                    f"no Dask scheduler answered at {address} within {connect_timeout:g} s ({reason[:200]}). "
                    "Check --scheduler (tcp://HOST:8786) and that the scheduler runs, or raise --connect-timeout"
                ) from None
        self._as_completed = distributed.as_completed

    @property
    def n_workers(self) -> int:
        return max(1, len(self.client.scheduler_info().get("workers", {})))

    def run(self, tasks: Iterable[ShardTask]) -> Iterator[ShardResult]:
        limit = IN_FLIGHT_PER_WORKER * self.n_workers
        queue = self._as_completed()
        in_flight = 0
        for task in tasks:
            queue.add(
                self.client.submit(
                    annotate_shard, self.pipeline, task, self.output_format, self.batch_size, 1, pure=False
                )
            )
            in_flight += 1
            while in_flight >= limit:
                yield next(queue).result()
                in_flight -= 1
        for future in queue:
            yield future.result()

    def worker_pids(self) -> Set[int]:
        """RETURNS (Set[int]): The process ids of the workers (for memory measurements on one machine)."""
        import os

        return set(self.client.run(os.getpid).values())

    def close(self) -> None:
        self.client.close()
        if self._cluster is not None:
            self._cluster.close()
