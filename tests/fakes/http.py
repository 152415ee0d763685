"""A real HTTP server on 127.0.0.1 (random port, own thread) for the test doubles."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Self


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

    def start(self) -> Self:
        if self._server is not None:
            return self
        bound = type("_BoundHandler", (self.handler,), {"owner": self})
        server = ThreadingHTTPServer(("127.0.0.1", 0), bound)
        server.daemon_threads = True
        server.block_on_close = False
        self._server = server
        self.closing.clear()
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

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
        if self._server is None:
            raise RuntimeError(f"{type(self).__name__} is not started")
        return int(self._server.server_address[1])
