"""ASGI middleware of the service: the request-size limit (413 before a byte past it is read), the UTF-8 check
of JSON bodies, and structured access logs without the texts (one JSON line per request)."""

import json
import logging
import time
from typing import Any, Awaitable, Callable, Dict, List, MutableMapping, Optional

from .errors import ServiceError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

ACCESS_LOG = logging.getLogger("spacy_nseen.service.access")


async def send_error(send: Send, error: ServiceError) -> None:
    """Answer `{"error": message}` with the error's status and headers."""
    body = json.dumps({"error": error.message}).encode("utf-8")
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    headers += [(k.lower().encode(), v.encode()) for k, v in error.headers.items()]
    await send({"type": "http.response.start", "status": error.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, name: bytes) -> Optional[str]:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


class BodyLimitMiddleware:
    """Refuse a body over `max_body_bytes` with 413 (by its Content-Length, or while reading a chunked one), and
    a JSON body that is not UTF-8 with 400 naming the byte; the body read is handed on whole.

    app (ASGIApp): The app.
    max_body_bytes (int): The limit.
    """

    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    def too_large(self, size: str) -> ServiceError:
        return ServiceError(
            413,
            f"request body of {size} bytes; the limit is {self.max_body_bytes:,} bytes: send fewer or shorter "
            "texts per request",
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        length = _header(scope, b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body_bytes:
            await send_error(send, self.too_large(f"{int(length):,}"))
            return
        chunks: List[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                await send_error(send, self.too_large(f"over {self.max_body_bytes:,}"))
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if "json" in (_header(scope, b"content-type") or "json"):
            try:
                body.decode("utf-8")
            except UnicodeDecodeError as err:
                await send_error(
                    send,
                    ServiceError(400, f"the request body is not valid UTF-8 (byte {err.start}): send JSON in UTF-8"),
                )
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class AccessLogMiddleware:
    """Log one JSON line per request: method, path, status, bytes in and out, milliseconds, the client address.
    Never the texts (nor the query string) unless `log_texts`.

    app (ASGIApp): The app.
    log_texts (bool): Also log the query string (request bodies are never logged).
    """

    def __init__(self, app: ASGIApp, log_texts: bool = False) -> None:
        self.app = app
        self.log_texts = log_texts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        record: Dict[str, Any] = {"method": scope.get("method"), "path": scope.get("path"), "status": 500}
        record["bytes_in"] = int(_header(scope, b"content-length") or 0)
        record["bytes_out"] = 0

        async def send_logged(message: Message) -> None:
            if message["type"] == "http.response.start":
                record["status"] = message["status"]
            elif message["type"] == "http.response.body":
                record["bytes_out"] += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, send_logged)
        finally:
            record["ms"] = round((time.perf_counter() - start) * 1000, 2)
            client = scope.get("client")
            record["client"] = client[0] if client else None
            if self.log_texts and scope.get("query_string"):
                record["query"] = bytes(scope["query_string"]).decode("latin-1")
            ACCESS_LOG.info(json.dumps(record))
