"""A bounded asyncio load client: `concurrency` clients send a fixed number of requests to a service on
127.0.0.1 (never more, never after `time_limit`), each recording its status and latency."""

import asyncio
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence

import httpx
import numpy

MAX_RETRIES = 20  # a request refused with 503 is sent again after Retry-After, at most this often


@dataclass(frozen=True)
class Outcome:
    """One answer: its HTTP status (0: none), latency in seconds, the texts it carried, and which attempt of its
    request it was (0: the first; a 503 is retried after its Retry-After)."""

    status: int
    seconds: float
    texts: int
    error: str = ""
    attempt: int = 0


def check_local(url: str) -> None:
    """RAISES (ValueError): unless `url` is on 127.0.0.1 (the load test never goes elsewhere)."""
    if not url.startswith("http://127.0.0.1:"):
        raise ValueError(f"the load test only calls http://127.0.0.1:PORT, not {url}")


async def run_load(
    url: str,
    bodies: Sequence[Dict[str, Any]],
    concurrency: int,
    n_requests: int,
    time_limit: float,
    path: str = "/v1/annotate",
    on_request: Optional[Callable[[int], None]] = None,
) -> List[Outcome]:
    """Send `n_requests` requests (body `i % len(bodies)`) from `concurrency` clients; a 503 is sent again after
    its Retry-After (at most `MAX_RETRIES` times, not past `time_limit`), as a well-behaved client does.

    on_request (Optional[Callable[[int], None]]): Called with each request's number before it is sent (faults).
    RETURNS (List[Outcome]): One per answer, in the order they came.
    """
    check_local(url)
    outcomes: List[Outcome] = []
    next_index = 0
    deadline = time.monotonic() + time_limit
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=time_limit) as client:

        async def one_client() -> None:
            nonlocal next_index
            while next_index < n_requests and time.monotonic() < deadline:
                index = next_index
                next_index += 1
                if on_request is not None:
                    on_request(index)
                body = bodies[index % len(bodies)]
                texts = len(body.get("texts", ())) or 1
                for attempt in range(MAX_RETRIES + 1):
                    start = time.perf_counter()
                    try:
                        answer = await client.post(path, json=body)
                    except httpx.HTTPError as err:
                        error = f"{type(err).__name__}: {err}"
                        outcomes.append(Outcome(0, time.perf_counter() - start, texts, error, attempt))
                        break
                    outcomes.append(Outcome(answer.status_code, time.perf_counter() - start, texts, "", attempt))
                    if answer.status_code != 503 or time.monotonic() >= deadline:
                        break
                    await asyncio.sleep(float(answer.headers.get("retry-after", "1")))

        started = time.perf_counter()
        await asyncio.gather(*(one_client() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
    outcomes.append(Outcome(-1, elapsed, 0))  # the wall time of the run, taken off by `summarise`
    return outcomes


def summarise(outcomes: List[Outcome]) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): Requests, answers (a retried 503 is one more), status counts of the answers,
    throughput (requests/s, texts/s of the 200s) and the p50/p95/p99 latency (ms) of the 200 answers (of the
    attempt answered 200, its queueing in the worker included)."""
    wall = next(o.seconds for o in outcomes if o.status == -1)
    done = [o for o in outcomes if o.status != -1]
    ok = [o for o in done if o.status == 200]
    statuses: Dict[str, int] = {}
    for o in done:
        statuses[str(o.status)] = statuses.get(str(o.status), 0) + 1
    latencies = numpy.array([o.seconds for o in ok]) * 1000 if ok else numpy.array([numpy.nan])
    return {
        "requests": sum(1 for o in done if o.attempt == 0),
        "answers": len(done),
        "unanswered_after_retries": sum(1 for o in done if o.status == 503 and o.attempt == MAX_RETRIES),
        "statuses": dict(sorted(statuses.items())),
        "errors": sorted({o.error for o in done if o.error})[:5],
        "seconds": round(wall, 2),
        "requests_per_s": round(len(ok) / wall, 2),
        "texts_per_s": round(sum(o.texts for o in ok) / wall, 2),
        "p50_ms": round(float(numpy.percentile(latencies, 50)), 1),
        "p95_ms": round(float(numpy.percentile(latencies, 95)), 1),
        "p99_ms": round(float(numpy.percentile(latencies, 99)), 1),
    }
