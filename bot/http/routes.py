"""What every chat platform's callback route shares: refusing, reading, handing off.

A channel's transport (`bot/<platform>/http.py`) is an ASGI route that checks its
platform's signature, reads the body within `HTTP_MAX_BODY_BYTES`, checks its shape and
hands it to the channel on the dispatch pool, answering at once. `CallbackRoute` holds
what they all do the same way: 413 for a body over the limit (a larger declared
`Content-Length` before a byte is read), 401 for a request its platform did not sign
(now), logged with the reason only and once a minute per reason with a count of the
others (a wrong secret shows at once; a flood of unsigned requests does not fill the
log), 400 with a short JSON error for a malformed one, and 503 when the dispatch pool is
shut down. Every refusal is counted in `http_rejected_total{reason}`.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from bot.http.asgi import PayloadTooLarge, Receive, Send, read_body, respond
from bot.http.notices import Notices

if TYPE_CHECKING:
    from bot.metrics import Metrics

T = TypeVar("T")

JSON = "application/json"
MALFORMED = json.dumps({"ok": False, "error": "malformed_request"}).encode()
UNAVAILABLE = json.dumps({"ok": False, "error": "shutting_down"}).encode()


@dataclass(frozen=True)
class Intake:
    """What every callback route is given: where it counts, the pool it hands work to,
    and how large a body it reads (`HTTP_MAX_BODY_BYTES`)."""

    metrics: Metrics
    pool: ThreadPoolExecutor
    max_body_bytes: int = 1_048_576


class ShuttingDown(Exception):
    """The dispatch pool no longer takes work; the request was answered 503."""


class CallbackRoute:
    """The shared part of a platform's callback route (see the module docstring)."""

    what = "callback"  # how the log names a request of the platform

    def __init__(self, intake: Intake, *, secret: str, log: logging.Logger) -> None:
        if not secret:
            raise ValueError(f"{self.what}: a secret is required, every request is verified")
        self.metrics = intake.metrics
        self.pool = intake.pool
        self.max_body_bytes = intake.max_body_bytes
        self.log = log
        self._notices = Notices(log)

    async def read(
        self, receive: Receive, headers: Mapping[str, list[str]], send: Send
    ) -> bytes | None:
        """The body, or None once a body over the limit was answered 413."""
        try:
            return await read_body(receive, headers, self.max_body_bytes)
        except PayloadTooLarge:
            self.metrics.inc("http_rejected_total", reason="too_large")
            await self.too_large(send)
            return None

    async def too_large(self, send: Send) -> None:
        await respond(send, 413, b"payload too large")

    async def unsigned(self, send: Send, reason: str) -> None:
        """401 for a request its platform did not sign (now), logged with the reason only."""
        self.metrics.inc("http_rejected_total", reason="signature")
        self._notices.warning(reason, "%s refused (401): %s", self.what, reason)
        await respond(send, 401, b"invalid signature")

    async def malformed(self, send: Send, problem: str) -> None:
        """400 for a request shaped like nothing the platform sends (never the body)."""
        self.metrics.inc("http_rejected_total", reason="malformed")
        self.log.info("malformed %s: %s", self.what, problem)
        await respond(send, 400, MALFORMED, JSON)

    async def hand_off(self, send: Send, fn: Callable[..., T], *args: object) -> T:
        """`fn(*args)` on the dispatch pool; `ShuttingDown` once it answered 503 (the pool
        no longer takes work). What `fn` raises is the caller's."""
        loop = asyncio.get_running_loop()
        try:
            work = loop.run_in_executor(self.pool, fn, *args)
        except RuntimeError:  # the dispatch pool is shut down
            await respond(send, 503, UNAVAILABLE, JSON)
            raise ShuttingDown from None
        return await work


__all__ = ["JSON", "MALFORMED", "UNAVAILABLE", "CallbackRoute", "Intake", "ShuttingDown"]
