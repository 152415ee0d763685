"""Log lines that cannot flood the log: one per kind per interval, with a count.

Under pressure (thousands of idle connections, a replay of unsigned requests, the file
limit reached) the same event happens thousands of times a second; one line each, let
alone one traceback each, fills the disk and hides everything else. `Notices.log`
writes the first occurrence of a kind at once, then at most one line per interval,
saying how many were suppressed in between. Kinds are short fixed strings ("bad
signature", "header timeout"), never anything from the request.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

DEFAULT_INTERVAL_SECONDS = 60.0
_MAX_KINDS = 1000  # kinds remembered; beyond, the bookkeeping starts over


class Notices:
    """Rate-limited log lines on `logger`: at most one per kind per `interval` seconds."""

    def __init__(
        self,
        logger: logging.Logger,
        *,
        interval: float = DEFAULT_INTERVAL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self.interval = interval
        self._clock = clock
        self._lock = threading.Lock()
        self._last: dict[str, float] = {}  # kind -> when it was last written
        self._suppressed: dict[str, int] = {}

    def log(
        self, level: int, kind: str, message: str, *args: object, exc_info: bool = False
    ) -> bool:
        """Log `message % args` (kind `kind`) unless one was written within the interval;
        True when this one was written (with the traceback when `exc_info`)."""
        now = self._clock()
        with self._lock:
            last = self._last.get(kind)
            if last is not None and now - last < self.interval:
                self._suppressed[kind] = self._suppressed.get(kind, 0) + 1
                return False
            if len(self._last) >= _MAX_KINDS:
                self._last.clear()
                self._suppressed.clear()
            self._last[kind] = now
            suppressed = self._suppressed.pop(kind, 0)
        if suppressed:
            message += " (%d more like this in the last %.0f s)"
            args = (*args, suppressed, now - last if last is not None else 0.0)
        self.logger.log(level, message, *args, exc_info=exc_info)
        return True

    def warning(self, kind: str, message: str, *args: object) -> bool:
        return self.log(logging.WARNING, kind, message, *args)

    def suppressed(self, kind: str) -> int:
        """How many of `kind` were not written since the last line of it."""
        with self._lock:
            return self._suppressed.get(kind, 0)


class Throttle(logging.Filter):
    """A logging filter with the same rule, for loggers we do not call ourselves
    (uvicorn's "Invalid HTTP request received.", "Exception in ASGI application"): a
    record passes when no record with the same message was let through within the
    interval, and then says how many were dropped."""

    def __init__(
        self,
        interval: float = DEFAULT_INTERVAL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.interval = interval
        self._clock = clock
        self._lock = threading.Lock()
        self._last: dict[str, float] = {}
        self._dropped: dict[str, int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        kind = f"{record.levelno}:{str(record.msg)[:200]}"
        now = self._clock()
        with self._lock:
            last = self._last.get(kind)
            if last is not None and now - last < self.interval:
                self._dropped[kind] = self._dropped.get(kind, 0) + 1
                return False
            if len(self._last) >= _MAX_KINDS:
                self._last.clear()
                self._dropped.clear()
            self._last[kind] = now
            dropped = self._dropped.pop(kind, 0)
        if dropped and isinstance(record.msg, str):
            since = now - last if last is not None else 0.0
            record.msg = f"{record.msg} ({dropped} more like this in the last {since:.0f} s)"
        return True


__all__ = ["DEFAULT_INTERVAL_SECONDS", "Notices", "Throttle"]
