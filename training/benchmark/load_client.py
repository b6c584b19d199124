"""A bounded asyncio load client: `concurrency` clients send a fixed number of requests to a service on
127.0.0.1 (never more, never after `time_limit`), each recording its status and latency."""

import asyncio
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence

import httpx
import numpy


@dataclass(frozen=True)
class Outcome:
    """One request: its HTTP status (0: no answer), latency in seconds and the texts it carried."""

    status: int
    seconds: float
    texts: int
    error: str = ""


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
    """Send `n_requests` requests (body `i % len(bodies)`) from `concurrency` clients.

    on_request (Optional[Callable[[int], None]]): Called with each request's number before it is sent (faults).
    RETURNS (List[Outcome]): One per request sent, in the order they finished.
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
                start = time.perf_counter()
                try:
                    answer = await client.post(path, json=body)
                    outcomes.append(Outcome(answer.status_code, time.perf_counter() - start, texts))
                except httpx.HTTPError as err:
                    outcomes.append(Outcome(0, time.perf_counter() - start, texts, f"{type(err).__name__}: {err}"))

        started = time.perf_counter()
        await asyncio.gather(*(one_client() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
    outcomes.append(Outcome(-1, elapsed, 0))  # the wall time of the run, taken off by `summarise`
    return outcomes


def summarise(outcomes: List[Outcome]) -> Dict[str, Any]:
    """RETURNS (Dict[str, Any]): Requests, status counts, throughput (requests/s, texts/s of the 200s) and the
    p50/p95/p99 latency (ms) of the 200 answers."""
    wall = next(o.seconds for o in outcomes if o.status == -1)
    done = [o for o in outcomes if o.status != -1]
    ok = [o for o in done if o.status == 200]
    statuses: Dict[str, int] = {}
    for o in done:
        statuses[str(o.status)] = statuses.get(str(o.status), 0) + 1
    latencies = numpy.array([o.seconds for o in ok]) * 1000 if ok else numpy.array([numpy.nan])
    return {
        "requests": len(done),
        "statuses": dict(sorted(statuses.items())),
        "errors": sorted({o.error for o in done if o.error})[:5],
        "seconds": round(wall, 2),
        "requests_per_s": round(len(ok) / wall, 2),
        "texts_per_s": round(sum(o.texts for o in ok) / wall, 2),
        "p50_ms": round(float(numpy.percentile(latencies, 50)), 1),
        "p95_ms": round(float(numpy.percentile(latencies, 95)), 1),
        "p99_ms": round(float(numpy.percentile(latencies, 99)), 1),
    }
