"""Acknowledged Slack events handed to Bolt: at once when alone, after the burst's acks.

`POST /slack/events` answers an Events API event 200 before Bolt sees it
(`bot.slack.http`). Bolt then runs on the dispatch pool, its listener claims the message
and the turn starts: work that competes with the event loop for the GIL, so under a
burst of events (Slack replaying a backlog) acknowledging the last ones would wait for
the first ones' work. `Handoff` gives the acks priority: an event that arrives when
none came for `quiet_seconds` is dispatched at once (no delay for a lone message);
events arriving within `quiet_seconds` of each other are held until none has come for
that long, or the oldest has waited `max_wait_seconds`, then dispatched together, one
after the other on one thread of the dispatch pool. The event loop decides when the
burst is over (a timer, which runs only once the loop has answered the requests waiting
for it, so a loop slowed by the burst holds the events longer); the thread waits for
that, asleep, and on shutdown the pool finishes its job before the listeners stop, so no
acknowledged event is lost. Figures in bench/README.md ("Slack acks under a burst").

`add` and the timer run on the event loop; the jobs on the dispatch pool.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from slack_bolt.request import BoltRequest

    from bot.metrics import Metrics

log = logging.getLogger(__name__)

QUIET_SECONDS = 0.015
MAX_WAIT_SECONDS = 1.0


class Handoff:
    """Events to `dispatch` on `pool`; see the module docstring. Thread-safe."""

    def __init__(
        self,
        dispatch: Callable[[BoltRequest], Any],
        pool: ThreadPoolExecutor,
        metrics: Metrics,
        *,
        quiet_seconds: float = QUIET_SECONDS,
        max_wait_seconds: float = MAX_WAIT_SECONDS,
    ) -> None:
        self.dispatch = dispatch
        self.pool = pool
        self.metrics = metrics
        self.quiet_seconds = quiet_seconds
        self.max_wait_seconds = max_wait_seconds
        self._lock = threading.Lock()
        self._held: list[BoltRequest] = []
        self._last = float("-inf")  # when the latest event was acknowledged
        self._waiting = False  # a job on the pool waits to dispatch the held events
        self._go = threading.Event()  # set by the loop when the burst is over
        self._timer: asyncio.TimerHandle | None = None

    def add(self, request: BoltRequest) -> None:
        """An acknowledged event (on the event loop): dispatch it now, or hold it."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        with self._lock:
            alone = now - self._last >= self.quiet_seconds and not self._waiting
            self._last = now
            go: threading.Event | None = None
            if not alone:
                self._held.append(request)
                if not self._waiting:
                    self._waiting, self._go = True, threading.Event()
                    go = self._go
        if alone:
            self._submit(self._run, [request])
            return
        if go is not None:
            self._submit(self._wait_then_run, go)
        if self._timer is None:
            self._timer = loop.call_later(self.quiet_seconds, self._check_quiet, loop)

    def _check_quiet(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the loop, once it has answered what was waiting: is the burst over?"""
        self._timer = None
        quiet_for = loop.time() - self._last
        if quiet_for < self.quiet_seconds:
            self._timer = loop.call_later(self.quiet_seconds - quiet_for, self._check_quiet, loop)
            return
        self._go.set()

    def _wait_then_run(self, go: threading.Event) -> None:
        """On the pool (asleep, not holding the GIL): wait for the loop to say the burst
        is over, or `max_wait_seconds`, then dispatch what it held. The pool's shutdown
        waits for this job, so a held event is never lost, even when the loop has stopped
        and its timer never fires."""
        go.wait(self.max_wait_seconds)
        with self._lock:
            held, self._held, self._waiting = self._held, [], False
        self._run(held)

    def _submit(self, job: Callable[[Any], None], arg: Any) -> None:
        """One job on the dispatch pool for a lone event or a burst: Bolt's part of an
        event is quick, and a command's dispatch (waiting on its listener) never queues
        behind a burst."""
        try:
            self.pool.submit(job, arg)
        except RuntimeError:  # the pool is shut down (after the server stopped serving)
            with self._lock:
                dropped = arg if isinstance(arg, list) else self._held
                self._held, self._waiting = [], False
            self.metrics.inc("http_rejected_total", reason="shutting_down")
            log.warning("%d Slack events dropped after their ack: shutting down", len(dropped))

    def _run(self, requests: list[BoltRequest]) -> None:
        """Bolt on each event (the dispatch pool); a failure is counted and logged."""
        for request in requests:
            try:
                self.dispatch(request)
            except Exception as exc:
                self.metrics.inc("http_rejected_total", reason="dispatch_error")
                log.warning(
                    "Slack event could not be dispatched (%s at %s)",
                    type(exc).__name__,
                    _where(exc),
                )


def _where(exc: BaseException) -> str:
    """`file.py:line` where `exc` was raised (no message: it may quote the body)."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return "?"
    last = frames[-1]
    return f"{os.path.basename(last.filename)}:{last.lineno}"


__all__ = ["Handoff"]
