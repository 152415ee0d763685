"""A real HTTP server on 127.0.0.1 (random port, own thread) for the test doubles."""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self


class _Listener(ThreadingHTTPServer):
    """A listen backlog like a real API host's: the standard library's 5 drops the SYNs
    of a burst (fifty conversations' progress calls at once), and the client's retry a
    second later can outlast a short timeout on a loaded machine, which no real Slack,
    Feishu or DingTalk host would do."""

    request_queue_size = 128
    daemon_threads = True
    block_on_close = False


class LocalServer:
    """Start/stop plumbing shared by the fake Slack Web API and the scripted model.

    Subclasses set `handler` (a request handler class); each request's handler gets the
    server object as `owner`. `closing` is set on close, so handlers that wait can stop.
    """

    handler: type[BaseHTTPRequestHandler]

    def __init__(self) -> None:
        self.closing = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._kept_port = 0  # the port while `refuse_connections` has closed it

    def start(self) -> Self:
        if self._server is not None:
            return self
        bound = type("_BoundHandler", (self.handler,), {"owner": self})
        server = _Listener(("127.0.0.1", self._kept_port), bound)
        self._server = server
        self.closing.clear()
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def refuse_connections(self) -> None:
        """Stop listening, keeping the port: a client connecting now is refused (nothing
        is sent), as by a host that is down. `accept_connections` listens again."""
        port = self.port
        LocalServer.close(self)  # only the listener: a subclass's other parts run on
        self._kept_port = port

    def accept_connections(self) -> None:
        """Listen again on the same port, after `refuse_connections`."""
        LocalServer.start(self)
        self._kept_port = 0

    def close(self) -> None:
        self.closing.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def port(self) -> int:
        if self._server is None and self._kept_port:
            return self._kept_port
        if self._server is None:
            raise RuntimeError(f"{type(self).__name__} is not started")
        return int(self._server.server_address[1])


class JSONHandler(BaseHTTPRequestHandler):
    """A request handler that answers with JSON bodies."""

    def send_json(
        self, status: int, payload: Mapping[str, Any], headers: Mapping[str, str] | None = None
    ) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client gave up (a timeout); nothing to do
