"""Runs the pipeline work of requests one at a time in a worker thread (one pipeline per process, one compute
thread), with bounded admission and a per-request timeout: a request beyond `max_queue` waiting ones is refused
at once (503 + Retry-After) instead of joining an unbounded queue."""

import asyncio
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Callable, TypeVar

from .errors import ServiceError
from .settings import ServiceLimits

T = TypeVar("T")


class PipelineGate:
    """The one pipeline thread of a worker and the count of requests admitted to it.

    limits (ServiceLimits): `max_queue`, `timeout_seconds`, `retry_after_seconds`.
    """

    def __init__(self, limits: ServiceLimits) -> None:
        self.limits = limits
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nseen-pipeline")
        self.admitted = 0  # running + waiting; a timed-out job counts until its thread is done
        self.lock = threading.Lock()

    @property
    def capacity(self) -> int:
        """RETURNS (int): Requests admitted at most: the running one and `max_queue` waiting."""
        return 1 + self.limits.max_queue

    def _release(self, _: Future) -> None:
        with self.lock:
            self.admitted -= 1

    async def run(self, work: Callable[[], T]) -> T:
        """Run `work` on the pipeline thread.

        RETURNS (T): Its result. RAISES (ServiceError): 503 when the worker is full, 504 past the timeout.
        """
        with self.lock:
            if self.admitted >= self.capacity:
                raise ServiceError(
                    503,
                    f"the service is busy ({self.admitted} requests in this worker); retry after "
                    f"{self.limits.retry_after_seconds} s",
                    {"Retry-After": str(self.limits.retry_after_seconds)},
                )
            self.admitted += 1
        future = self.executor.submit(work)
        future.add_done_callback(self._release)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), self.limits.timeout_seconds)
        except asyncio.TimeoutError:
            future.cancel()  # a job still waiting never runs; a running one finishes and then frees its place
            raise ServiceError(
                504,
                f"the request took longer than {self.limits.timeout_seconds:g} s; send fewer or shorter texts",
            ) from None

    def close(self) -> None:
        """Finish the running job and stop the thread."""
        self.executor.shutdown(wait=True, cancel_futures=True)
