"""A local HTTP server for download tests: each path answers with a payload, possibly cut short."""
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Dict, Iterator, Optional


@dataclass(frozen=True)
class Route:
    """What a path answers: `status`; `body`, of which only `sent` bytes are written before the connection is
    closed (None: all); a Content-Length header of the whole body unless `content_length` is False."""

    body: bytes = b""
    status: int = 200
    sent: Optional[int] = None
    content_length: bool = True


@contextmanager
def serve(routes: Dict[str, Route]) -> Iterator[str]:
    """Serve `routes` on 127.0.0.1 (unknown paths get 404). YIELDS (str): the base URL."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            route = routes.get(self.path)
            if route is None or route.status >= 400:
                self.send_error(route.status if route else 404)
                return
            self.send_response(route.status)
            if route.content_length:
                self.send_header("Content-Length", str(len(route.body)))
            self.end_headers()
            self.wfile.write(route.body if route.sent is None else route.body[: route.sent])
            self.wfile.flush()
            self.close_connection = route.sent is not None or not route.content_length

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
