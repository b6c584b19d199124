"""A worker with other requests admitted closes the connection of each response it sends (so the client's next
request can go to an idle worker); a lone or idle worker keeps connections open."""

import asyncio
from typing import Any, Dict, List, Optional

from spacy_nseen.service.gate import PipelineGate
from spacy_nseen.service.settings import ServiceLimits
from spacy_nseen.service.spread import SpreadMiddleware


async def answer(scope: Dict[str, Any], receive: Any, send: Any) -> None:
    headers = [(b"content-type", b"application/json"), (b"connection", b"keep-alive")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": b"{}"})


def response_headers(admitted: int, workers: int, scope_type: str = "http") -> Optional[List[Any]]:
    gate = PipelineGate(ServiceLimits())
    gate.admitted = admitted
    sent: List[Dict[str, Any]] = []

    async def send(message: Dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> Dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    asyncio.run(SpreadMiddleware(answer, gate, workers)({"type": scope_type}, receive, send))
    gate.close()
    starts = [m for m in sent if m["type"] == "http.response.start"]
    return starts[0]["headers"] if starts else None


def test_a_busy_worker_of_several_closes_the_connection() -> None:
    headers = response_headers(admitted=2, workers=2)
    assert headers is not None and (b"connection", b"close") in headers
    assert (b"connection", b"keep-alive") not in headers and (b"content-type", b"application/json") in headers


def test_an_idle_or_lone_worker_keeps_it_open() -> None:
    for admitted, workers in ((0, 2), (3, 1)):
        headers = response_headers(admitted, workers)
        assert headers is not None and (b"connection", b"close") not in headers
