"""The expiry teller: the loop of a process serving chat platforms that tells travellers
their approval request expired.

The `clock` process expires requests but holds no channel, so it cannot tell anybody; a
process that serves chat platforms (`travel-bot serve` and each long-connection verb) runs
this small thread whatever `SCHEDULER_IN_WEB` says: every `APPROVAL_TELL_INTERVAL_SECONDS` it
tells each expired request's traveller nobody has told yet, and each traveller whose telling
(of an expiry, or of an approver's decision) the platform failed for a passing reason and
is due another try
(`bot.flows.approvals.ApprovalFlows.tell_expired`, `bot.flows.tellings`), claiming each
telling in the database, so several instances, and restarts, tell each traveller once (a
claim whose process died mid-send is taken again, by one, after
`bot.policy.tellings.CLAIM_TTL`; only the claim's holder records what became of it). It
is the one teller: with `SCHEDULER_IN_WEB=true` the sweep in the web process expires
only, as the clock's does (a late click, which tells at once, is the one other way). It
reads only the platforms this process serves, warms no cache and expires nothing. With
nothing to tell a tick is one indexed query.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)


class ExpiryTeller:
    """Calls `tell` every `interval_seconds` on a daemon thread; `stop()` ends it. `tell`
    is given a `stopping()` to ask between tellings, so a long tick ends with the process."""

    def __init__(
        self, *, tell: Callable[[Callable[[], bool]], int], interval_seconds: float
    ) -> None:
        self.tell = tell
        self.interval_seconds = interval_seconds
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.ticks = 0
        self.ticked = threading.Event()  # set after each tick (tests and health checks)

    def start(self) -> ExpiryTeller:
        """Start the loop; its first tick runs at once (what expired while no process
        served the platform is told on start-up)."""
        self._thread = threading.Thread(target=self._run, name="expiry-teller", daemon=True)
        self._thread.start()
        return self

    def run_once(self) -> int:
        """One tick: how many travellers it told; a failure is logged, never raised, so
        the loop goes on and the next tick tries again."""
        try:
            told = self.tell(self._stop.is_set)
        except Exception:
            log.exception("telling travellers of expired approvals failed")
            told = 0
        if told:
            log.info("told %d traveller(s) what became of their approval request", told)
        self.ticks += 1
        self.ticked.set()
        return told

    def _run(self) -> None:
        while not self._stop.is_set():
            self.run_once()
            self._stop.wait(self.interval_seconds)

    def stop(self, *, timeout: float = 10.0) -> None:
        """End the loop; a tick under way finishes first (up to `timeout` seconds)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()


__all__ = ["ExpiryTeller"]
