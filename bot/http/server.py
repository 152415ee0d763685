"""`travel-bot serve`'s HTTP server: uvicorn serving the one `WebApp`, guarded.

The socket is bound up front (port 0 picks a free one, which tests use), so the port is
known before uvicorn starts; `serve_forever` runs in the main thread until SIGINT or
SIGTERM, `start`/`stop` in a background thread (tests, benchmarks).

Slow and idle clients (issue 11). The tool chosen is uvicorn itself, extended where the
bytes arrive: `bot.http.connections.GuardedHttpToolsProtocol`, a subclass of uvicorn's httptools
protocol passed as `http=`, adds a header deadline (armed when a connection is made or
the next request starts, cancelled when its headers are complete), a body deadline, and
a registry shared by all connections that caps them (from the file limit) and, at the
cap, evicts the connection that has waited longest for its headers. `BodySlots`
(`bot.http.bodies`) caps the bodies read at once, cutting off the slowest. Why this and
not something else:

- uvicorn has no header or body timeout (only `timeout_keep_alive`, for idle kept-alive
  connections) and its `limit_concurrency` counts idle connections, so it would refuse
  real requests during a flood instead of shedding the flood;
- uvicorn's parser parses exactly as before (httptools, the C one, since it is a
  dependency: under a 200-event burst it cut a Slack ack's server-side share from p99
  ~135 ms with h11 to ~43 ms; h11's subclass is the fallback): the subclass only adds
  timers and bookkeeping around `connection_made`, `data_received`, the parser's
  callbacks and `on_response_complete`, so keep-alive, pipelining, graceful shutdown
  and every route are unchanged;
- another server (hypercorn, granian) or a proxy in front would also do it, but the
  bot would then depend on how it is deployed; this holds for `travel-bot serve` alone.

Errors under pressure are logged once per kind per interval (`bot.http.notices`): the
event loop's own errors (accept() failing with EMFILE, resets) through a loop exception
handler, uvicorn's per-request lines through a filter on its logger.

With `METRICS_PORT`, a second socket (bound to `METRICS_HOST`, localhost by default) is
served by the same uvicorn; requests on it are marked (`METRICS_LISTENER`) and `WebApp`
serves them `/metrics`, `/healthz` and `/readyz` only.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
import threading
import time
from typing import TYPE_CHECKING, Any

import uvicorn

from bot.http.app import METRICS_LISTENER
from bot.http.asgi import Receive, Route, Scope, Send
from bot.http.bodies import BodySlots
from bot.http.connections import ConnectionGuard, Limits, guarded_protocol
from bot.http.notices import Notices, Throttle

if TYPE_CHECKING:
    from bot.http.app import WebApp

log = logging.getLogger(__name__)

_BACKLOG = 2048  # the kernel's queue of connections not yet accepted
# Connections accepted per wake-up: each takes a descriptor before the guard sees it, so
# a batch stays well within HTTP_RESERVED_FILES and accept() does not hit EMFILE first.
_ACCEPT_BATCH = 32
_uvicorn_throttle = Throttle()


class Server:
    """uvicorn serving a `WebApp` on a socket bound up front (port 0 picks a free one),
    and on the metrics listener when `METRICS_PORT` is set."""

    def __init__(
        self,
        web_app: WebApp,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        limits: Limits | None = None,
        metrics_host: str = "127.0.0.1",
        metrics_port: int | None = None,
        forwarded_allow_ips: str = "127.0.0.1,::1",
        keep_alive: int = 75,
    ) -> None:
        self.web_app = web_app
        self.socket = _listen(host, port)
        self.metrics_socket: socket.socket | None = None
        if metrics_port is not None:
            if metrics_port == self.port:
                self.socket.close()
                raise ValueError("METRICS_PORT must differ from the port serving requests")
            try:
                self.metrics_socket = _listen(metrics_host, metrics_port)
            except OSError:
                self.socket.close()
                raise
        self.notices = Notices(log)
        limits = limits if limits is not None else Limits()
        self.guard = ConnectionGuard(limits, self.notices)
        self.bodies = app = BodySlots(
            _Listeners(web_app, self.metrics_port),
            max_bodies=limits.max_bodies,
            wait=limits.body_timeout,
            notices=self.notices,
        )
        config = uvicorn.Config(
            app,
            http=guarded_protocol(self.guard),
            lifespan="on",
            log_level="warning",
            access_log=False,
            timeout_keep_alive=keep_alive,  # an idle kept-alive connection is closed
            timeout_graceful_shutdown=30,
            backlog=_ACCEPT_BATCH,  # asyncio accepts this many at a time (see startup)
            forwarded_allow_ips=forwarded_allow_ips,  # FORWARDED_ALLOW_IPS, from .env too
        )
        uvicorn_log = logging.getLogger("uvicorn.error")
        if _uvicorn_throttle not in uvicorn_log.filters:
            uvicorn_log.addFilter(_uvicorn_throttle)
        self._server = _Uvicorn(config, self.notices)
        self._thread: threading.Thread | None = None

    @property
    def sockets(self) -> list[socket.socket]:
        return [self.socket] + ([self.metrics_socket] if self.metrics_socket else [])

    @property
    def port(self) -> int:
        return int(self.socket.getsockname()[1])

    @property
    def metrics_port(self) -> int | None:
        if self.metrics_socket is None:
            return None
        return int(self.metrics_socket.getsockname()[1])

    @property
    def url(self) -> str:
        return _url(self.socket)

    @property
    def metrics_url(self) -> str | None:
        return _url(self.metrics_socket) if self.metrics_socket is not None else None

    def serve_forever(self) -> None:
        """Serve in this (main) thread until SIGINT/SIGTERM, then return normally.

        uvicorn re-raises the stop signal once it has shut down; handlers installed here
        absorb it, so the caller can still finish queued work and close connections.
        """
        stop_signals = (signal.SIGINT, signal.SIGTERM)
        previous = {sig: signal.signal(sig, _note_signal) for sig in stop_signals}
        try:
            self._server.run(sockets=self.sockets)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def start(self, timeout: float = 10.0) -> Server:
        """Serve in a background thread; returns once the server accepts requests."""
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": self.sockets}, daemon=True
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
        for sock in self.sockets:
            sock.close()


class _Uvicorn(uvicorn.Server):
    """uvicorn's server with the event loop's errors logged once per kind per interval
    (accept() failing with EMFILE is reported there, once per failed accept)."""

    def __init__(self, config: uvicorn.Config, notices: Notices) -> None:
        super().__init__(config)
        self.notices = notices

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        asyncio.get_running_loop().set_exception_handler(self._loop_error)
        await super().startup(sockets=sockets)
        # asyncio listens with the accept batch as backlog; the kernel queue stays long.
        for sock in sockets or ():
            sock.listen(_BACKLOG)

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        message = str(context.get("message") or "event loop error")
        exc = context.get("exception")
        kind = f"{message} {type(exc).__name__}" if exc is not None else message
        self.notices.warning(kind, "%s: %s", message, exc if exc is not None else "-")


class _Listeners:
    """Marks the requests that came in on the metrics listener (`METRICS_LISTENER`)."""

    def __init__(self, app: Route, metrics_port: int | None) -> None:
        self.app = app
        self.metrics_port = metrics_port

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.metrics_port is not None and scope["type"] == "http":
            server = scope.get("server")
            if server is not None and server[1] == self.metrics_port:
                scope = {**scope, METRICS_LISTENER: True}
        await self.app(scope, receive, send)


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(_BACKLOG)
        sock.set_inheritable(True)
    except OSError:
        sock.close()
        raise
    return sock


def _url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{port}"


def _note_signal(signum: int, frame: Any) -> None:
    log.info("received signal %d; shutting down", signum)


__all__ = ["Server"]
