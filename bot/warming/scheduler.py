"""The clock: apscheduler runs the cache-warming pass every `WARM_INTERVAL_MINUTES`, and
with it the approval sweep (requests older than `APPROVAL_TTL_DAYS` expire,
`bot.policy.approvals.Approvals.expire_due`).

`travel-bot clock` (the `clock:` line of the Procfile) runs it as its own process
(`bot.cli.warm`). With `SCHEDULER_IN_WEB=true` the web process runs it instead, through
`start_in_process`. The sweep only expires, in either: each process serving the
platforms tells on a loop of its own (`bot.flows.expiry`), whatever `SCHEDULER_IN_WEB`
says, so the telling has one owner (its claims and retries in one place). Several clocks at
once are safe: the pass takes a Redis lock, and an expiry is a conditional UPDATE.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import UTC, datetime

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.interval import IntervalTrigger

from bot.warming.warmer import Warmer, WarmReport

log = logging.getLogger(__name__)

JOB_ID = "warm-preference-cache"


class WarmClock:
    """Runs `Warmer.run_once` every interval on a background thread; `stop()` ends it."""

    def __init__(
        self,
        warmer: Warmer,
        *,
        interval_seconds: float,
        on_stop: Callable[[], None] | None = None,
        sweep: Callable[[], int] | None = None,
    ) -> None:
        self.warmer = warmer
        self.sweep = sweep
        self.interval_seconds = interval_seconds
        self._on_stop = on_stop
        self._stop = threading.Event()
        self._scheduler = BackgroundScheduler(timezone=UTC)
        self.passes = 0
        self.last_report: WarmReport | None = None
        self.ran = threading.Event()  # set after each pass (tests and health checks)

    def start(self, *, first_run: datetime | None = None) -> None:
        """Schedule the pass; the first one runs at `first_run` (default: now)."""
        self._scheduler.add_job(
            self._tick,
            IntervalTrigger(seconds=self.interval_seconds, timezone=UTC),
            id=JOB_ID,
            name="warm the preference cache of travellers about to leave",
            next_run_time=first_run or datetime.now(UTC),
            max_instances=1,
            coalesce=True,
            misfire_grace_time=max(1, int(self.interval_seconds / 2)),
        )
        self._scheduler.start()

    def _tick(self) -> None:
        if self.sweep is not None:
            try:
                expired = self.sweep()
                if expired:
                    log.info("%d approval request(s) expired", expired)
            except Exception:  # the warming pass still runs
                log.exception("the approval sweep failed")
        try:
            report = self.warmer.run_once(stop=self._stop)
        except Exception:  # keep the clock alive for the next interval
            log.exception("cache warming pass failed")
            return
        self.passes += 1
        self.last_report = report
        self.ran.set()

    def stop(self, *, wait: bool = True) -> None:
        """Stop scheduling; a running pass stops after its current batch."""
        self._stop.set()
        if self._scheduler.running:
            self._scheduler.shutdown(wait=wait)
        if self._on_stop is not None:
            self._on_stop()
            self._on_stop = None


def start_in_process(
    warmer: Warmer,
    *,
    first_run: datetime | None = None,
    on_stop: Callable[[], None] | None = None,
    sweep: Callable[[], int] | None = None,
) -> WarmClock:
    """Run `warmer` every interval on a background thread of this process (the `clock`
    process's, or the web one's); `stop()` ends it and calls `on_stop`. The composition
    root builds the warmer from the settings (`bot.compose.parts.start_warm_clock`).
    `sweep`: the approval sweep run before each pass (none: no sweep)."""
    clock = WarmClock(
        warmer, interval_seconds=warmer.interval_seconds, on_stop=on_stop, sweep=sweep
    )
    clock.start(first_run=first_run)
    log.info(
        "cache warming every %d min for trips within %g h",
        round(warmer.interval_seconds / 60),
        warmer.horizon_hours,
    )
    return clock


__all__ = ["JOB_ID", "WarmClock", "start_in_process"]
