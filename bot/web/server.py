"""`travel-bot serve`'s HTTP server: uvicorn serving the one `WebApp`.

The socket is bound up front (port 0 picks a free one, which tests use), so the port is
known before uvicorn starts; `serve_forever` runs in the main thread until SIGINT or
SIGTERM, `start`/`stop` in a background thread (tests, benchmarks).
"""

from __future__ import annotations

import logging
import signal
import socket
import threading
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.web.app import WebApp

log = logging.getLogger(__name__)


class Server:
    """uvicorn serving a `WebApp` on a socket bound up front (port 0 picks a free one)."""

    def __init__(self, web_app: WebApp, *, host: str = "127.0.0.1", port: int = 0) -> None:
        import uvicorn

        self.web_app = web_app
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.socket(family, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind((host, port))
        self.socket.listen(2048)
        self.socket.set_inheritable(True)
        config = uvicorn.Config(
            web_app,
            lifespan="on",
            log_level="warning",
            access_log=False,
            timeout_keep_alive=75,
            timeout_graceful_shutdown=30,
            backlog=2048,
        )
        self._server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self.socket.getsockname()[1])

    @property
    def url(self) -> str:
        host = self.socket.getsockname()[0]
        return f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{self.port}"

    def serve_forever(self) -> None:
        """Serve in this (main) thread until SIGINT/SIGTERM, then return normally.

        uvicorn re-raises the stop signal once it has shut down; handlers installed here
        absorb it, so the caller can still finish queued work and close connections.
        """
        stop_signals = (signal.SIGINT, signal.SIGTERM)
        previous = {sig: signal.signal(sig, _note_signal) for sig in stop_signals}
        try:
            self._server.run(sockets=[self.socket])
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def start(self, timeout: float = 10.0) -> Server:
        """Serve in a background thread; returns once the server accepts requests."""
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self.socket]}, daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the HTTP server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=30)
            self._thread = None
        self.socket.close()


def _note_signal(signum: int, frame: Any) -> None:
    log.info("received signal %d; shutting down", signum)


__all__ = ["Server"]
