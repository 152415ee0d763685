"""Warming the preference cache of travellers whose trips start soon or are under way.

A traveller about to leave will ask the bot things; their preference summary should
already be in Redis so the first answer is fast. One pass:

1. streams the due travellers from the trip store, a batch at a time (`TripStore.due`
   holds no transaction between batches);
2. skips those whose facts are cached already (one pipelined HEXISTS per batch): a
   recall for any request is then answered without the store;
3. claims the rest in this interval's "warmed" set (pipelined SADD): a traveller
   another pass already claimed in this interval is left alone;
4. runs `Memory.warm` for each claimed traveller on a bounded thread pool: it caches
   the traveller's facts (with their embeddings) and general summary with the normal
   TTL, as any recall does; a traveller with nothing remembered is counted and
   nothing is cached.

A Redis lock covers the pass (SET NX PX with a random token, renewed after each batch,
released by a compare-and-delete script). Its expiry is shorter than the interval, so a
crashed holder never blocks the next interval; the per-interval claims keep a second
pass in the same interval (a manual `travel-bot warm --once` after the clock's, or a
pass that outlived its lock) from warming anyone twice.

Failures stay per traveller: a failed recall is counted and logged (namespace only) and
the pass goes on. With Redis down the pass does nothing and says so.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import islice
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from memory.cache import FACTS
from memory.errors import MemoryEngineError

if TYPE_CHECKING:
    from bot.planning.trips import TripStore
    from memory.protocol import LongTermMemory

log = logging.getLogger(__name__)

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

_EXTEND = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""


@dataclass(slots=True)
class WarmReport:
    """What one pass did: `due` = warmed + already_cached + recently_warmed + empty + failed.

    `skipped` says why a pass did nothing ("locked", "redis-unavailable",
    "cache-disabled"); `aborted` why it stopped early ("redis-unavailable",
    "database-unavailable", "lock-lost", "stopped"), with the counts up to then.
    """

    due: int = 0
    warmed: int = 0
    already_cached: int = 0
    failed: int = 0
    empty: int = 0
    recently_warmed: int = 0
    seconds: float = 0.0
    skipped: str | None = None
    aborted: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "due": self.due,
            "warmed": self.warmed,
            "already_cached": self.already_cached,
            "failed": self.failed,
            "seconds": round(self.seconds, 3),
            "empty": self.empty,
            "recently_warmed": self.recently_warmed,
        }
        if self.skipped:
            data["skipped"] = self.skipped
        if self.aborted:
            data["aborted"] = self.aborted
        return data


class RedisLock:
    """A lock with an expiry, held under a random token so only its holder can free it."""

    def __init__(self, client: Any, key: str, ttl_seconds: float) -> None:
        self._client = client
        self.key = key
        self.ttl_ms = max(1, int(ttl_seconds * 1000))
        self.token = secrets.token_hex(16)
        self._release = client.register_script(_RELEASE)
        self._extend = client.register_script(_EXTEND)

    def acquire(self) -> bool:
        return bool(self._client.set(self.key, self.token, nx=True, px=self.ttl_ms))

    def extend(self) -> bool:
        """Push the expiry out again; False when the lock expired and may be someone else's."""
        return bool(self._extend(keys=[self.key], args=[self.token, self.ttl_ms]))

    def release(self) -> bool:
        return bool(self._release(keys=[self.key], args=[self.token]))


def _batches(items: Iterable[str], size: int) -> Iterator[list[str]]:
    iterator = iter(items)
    while batch := list(islice(iterator, size)):
        yield batch


class Warmer:
    """Runs warming passes; thread-safe, and safe to run in several processes at once."""

    def __init__(
        self,
        *,
        memory: LongTermMemory,
        trips: TripStore,
        redis: Any | None,
        key_prefix: str = "",
        horizon_hours: float = 72.0,
        interval_seconds: float = 900.0,
        concurrency: int = 4,
        batch_size: int = 200,
        lock_ttl_seconds: float | None = None,
    ) -> None:
        if interval_seconds <= 0:
            raise ValueError("the warming interval must be positive")
        self.memory = memory
        self.trips = trips
        self.redis = redis
        self.key_prefix = key_prefix
        self.horizon_hours = horizon_hours
        self.interval_seconds = interval_seconds
        self.concurrency = max(1, concurrency)
        self.batch_size = max(1, batch_size)
        # Longer than a batch takes (the lock is renewed after each one), shorter than
        # the interval, so a crashed holder never costs the next interval.
        self.lock_ttl_seconds = (
            lock_ttl_seconds if lock_ttl_seconds is not None else min(300.0, interval_seconds / 2)
        )

    @property
    def lock_key(self) -> str:
        return f"{self.key_prefix}warm:lock"

    def warmed_key(self, moment: datetime) -> str:
        """The set of travellers claimed in the interval window that contains `moment`."""
        window = int(moment.timestamp() // self.interval_seconds)
        return f"{self.key_prefix}warm:warmed:{window}"

    # -- one pass -----------------------------------------------------------------------

    def run_once(
        self, *, now: datetime | None = None, stop: threading.Event | None = None
    ) -> WarmReport:
        """One pass over the travellers due at `now` (default: the current time)."""
        started = time.monotonic()
        report = WarmReport()
        if self.redis is None or not self.memory.cache.enabled:
            report.skipped = "cache-disabled"
            log.info("cache warming skipped: no Redis cache is configured")
            return report
        moment = now if now is not None else datetime.now(UTC)
        lock = RedisLock(self.redis, self.lock_key, self.lock_ttl_seconds)
        try:
            acquired = lock.acquire()
        except RedisError as exc:
            report.skipped = "redis-unavailable"
            log.warning("cache warming skipped: Redis unavailable (%s)", type(exc).__name__)
            return report
        if not acquired:
            report.skipped = "locked"
            log.info("cache warming skipped: another pass holds the lock")
            return report
        try:
            self._pass(moment, lock, report, stop)
        finally:
            with contextlib.suppress(RedisError):  # if not, it expires on its own
                lock.release()
            report.seconds = time.monotonic() - started
        log.info(
            "cache warming: due=%d warmed=%d already_cached=%d recently_warmed=%d "
            "empty=%d failed=%d in %.1fs%s",
            report.due,
            report.warmed,
            report.already_cached,
            report.recently_warmed,
            report.empty,
            report.failed,
            report.seconds,
            f" (aborted: {report.aborted})" if report.aborted else "",
        )
        return report

    def _pass(
        self,
        moment: datetime,
        lock: RedisLock,
        report: WarmReport,
        stop: threading.Event | None,
    ) -> None:
        marker = self.warmed_key(moment)
        counts = threading.Lock()
        # At most this many recalls queued or running: memory stays flat however many
        # travellers are due, and the pool never holds more connections than workers.
        slots = threading.BoundedSemaphore(self.concurrency * 2)
        due = self.trips.due(moment, self.horizon_hours, batch_size=self.batch_size)
        pool = ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="warm")
        try:
            for batch in _batches(due, self.batch_size):
                if stop is not None and stop.is_set():
                    report.aborted = "stopped"
                    break
                if not lock.extend():
                    report.aborted = "lock-lost"
                    log.warning("cache warming stopped: the lock expired during the pass")
                    break
                claimed = self._claim(batch, marker, report, counts)
                for namespace in claimed:
                    slots.acquire()
                    pool.submit(self._warm_one, namespace, marker, report, counts, slots)
        except RedisError as exc:
            report.aborted = "redis-unavailable"
            log.warning("cache warming stopped: Redis unavailable (%s)", type(exc).__name__)
        except MemoryEngineError as exc:
            report.aborted = "database-unavailable"
            log.warning("cache warming stopped: cannot list trips (%s)", type(exc).__name__)
        finally:
            pool.shutdown(wait=True)

    def _claim(
        self, batch: list[str], marker: str, report: WarmReport, counts: threading.Lock
    ) -> list[str]:
        """The batch's travellers whose facts are not cached that no other pass has claimed."""
        key = self.memory.cache.key
        pipe = self.redis.pipeline(transaction=False)  # type: ignore[union-attr]
        for namespace in batch:
            pipe.hexists(key(namespace), FACTS)
        entries = pipe.execute()
        missing = [ns for ns, found in zip(batch, entries, strict=True) if not found]
        claimed: list[str] = []
        if missing:
            pipe = self.redis.pipeline(transaction=False)  # type: ignore[union-attr]
            for namespace in missing:
                pipe.sadd(marker, namespace)
            pipe.expire(marker, max(1, int(self.interval_seconds * 2)))
            added = pipe.execute()[:-1]
            claimed = [ns for ns, new in zip(missing, added, strict=True) if new]
        with counts:
            report.due += len(batch)
            report.already_cached += len(batch) - len(missing)
            report.recently_warmed += len(missing) - len(claimed)
        return claimed

    def _warm_one(
        self,
        namespace: str,
        marker: str,
        report: WarmReport,
        counts: threading.Lock,
        slots: threading.BoundedSemaphore,
    ) -> None:
        try:
            outcome: str
            try:
                outcome = self.memory.warm(namespace)
            except Exception as exc:  # any failure is this traveller's alone
                log.warning("warming %s failed (%s)", namespace, type(exc).__name__)
                outcome = "failed"
            if outcome == "unfilled":
                log.warning("warming %s: the cache did not take the summary", namespace)
                outcome = "failed"
            if outcome == "failed":
                self._unclaim(namespace, marker)
            with counts:
                if outcome == "warmed":
                    report.warmed += 1
                elif outcome == "cached":
                    report.already_cached += 1
                elif outcome == "empty":
                    report.empty += 1
                else:
                    report.failed += 1
        finally:
            slots.release()

    def _unclaim(self, namespace: str, marker: str) -> None:
        """Let a later pass in this interval try a traveller whose recall failed."""
        with contextlib.suppress(RedisError):
            self.redis.srem(marker, namespace)  # type: ignore[union-attr]
