"""At most so many request bodies read at once, the slowest cut off to make room.

A route keeps a body in memory while it reads it (up to `HTTP_MAX_BODY_BYTES`, refused
earlier when the declared length is larger: `bot.http.asgi.read_body`), so many clients
sending large bodies slowly would hold that much memory each. `BodySlots` is ASGI
middleware that lets `max_bodies` requests read their bodies at once; a slot is taken
when the route starts and given back as soon as the whole body is in (not when the
route has answered). A request that finds every slot taken cuts off the body that has
been arriving longest, if that one has taken more than `grace` seconds (a real
client's body arrives in milliseconds), else it waits for a slot up to `wait` seconds
and is then answered 503. A body cut off is answered 408 and its connection closed.
So memory stays within `max_bodies` x `HTTP_MAX_BODY_BYTES` plus what uvicorn buffers
per connection (64 KiB before it stops reading), and slow bodies cannot starve the
real ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING

from bot.http.asgi import ClientDisconnected, Message, Receive, Scope, Send
from bot.http.notices import Notices

if TYPE_CHECKING:
    from bot.http.asgi import Route

log = logging.getLogger(__name__)


class _Reading:
    """One request reading its body: since when, and whether it was cut off."""

    def __init__(self) -> None:
        self.since = time.monotonic()
        self.cut = asyncio.Event()


class BodySlots:
    """ASGI middleware: at most `max_bodies` request bodies are read at once."""

    def __init__(
        self,
        app: Route,
        *,
        max_bodies: int,
        wait: float,
        notices: Notices,
        grace: float = 1.0,
    ) -> None:
        self.app = app
        self.max_bodies = max_bodies
        self.wait = wait
        self.grace = min(grace, wait)
        self.notices = notices
        self._reading: dict[_Reading, None] = {}  # oldest first
        self._freed: asyncio.Event | None = None
        self.cut_off = 0
        self.refused = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _declares_body(scope):
            await self.app(scope, receive, send)
            return
        reading = await self._take()
        if reading is None:
            self.refused += 1
            self.notices.warning(
                "body slots full",
                "%d request bodies being read: a request got 503",
                self.max_bodies,
            )
            await _answer(send, 503, b"busy\n", retry_after=True)
            return
        started = False

        async def receive_body() -> Message:
            if reading.cut.is_set():
                raise ClientDisconnected
            message = await _first(receive(), reading.cut)
            if message is None:  # cut off to make room
                raise ClientDisconnected
            if message["type"] == "http.disconnect" or not message.get("more_body", False):
                self._give_back(reading)
            return message

        async def send_answer(message: Message) -> None:
            nonlocal started
            started = True
            await send(message)

        try:
            await self.app(scope, receive_body, send_answer)
        finally:
            self._give_back(reading)
        if reading.cut.is_set() and not started:
            await _answer(send, 408, b"request body too slow\n")

    async def _take(self) -> _Reading | None:
        """A slot, cutting off the longest-arriving body past its grace; None when none
        came free within `wait`."""
        if self._freed is None:
            self._freed = asyncio.Event()
        deadline = time.monotonic() + self.wait
        while True:
            if len(self._reading) < self.max_bodies:
                reading = _Reading()
                self._reading[reading] = None
                return reading
            oldest = next(iter(self._reading))
            if time.monotonic() - oldest.since >= self.grace:
                self._give_back(oldest)
                oldest.cut.set()
                self.cut_off += 1
                self.notices.warning(
                    "body cut off",
                    "%d request bodies being read: cut off the one arriving longest",
                    self.max_bodies,
                )
                continue
            now = time.monotonic()
            if now >= deadline:
                return None
            left = min(deadline, oldest.since + self.grace) - now
            self._freed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._freed.wait(), timeout=max(0.01, left))

    def _give_back(self, reading: _Reading) -> None:
        if reading in self._reading:
            del self._reading[reading]
            if self._freed is not None:
                self._freed.set()


async def _first(get: Awaitable[Message], cut: asyncio.Event) -> Message | None:
    """The next message from `get`, or None if `cut` is set first."""
    receiving = asyncio.ensure_future(get)
    cutting = asyncio.ensure_future(cut.wait())
    done, _ = await asyncio.wait({receiving, cutting}, return_when=asyncio.FIRST_COMPLETED)
    if receiving in done:
        cutting.cancel()
        message: Message = receiving.result()
        return message
    receiving.cancel()
    return None


async def _answer(send: Send, status: int, body: bytes, *, retry_after: bool = False) -> None:
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close")]
    if retry_after:
        headers.append((b"retry-after", b"1"))
    headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _declares_body(scope: Scope) -> bool:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            return bool(value.strip()) and value.strip() != b"0"
        if name == b"transfer-encoding":
            return True
    return False


__all__ = ["BodySlots"]
