"""The Stream connection's health, as a log line and in `/healthz`, and its reconnect back-off.

`StreamHealth` records the connection's state ("starting", "connecting", "connected",
"reconnecting", "stopped"), since when, the last frame or pong heard, and how many
reconnects and why. Every change of state is logged, and `line()` is the health line
the `travel-bot dingtalk` process logs every few minutes; `snapshot()` is what
`/healthz` shows (`ok` only while connected).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from typing import Any

log = logging.getLogger("bot.dingtalk.long_connection")


class StreamHealth:
    """The state of one Stream connection; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.state = "starting"
        self.since = time.time()
        self.last_heard: float | None = None
        self.connects = 0
        self.reconnects = 0
        self.last_error = ""

    def set(self, state: str, error: str = "") -> None:
        with self._lock:
            changed = state != self.state
            self.state = state
            if changed:
                self.since = time.time()
            if state == "connected":
                self.connects += 1
                self.last_heard = time.time()
            if state == "reconnecting":
                self.reconnects += 1
            if error:
                self.last_error = error
        if changed or error:
            level = logging.WARNING if state == "reconnecting" else logging.INFO
            log.log(level, "dingtalk stream %s%s", state, f" ({error})" if error else "")

    def heard(self) -> None:
        """A frame or a pong came in: the connection is alive."""
        with self._lock:
            self.last_heard = time.time()

    @property
    def ok(self) -> bool:
        return self.state == "connected"

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            now = time.time()
            return {
                "ok": self.state == "connected",
                "state": self.state,
                "for_seconds": round(now - self.since, 1),
                "last_heard_seconds_ago": (
                    round(now - self.last_heard, 1) if self.last_heard is not None else None
                ),
                "connects": self.connects,
                "reconnects": self.reconnects,
                "last_error": self.last_error,
            }

    def line(self) -> str:
        """The health line: one line of what `snapshot` says."""
        s = self.snapshot()
        heard = s["last_heard_seconds_ago"]
        return (
            f"dingtalk stream health: {s['state']} for {s['for_seconds']:.0f} s; "
            f"last heard {'never' if heard is None else f'{heard:.0f} s ago'}; "
            f"{s['reconnects']} reconnects"
            + (f"; last error: {s['last_error']}" if s["last_error"] else "")
        )


class Backoff:
    """Exponential delays between reconnects, with jitter, reset after a good connection."""

    def __init__(self, initial: float = 1.0, maximum: float = 60.0) -> None:
        self.initial = initial
        self.maximum = maximum
        self._next = initial

    def next(self) -> float:
        delay = self._next
        self._next = min(self.maximum, self._next * 2)
        return delay * random.uniform(0.8, 1.2)

    def reset(self) -> None:
        self._next = self.initial


__all__ = ["Backoff", "StreamHealth"]
