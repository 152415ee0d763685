"""Work to do later, unless cancelled first: the "working on it" reply of a slow turn.

One daemon thread keeps a heap of due times for the whole channel, however many
messages are waiting, and hands what falls due to a worker pool (the notice pool),
so it never runs a platform call itself and never holds a thread per message.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

log = logging.getLogger(__name__)


class Timer:
    """One piece of scheduled work; `cancel()` before it is due and it never runs."""

    __slots__ = ("_cancelled", "args", "fn")

    def __init__(self, fn: Callable[..., None], args: tuple[Any, ...]) -> None:
        self.fn = fn
        self.args = args
        self._cancelled = False

    def cancel(self) -> None:
        self._cancelled = True

    @property
    def cancelled(self) -> bool:
        return self._cancelled


class Timers:
    """Schedules `fn(*args)` on `pool` after a delay; thread-safe."""

    def __init__(self, pool: ThreadPoolExecutor) -> None:
        self._pool = pool
        self._heap: list[tuple[float, int, Timer]] = []
        self._order = itertools.count()
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False

    def call_later(self, delay: float, fn: Callable[..., None], *args: Any) -> Timer:
        timer = Timer(fn, args)
        with self._wake:
            if self._closed:
                timer.cancel()
                return timer
            heapq.heappush(self._heap, (time.monotonic() + delay, next(self._order), timer))
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="dingtalk-timers", daemon=True
                )
                self._thread.start()
            self._wake.notify()
        return timer

    def close(self) -> None:
        """Drop everything not yet due and stop the thread."""
        with self._wake:
            self._closed = True
            for _, _, timer in self._heap:
                timer.cancel()
            self._heap.clear()
            self._wake.notify()
            thread = self._thread
        if thread is not None:
            thread.join(timeout=5)

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._closed:
                    if self._heap and self._heap[0][0] <= time.monotonic():
                        break
                    timeout = self._heap[0][0] - time.monotonic() if self._heap else None
                    self._wake.wait(timeout)
                if self._closed:
                    return
                _, _, timer = heapq.heappop(self._heap)
            if timer.cancelled:
                continue
            try:
                self._pool.submit(timer.fn, *timer.args)
            except RuntimeError:  # the pool is shutting down
                log.info("dropping a scheduled notice: shutting down")


__all__ = ["Timer", "Timers"]
