"""Acknowledged Slack events handed to Bolt: at once when alone, after the burst's acks.

`POST /slack/events` answers an Events API event 200 before Bolt sees it
(`bot.slack.http`). Bolt then runs on the dispatch pool, its listener claims the message
and the turn starts: work that competes with the event loop for the GIL, so under a
burst of events (Slack replaying a backlog) acknowledging the last ones would wait for
the first ones' work. `Handoff` gives the acks priority: an event that arrives while the
loop is quiet is dispatched at once (no delay for a lone message); events arriving
within `quiet_seconds` of each other are held on the loop until it has been quiet that
long, or the oldest has waited `max_wait_seconds`, then dispatched together, one after
the other on one thread of the dispatch pool. Figures in bench/README.md ("Slack acks
under a burst").

Everything but `_run` runs on the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import os
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
    """Events to `dispatch` on `pool`; see the module docstring."""

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
        self._held: list[BoltRequest] = []
        self._last = float("-inf")  # when the latest event was acknowledged (loop time)
        self._first = 0.0  # when the oldest held event was
        self._timer: asyncio.TimerHandle | None = None

    def add(self, request: BoltRequest) -> None:
        """An acknowledged event: dispatch it now, or hold it during a burst."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        alone = now - self._last >= self.quiet_seconds and not self._held
        self._last = now
        if alone:
            self._submit([request])
            return
        if not self._held:
            self._first = now
        self._held.append(request)
        if self._timer is None:
            self._timer = loop.call_later(self.quiet_seconds, self._flush, loop)

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        self._timer = None
        now = loop.time()
        quiet_for = now - self._last
        if quiet_for < self.quiet_seconds and now - self._first < self.max_wait_seconds:
            self._timer = loop.call_later(self.quiet_seconds - quiet_for, self._flush, loop)
            return
        held, self._held = self._held, []
        self._submit(held)

    def _submit(self, requests: list[BoltRequest]) -> None:
        """One job on the dispatch pool per batch: Bolt's part of an event is quick, and
        a command's dispatch (waiting on its listener) never queues behind a burst."""
        try:
            self.pool.submit(self._run, requests)
        except RuntimeError:  # the pool is shut down (after the server stopped serving)
            self.metrics.inc("http_rejected_total", reason="shutting_down")
            log.warning("%d Slack events dropped after their ack: shutting down", len(requests))

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
