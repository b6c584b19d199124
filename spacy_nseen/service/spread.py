"""Requests spread over the workers: a busy worker hands its keep-alive connections back.

The workers of `spacy-nseen serve --workers N` accept connections from one listening socket. A worker whose
pipeline is busy still accepts (its event loop runs beside the pipeline thread), and an HTTP client keeps its
connection open, so two clients that connected at the same moment can stay with one worker while the other idles
(issue 56: batches of two clients served by one worker). gunicorn's sync workers avoid this by closing every
connection after its response; here a response closes its connection only when the worker has other requests
admitted (running or waiting): the client's next request then opens a connection anew, which the kernel offers to
every worker waiting on the socket, and an idle worker (no pipeline thread holding its interpreter) accepts it
first. With one worker, or a worker with nothing else to do, connections stay open.
"""

from .gate import PipelineGate
from .middleware import ASGIApp, Message, Receive, Scope, Send

CLOSE = (b"connection", b"close")


class SpreadMiddleware:
    """Add `Connection: close` to the responses of a worker that has other requests admitted.

    app (ASGIApp): The app.
    gate (PipelineGate): The worker's pipeline gate (its count of admitted requests).
    workers (int): Worker processes of the server (1: never close).
    """

    def __init__(self, app: ASGIApp, gate: PipelineGate, workers: int = 1) -> None:
        self.app = app
        self.gate = gate
        self.workers = workers

    def busy(self) -> bool:
        """RETURNS (bool): whether other requests are admitted to this worker's pipeline (this request's work, done
        by the time its response starts, no longer counts)."""
        return self.gate.admitted > 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.workers < 2:
            await self.app(scope, receive, send)
            return

        async def send_spread(message: Message) -> None:
            if message["type"] == "http.response.start" and self.busy():
                headers = [h for h in message.get("headers", []) if bytes(h[0]).lower() != b"connection"]
                message = {**message, "headers": headers + [CLOSE]}
            await send(message)

        await self.app(scope, receive, send_spread)
