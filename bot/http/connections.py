"""Connections that cannot take the server down: deadlines, a cap, eviction.

uvicorn alone closes an idle keep-alive connection (`timeout_keep_alive`) but never one
that is still sending its request: a client that opens a connection and sends nothing,
or half its headers, or a body one byte a minute, holds a file descriptor for ever, and
enough of them exhaust the process's file limit (accept() then fails with EMFILE and
nothing, not even `/healthz`, gets in). This module adds what is missing, at the
protocol level where the bytes arrive:

- `GuardedHttpToolsProtocol` (uvicorn's httptools protocol, the C parser, used since
  httptools is a dependency) and `GuardedH11Protocol` (h11's, the fallback), each with
  two deadlines: a connection must
  complete its request headers within `header_timeout` of connecting (or of the first
  byte of its next request on a kept-alive connection), and its declared body within
  `body_timeout` of the headers; otherwise it is closed. An idle kept-alive connection
  is still closed by uvicorn's `timeout_keep_alive`, as before.
- `ConnectionGuard`, the registry every protocol instance shares: at most `cap`
  connections are open (by default the file limit minus a reserve for Redis, the
  database, files and outgoing calls). A new connection at the cap evicts the connection
  that has waited longest for its request headers (a client that sends nothing, or an
  idle kept-alive one), so a real request still gets in; when every open connection has
  a request in progress, the new one is answered 503 and closed.

(`bot.http.bodies.BodySlots` caps the request bodies read at once.)

Every closing is counted and logged through `Notices`: one line per kind per interval,
never one per connection.

Why not uvicorn's `limit_concurrency`: it counts every open connection, idle or not, and
answers 503 to new requests once the count is reached, so a flood of connections that
never send anything would make the server refuse exactly the real requests it should let
in. Eviction of the oldest connection still waiting for headers keeps those served.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    _HTTPTOOLS = True
except ImportError:  # pragma: no cover - httptools is a dependency
    HttpToolsProtocol = H11Protocol  # type: ignore[misc,assignment]
    _HTTPTOOLS = False

from bot.http.notices import Notices

log = logging.getLogger(__name__)

_BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 5\r\nretry-after: 1\r\nconnection: close\r\n\r\nbusy\n"
)
_UNLIMITED_FILES = 65_536  # assumed when RLIMIT_NOFILE is unlimited


@dataclass(frozen=True)
class Limits:
    """How long a client may take, and how many may be served at once."""

    header_timeout: float = 10.0
    body_timeout: float = 10.0
    max_connections: int = 0  # 0: the file limit minus `reserved_files`
    reserved_files: int = 128
    max_bodies: int = 32

    def connection_cap(self) -> int:
        """The connections open at once: `max_connections`, else derived from the file
        limit (RLIMIT_NOFILE, soft) less the files the rest of the process needs."""
        if self.max_connections > 0:
            return self.max_connections
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        files = _UNLIMITED_FILES if soft == resource.RLIM_INFINITY else soft
        return max(16, files - self.reserved_files)


class ConnectionGuard:
    """The open connections of one server, and which of them wait for request headers."""

    def __init__(self, limits: Limits, notices: Notices) -> None:
        self.limits = limits
        self.cap = limits.connection_cap()
        self.notices = notices
        self._open: set[_Guarded] = set()
        # Connections waiting for (their next) request headers, longest-waiting first.
        self._waiting: OrderedDict[_Guarded, None] = OrderedDict()
        self.counts = {"evicted": 0, "refused": 0, "header_timeout": 0, "body_timeout": 0}

    @property
    def open_connections(self) -> int:
        return len(self._open)

    def admit(self, protocol: _Guarded) -> bool:
        """Register a new connection; at the cap, evict the longest-waiting one first.
        False when nothing can be evicted (every connection has a request in progress)."""
        while len(self._open) >= self.cap:
            if not self._waiting:
                self.counts["refused"] += 1
                self.notices.warning(
                    "refused",
                    "connection limit (%d) reached with every connection busy: "
                    "a new connection was answered 503",
                    self.cap,
                )
                return False
            victim, _ = self._waiting.popitem(last=False)
            self._open.discard(victim)
            self.counts["evicted"] += 1
            self.notices.warning(
                "evicted",
                "connection limit (%d) reached: closed the connection that waited "
                "longest for its request headers",
                self.cap,
            )
            victim.abort()
        self._open.add(protocol)
        return True

    def waiting(self, protocol: _Guarded) -> None:
        """`protocol` now waits for request headers (newest last)."""
        if protocol in self._open:
            self._waiting[protocol] = None
            self._waiting.move_to_end(protocol)

    def busy(self, protocol: _Guarded) -> None:
        """`protocol` has a request in progress: it is not evicted."""
        self._waiting.pop(protocol, None)

    def forget(self, protocol: _Guarded) -> None:
        self._waiting.pop(protocol, None)
        self._open.discard(protocol)

    def timed_out(self, kind: str, seconds: float) -> None:
        self.counts[kind] += 1
        what = "complete request headers" if kind == "header_timeout" else "its request body"
        self.notices.warning(
            kind, "closed a connection that did not send %s within %.0f s", what, seconds
        )


class _Guarded(asyncio.Protocol):
    """The deadlines and the guard's bookkeeping, for either of uvicorn's HTTP protocols;
    a subclass says where the current request stands (`_stage`)."""

    guard: ConnectionGuard
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    timeout_keep_alive_task: asyncio.TimerHandle | None

    def _init_guard(self) -> None:
        self._header_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        self._refused = False

    def _stage(self) -> str:
        """ "headers" (waiting for a request's headers), "body" (reading its body), or
        "other" (the request is in, or the connection is over)."""
        raise NotImplementedError

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        assert isinstance(transport, asyncio.Transport)
        if not self.guard.admit(self):
            self._refused = True
            transport.write(_BUSY)
            transport.close()
            return
        self.guard.waiting(self)
        self._start_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_timers()
        self.guard.forget(self)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        super().data_received(data)
        self._follow()

    def abort(self) -> None:
        """Close at once (evicted): the descriptor is freed on the next loop turn."""
        self._cancel_timers()
        if self.transport is not None and not self.transport.is_closing():
            self.transport.abort()

    def _follow(self) -> None:
        """Arm or cancel the deadlines for where the current request stands."""
        if self.transport is None or self.transport.is_closing():
            self._cancel_timers()
            return
        stage = self._stage()
        if stage == "headers":  # waiting for (the next) request's headers
            self.guard.waiting(self)
            if self.timeout_keep_alive_task is None:  # bytes of a new request arrived
                self._start_header_timer()
            return
        self.guard.busy(self)
        self._cancel(header=True)
        if stage == "body":
            if self._body_timer is None:
                self._body_timer = self.loop.call_later(
                    self.guard.limits.body_timeout, self._body_too_slow
                )
        else:  # the whole request is in (or the connection is over)
            self._cancel(body=True)

    def _start_header_timer(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(
                self.guard.limits.header_timeout, self._headers_too_slow
            )

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self._stage() == "headers" and not self.transport.is_closing():
            self.guard.timed_out("header_timeout", self.guard.limits.header_timeout)
            self.guard.forget(self)
            self.transport.abort()

    def _body_too_slow(self) -> None:
        self._body_timer = None
        if self._stage() == "body" and not self.transport.is_closing():
            self.guard.timed_out("body_timeout", self.guard.limits.body_timeout)
            self.guard.forget(self)
            self.transport.abort()  # the route reading the body sees a disconnect

    def _cancel(self, *, header: bool = False, body: bool = False) -> None:
        if header and self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None
        if body and self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _cancel_timers(self) -> None:
        self._cancel(header=True, body=True)


class GuardedH11Protocol(_Guarded, H11Protocol):
    """uvicorn's h11 protocol (pure Python) with the deadlines and the shared guard."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._init_guard()

    def _stage(self) -> str:
        state = self.conn.their_state
        if state is h11.IDLE:
            return "headers"
        return "body" if state is h11.SEND_BODY else "other"

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._follow()


class GuardedHttpToolsProtocol(_Guarded, HttpToolsProtocol):
    """uvicorn's httptools protocol (the C parser: a Slack ack's server-side share under
    a 200-event burst fell from p99 ~135 ms to ~43 ms) with the deadlines and the guard.
    The parser's callbacks say where the request stands."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._init_guard()
        self._at = "headers"

    def _stage(self) -> str:
        return self._at

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._at = "headers"

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self._at = "body"

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._at = "other"

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._at == "other":  # kept alive: the next request's headers are awaited
            self._at = "headers"
        self._follow()


def guarded_protocol(guard: ConnectionGuard) -> type[asyncio.Protocol]:
    """The guarded protocol class bound to `guard`, for `uvicorn.Config(http=...)`:
    httptools' (a dependency) when it imports, else h11's."""
    base: type[asyncio.Protocol] = GuardedHttpToolsProtocol if _HTTPTOOLS else GuardedH11Protocol
    return type(base.__name__, (base,), {"guard": guard})


__all__ = [
    "ConnectionGuard",
    "GuardedH11Protocol",
    "GuardedHttpToolsProtocol",
    "Limits",
    "guarded_protocol",
]
