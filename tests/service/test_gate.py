"""Bounded admission and the per-request timeout of the pipeline thread (no pipeline needed)."""

import asyncio
import threading

import pytest

from spacy_nseen.service.errors import ServiceError
from spacy_nseen.service.gate import PipelineGate
from spacy_nseen.service.settings import ServiceLimits


def test_requests_past_the_queue_are_refused_with_503_and_retry_after() -> None:
    gate = PipelineGate(ServiceLimits(max_queue=1, retry_after_seconds=3))
    release = threading.Event()

    async def main() -> list:
        running = [asyncio.ensure_future(gate.run(release.wait)) for _ in range(2)]  # one runs, one waits
        await asyncio.sleep(0.05)
        with pytest.raises(ServiceError) as refused:
            await gate.run(lambda: None)
        release.set()
        assert refused.value.status == 503 and refused.value.headers == {"Retry-After": "3"}
        return await asyncio.gather(*running)

    assert asyncio.run(main()) == [True, True]
    assert gate.admitted == 0
    gate.close()


def test_a_request_past_the_timeout_is_504_and_keeps_its_place_until_its_work_ends() -> None:
    gate = PipelineGate(ServiceLimits(timeout_seconds=0.05, max_queue=0))
    release = threading.Event()

    async def main() -> None:
        with pytest.raises(ServiceError) as late:
            await gate.run(release.wait)
        assert late.value.status == 504 and "longer than 0.05 s" in late.value.message
        assert gate.admitted == 1  # the work still runs: the worker is full, not over-committed
        with pytest.raises(ServiceError) as busy:
            await gate.run(lambda: None)
        assert busy.value.status == 503
        release.set()
        await asyncio.sleep(0.05)
        assert await gate.run(lambda: 7) == 7

    asyncio.run(main())
    gate.close()
