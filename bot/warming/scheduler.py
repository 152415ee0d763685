"""The clock: apscheduler runs the cache-warming pass every `WARM_INTERVAL_MINUTES`, and
with it the approval sweep (requests older than `APPROVAL_TTL_DAYS` expire,
`bot.flows.approvals.ApprovalFlows.sweep`).

`travel-bot clock` (the `clock:` line of the Procfile) runs it as its own process.
With `SCHEDULER_IN_WEB=true` the web process runs it instead, through
`start_in_process`; there the sweep also tells each traveller in the thread where they
asked (the web process holds the channels; a `clock` process only expires, and the state
shows in `travel-bot trips list`, App Home and the preferences page). Several clocks at
once are safe: the pass takes a Redis lock, and an expiry is a conditional UPDATE.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.interval import IntervalTrigger

from bot.warming.warmer import Warmer, WarmReport, open_redis

if TYPE_CHECKING:
    from bot.settings import Settings
    from memory.protocol import LongTermMemory

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
    settings: Settings,
    memory: LongTermMemory,
    *,
    first_run: datetime | None = None,
    sweep: Callable[[], int] | None = None,
) -> WarmClock:
    """Run the warming clock on a background thread of this process, e.g. the web one.

    Uses the caller's `memory`; opens (and on `stop()` closes) its own trip store and
    Redis client. Call `stop()` on shutdown; it does not close `memory`. `sweep`: the
    approval sweep (default: one that expires requests on this trip store and tells
    nobody, for a process without channels).
    """
    from bot.planning.trips import open_trip_store

    trips = open_trip_store(settings)
    client = open_redis(settings)
    if sweep is None:
        sweep = _silent_sweep(settings, trips)

    def close() -> None:
        trips.close()
        if client is not None:
            client.close()

    clock = WarmClock(
        Warmer.from_settings(settings, memory=memory, trips=trips, redis=client),
        interval_seconds=settings.warm_interval_minutes * 60,
        on_stop=close,
        sweep=sweep,
    )
    clock.start(first_run=first_run)
    log.info(
        "cache warming every %d min for trips within %g h",
        settings.warm_interval_minutes,
        settings.warm_horizon_hours,
    )
    return clock


def _silent_sweep(settings: Settings, trips: Any) -> Callable[[], int]:
    """Expire due approval requests on `trips`' database (no channel to tell anyone)."""
    from bot.policy.approvals import open_approvals

    approvals = open_approvals(settings, trips, trips.backend)

    def sweep() -> int:
        return len(approvals.expire_due())

    return sweep


def run_clock(settings: Settings) -> int:
    """The `clock` process: warm every interval until SIGTERM or SIGINT."""
    from memory import open_memory

    memory = open_memory(settings)
    stopping = threading.Event()

    def request_stop(signum: int, frame: Any) -> None:
        stopping.set()

    previous = {sig: signal.signal(sig, request_stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    clock = start_in_process(settings, memory)
    try:
        while not stopping.wait(1.0):
            pass
        log.info("clock stopping")
    finally:
        clock.stop()
        memory.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0
