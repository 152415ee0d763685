"""Cache warming before trips, on real Redis and a real SQLite file / PostgreSQL schema."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import redis

from bot.compose.parts import start_warm_clock
from bot.planning.trips import TripStore
from bot.settings import Settings
from bot.warming.warmer import Warmer, WarmReport
from memory import open_memory
from memory.backends import backend_from_dsn
from memory.cache import FACTS, query_field
from memory.engine import Memory
from memory.errors import StoreUnavailable
from memory.store import Backend, Store, StoredItem
from tests.conftest import MemoryFactory
from tests.support.services import REDIS_URL

TTL = 1234
# 2030-03-01 10:00 UTC: trip dates below are relative to this day.
NOW = datetime(2030, 3, 1, 10, 0, tzinfo=UTC)
TODAY = NOW.date()
INTERVAL = 900.0
DEAD_REDIS = "redis://127.0.0.1:1/0"
TRAVEL_BOT = Path(sys.executable).with_name("travel-bot")


class GatedStore(Store):
    """The real store, except that reading the `broken` namespaces fails like a lost database."""

    def __init__(self, backend: Backend, broken: set[str]) -> None:
        super().__init__(backend)
        self.broken = broken

    def current(self, namespace: str) -> list[StoredItem]:
        if namespace in self.broken:
            raise StoreUnavailable("PostgreSQL store unavailable: OperationalError")
        return super().current(namespace)


@dataclass
class World:
    memory: Memory
    trips: TripStore
    prefix: str
    redis: redis.Redis

    def warmer(self, memory: Memory | None = None, **overrides: Any) -> Warmer:
        options: dict[str, Any] = {
            "key_prefix": self.prefix,
            "horizon_hours": 72,
            "interval_seconds": INTERVAL,
            "concurrency": 4,
            "batch_size": 3,  # several batches even with a handful of travellers
        }
        options.update(overrides)
        return Warmer(memory=memory or self.memory, trips=self.trips, redis=self.redis, **options)

    def key(self, namespace: str) -> str:
        return self.memory.cache.key(namespace)

    def traveller(self, start: date, *facts: str, end: date | None = None) -> str:
        namespace = f"T{uuid.uuid4().hex[:6].upper()}:U{uuid.uuid4().hex[:8].upper()}"
        self.trips.add(namespace, "Chengdu", start, end, created_by="test")
        if facts:
            self.memory.record(namespace, list(facts))
        return namespace


@pytest.fixture
def world(
    dsn: str, make_memory: MemoryFactory, redis_prefix: str, redis_client: redis.Redis
) -> Iterator[World]:
    prefix = f"{redis_prefix}{uuid.uuid4().hex[:8]}:"
    memory = make_memory(redis_key_prefix=prefix, memory_cache_ttl_seconds=TTL)
    trips = TripStore(backend_from_dsn(dsn), timezone=UTC)
    yield World(memory=memory, trips=trips, prefix=prefix, redis=redis_client)
    trips.close()


def ttl(client: Any, key: str) -> int:
    return int(client.ttl(key))


def cached(client: Any, key: str) -> str:
    """The general summary cached (for the empty request: what warming fills)."""
    assert client.hexists(key, FACTS), f"no facts cached under {key}"
    value = client.hget(key, query_field(""))
    assert value is not None, f"nothing cached under {key}"
    return str(value.decode())


def counts(report: WarmReport) -> dict[str, Any]:
    data = report.to_json()
    del data["seconds"]
    return data


def zeros(**extra: str) -> dict[str, Any]:
    data: dict[str, Any] = {
        "due": 0,
        "warmed": 0,
        "already_cached": 0,
        "failed": 0,
        "empty": 0,
        "recently_warmed": 0,
    }
    data.update(extra)
    return data


def test_pass_fills_missing_entries_of_due_travellers(world: World) -> None:
    soon = world.traveller(TODAY + timedelta(days=1), "I never take red-eye flights")
    under_way = world.traveller(
        TODAY - timedelta(days=2), "出差只坐高铁一等座", end=TODAY + timedelta(days=2)
    )
    warm_already = world.traveller(TODAY + timedelta(days=2), "I prefer aisle seats")
    nothing_remembered = world.traveller(TODAY + timedelta(days=1))
    later = world.traveller(TODAY + timedelta(days=10), "Breakfast must be included")
    over = world.traveller(
        TODAY - timedelta(days=5), "I like Marriott hotels", end=TODAY - timedelta(days=1)
    )
    assert "aisle" in world.memory.retrieve(warm_already).lower()
    world.redis.expire(world.key(warm_already), 100)

    report = world.warmer().run_once(now=NOW)

    assert counts(report) == {
        "due": 4,
        "warmed": 2,
        "already_cached": 1,
        "failed": 0,
        "empty": 1,
        "recently_warmed": 0,
    }
    for namespace in (soon, under_way):
        assert TTL - 10 <= ttl(world.redis, world.key(namespace)) <= TTL
    assert "red-eye" in cached(world.redis, world.key(soon))
    assert "高铁一等座" in cached(world.redis, world.key(under_way))
    # Already cached: left alone, its TTL was not renewed.
    assert 0 < ttl(world.redis, world.key(warm_already)) <= 100
    # Nothing remembered: nothing cached, never an empty value. Not due: not touched.
    for namespace in (nothing_remembered, later, over):
        assert not world.redis.exists(world.key(namespace))
    assert not world.redis.exists(world.warmer().lock_key)

    # The traveller's first question is answered from the cache.
    hits = world.memory.cache.stats.hits
    assert "red-eye" in world.memory.retrieve(soon, "plan my trip to Chengdu")
    assert world.memory.cache.stats.hits == hits + 1


def test_one_failing_recall_is_counted_and_the_pass_goes_on(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    travellers = [
        world.traveller(TODAY + timedelta(days=1), f"I prefer {airline}")
        for airline in ("China Eastern", "Air China", "Hainan Airlines")
    ]
    broken = travellers[1]
    gated = Memory(
        store=GatedStore(world.memory.store.backend, broken={broken}),
        cache=world.memory.cache,
        embedder=world.memory.embedder,
        schema=world.memory.schema,
        settings=world.memory.settings,
    )

    with caplog.at_level(logging.WARNING, logger="bot.warming.warmer"):
        report = world.warmer(memory=gated).run_once(now=NOW)

    assert counts(report) == {
        "due": 3,
        "warmed": 2,
        "already_cached": 0,
        "failed": 1,
        "empty": 0,
        "recently_warmed": 0,
    }
    assert not world.redis.exists(world.key(broken))
    assert all(world.redis.exists(world.key(ns)) for ns in travellers if ns != broken)
    logged = caplog.text
    assert broken in logged and "StoreUnavailable" in logged
    assert "Air China" not in logged  # the namespace is logged, never what is remembered

    # The failed traveller was not marked as warmed: a later pass in the same interval,
    # with the store back, warms it.
    again = world.warmer().run_once(now=NOW + timedelta(minutes=1))
    assert (again.warmed, again.already_cached, again.failed) == (1, 2, 0)
    assert TTL - 10 <= ttl(world.redis, world.key(broken)) <= TTL


def test_a_traveller_is_warmed_once_per_interval(world: World) -> None:
    first = world.traveller(TODAY + timedelta(days=1), "I never take red-eye flights")
    second = world.traveller(TODAY + timedelta(days=1), "I prefer window seats")
    assert world.warmer().run_once(now=NOW).warmed == 2

    # A write empties the first traveller's entry; a second pass in the same interval
    # does not warm them again, the first pass of the next interval does.
    world.memory.record(first, ["Hotel breakfast must be included"])
    assert not world.redis.exists(world.key(first))
    report = world.warmer().run_once(now=NOW + timedelta(minutes=2))
    assert (report.due, report.warmed, report.already_cached, report.recently_warmed) == (
        2,
        0,
        1,
        1,
    )
    assert not world.redis.exists(world.key(first))

    report = world.warmer().run_once(now=NOW + timedelta(seconds=INTERVAL))
    assert (report.warmed, report.already_cached) == (1, 1)
    assert "breakfast" in cached(world.redis, world.key(first)).lower()
    assert world.redis.exists(world.key(second))


def test_two_passes_started_together_warm_each_traveller_once(
    world: World, make_memory: MemoryFactory
) -> None:
    travellers = [
        world.traveller(TODAY + timedelta(days=1 + i % 3), f"I prefer seat row {i} by the window")
        for i in range(24)
    ]
    other_process = make_memory(redis_key_prefix=world.prefix, memory_cache_ttl_seconds=TTL)
    warmers = [world.warmer(batch_size=4), world.warmer(memory=other_process, batch_size=4)]
    barrier = threading.Barrier(2)
    reports: list[WarmReport] = []

    def run(warmer: Warmer) -> None:
        barrier.wait()
        reports.append(warmer.run_once(now=NOW))

    threads = [threading.Thread(target=run, args=(w,)) for w in warmers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert len(reports) == 2
    assert sum(r.warmed for r in reports) == len(travellers)
    assert sum(r.failed for r in reports) == 0
    for report in reports:
        # Either the lock kept it out, or it came after the other and found all warm.
        assert report.skipped == "locked" or report.due == len(travellers)
        if report.skipped:
            assert counts(report) == zeros(skipped="locked")
    for namespace in travellers:
        assert TTL - 10 <= ttl(world.redis, world.key(namespace)) <= TTL


def test_a_crashed_lock_holder_does_not_block_the_next_pass(world: World) -> None:
    traveller = world.traveller(TODAY + timedelta(days=1), "I never take red-eye flights")
    warmer = world.warmer()
    assert warmer.lock_ttl_seconds < warmer.interval_seconds
    # A pass that died holding the lock leaves it to expire.
    world.redis.set(warmer.lock_key, "crashed-holder", px=300)

    blocked = warmer.run_once(now=NOW)
    assert counts(blocked) == zeros(skipped="locked")
    assert not world.redis.exists(world.key(traveller))
    assert world.redis.get(warmer.lock_key) == b"crashed-holder"  # not someone else's to free

    deadline = time.monotonic() + 5
    while world.redis.exists(warmer.lock_key) and time.monotonic() < deadline:
        time.sleep(0.05)
    report = warmer.run_once(now=NOW)
    assert (report.due, report.warmed, report.skipped) == (1, 1, None)
    assert world.redis.exists(world.key(traveller))


def test_redis_down_or_absent_ends_the_pass_cleanly(
    world: World, make_memory: MemoryFactory
) -> None:
    traveller = world.traveller(TODAY + timedelta(days=1), "I never take red-eye flights")
    dead = redis.Redis.from_url(DEAD_REDIS, socket_timeout=0.5, socket_connect_timeout=0.5)
    memory = make_memory(redis_url=DEAD_REDIS, redis_key_prefix=world.prefix)
    started = time.monotonic()
    report = Warmer(memory=memory, trips=world.trips, redis=dead, key_prefix=world.prefix).run_once(
        now=NOW
    )
    assert time.monotonic() - started < 5
    assert counts(report) == zeros(skipped="redis-unavailable")
    dead.close()

    uncached = make_memory(redis_url="")
    report = Warmer(memory=uncached, trips=world.trips, redis=None).run_once(now=NOW)
    assert counts(report) == zeros(skipped="cache-disabled")
    assert not world.redis.exists(world.key(traveller))


def _env(dsn: str, prefix: str, redis_url: str = REDIS_URL) -> dict[str, str]:
    return {
        **os.environ,
        "MEMORY_DSN": dsn,
        "REDIS_URL": redis_url,
        "REDIS_KEY_PREFIX": prefix,
        "MEMORY_CACHE_TTL_SECONDS": str(TTL),
        "TRAVEL_TIMEZONE": "UTC",
        "WARM_HORIZON_HOURS": "72",
    }


@pytest.fixture
def own_memory(redis_prefix: str) -> Iterator[Callable[[str], Memory]]:
    """Memory on a DSN of the test's choosing, with its own Redis key prefix."""
    opened: list[Memory] = []

    def factory(dsn: str) -> Memory:
        prefix = f"{redis_prefix}{uuid.uuid4().hex[:8]}:"
        opened.append(
            open_memory(
                dsn=dsn,
                redis_url=REDIS_URL,
                redis_key_prefix=prefix,
                memory_cache_ttl_seconds=TTL,
            )
        )
        return opened[-1]

    yield factory
    for memory in opened:
        memory.close()


def test_warm_once_prints_the_counts(
    pg_schema_dsn: str,
    own_memory: Callable[[str], Memory],
    redis_client: redis.Redis,
    tmp_path: Path,
) -> None:
    memory = own_memory(pg_schema_dsn)
    prefix = memory.settings.redis_key_prefix
    trips = TripStore(backend_from_dsn(pg_schema_dsn), timezone=UTC)
    today = datetime.now(UTC).date()
    leaving = "T1:ULEAVING"
    trips.add(leaving, "Chengdu", today + timedelta(days=1), created_by="test")
    memory.record(leaving, ["出差只坐高铁一等座", "I never take red-eye flights"])
    trips.add("T1:UNOTHING", "Beijing", today + timedelta(days=1), created_by="test")
    trips.add("T1:ULATER", "Xi'an", today + timedelta(days=20), created_by="test")
    memory.record("T1:ULATER", ["I prefer aisle seats"])
    trips.close()

    done = subprocess.run(
        [str(TRAVEL_BOT), "warm", "--once"],
        env=_env(pg_schema_dsn, prefix),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1
    printed = json.loads(lines[0])
    assert printed["seconds"] >= 0
    del printed["seconds"]
    assert printed == {
        "due": 2,
        "warmed": 1,
        "already_cached": 0,
        "failed": 0,
        "empty": 1,
        "recently_warmed": 0,
    }
    key = memory.cache.key(leaving)
    assert TTL - 10 <= ttl(redis_client, key) <= TTL
    assert "高铁一等座" in memory.retrieve(leaving, "规划去成都的行程")
    assert not redis_client.exists(memory.cache.key("T1:UNOTHING"))
    assert not redis_client.exists(memory.cache.key("T1:ULATER"))

    # Redis down: a clean exit that says so; the next interval tries again.
    down = subprocess.run(
        [str(TRAVEL_BOT), "warm", "--once"],
        env=_env(pg_schema_dsn, prefix, redis_url=DEAD_REDIS),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert down.returncode == 0, down.stderr
    printed = json.loads(down.stdout.strip())
    assert printed["skipped"] == "redis-unavailable"
    assert printed["due"] == printed["warmed"] == 0
    assert "Redis unavailable" in down.stderr


def test_clock_process_warms_and_stops_on_sigterm(
    own_memory: Callable[[str], Memory], redis_client: redis.Redis, tmp_path: Path
) -> None:
    dsn = f"sqlite:///{tmp_path}/memory.db"
    memory = own_memory(dsn)
    prefix = memory.settings.redis_key_prefix
    trips = TripStore(backend_from_dsn(dsn), timezone=UTC)
    trips.add("T1:UCLOCK", "Chengdu", datetime.now(UTC).date(), created_by="test")
    trips.close()
    memory.record("T1:UCLOCK", ["I never take red-eye flights"])
    key = memory.cache.key("T1:UCLOCK")

    process = subprocess.Popen(
        [str(TRAVEL_BOT), "clock"],
        env=_env(dsn, prefix),
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not redis_client.exists(key) and time.monotonic() < deadline:
            assert process.poll() is None, process.communicate()[1]
            time.sleep(0.1)
        assert TTL - 10 <= ttl(redis_client, key) <= TTL
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, stderr
    assert "warmed=1" in stderr


def test_scheduler_in_the_web_process(
    dsn: str, redis_prefix: str, redis_client: redis.Redis, make_memory: MemoryFactory
) -> None:
    prefix = f"{redis_prefix}{uuid.uuid4().hex[:8]}:"
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        memory_dsn=dsn,
        redis_url=REDIS_URL,
        redis_key_prefix=prefix,
        memory_cache_ttl_seconds=TTL,
        travel_timezone="UTC",
        scheduler_in_web=True,
    )
    memory = make_memory(redis_key_prefix=prefix, memory_cache_ttl_seconds=TTL)
    trips = TripStore(backend_from_dsn(dsn), timezone=UTC)
    trips.add("T1:UWEB", "Chengdu", datetime.now(UTC).date(), created_by="test")
    trips.close()
    memory.record("T1:UWEB", ["I prefer window seats"])

    clock = start_warm_clock(settings, memory)
    try:
        assert clock.ran.wait(30)
    finally:
        clock.stop()
    assert clock.last_report is not None and clock.last_report.warmed == 1
    assert TTL - 10 <= ttl(redis_client, memory.cache.key("T1:UWEB")) <= TTL
    # Stopping the clock leaves the web process's memory open.
    assert memory.retrieve("T1:UWEB") == cached(redis_client, memory.cache.key("T1:UWEB"))


def test_a_traveller_recalled_for_any_request_is_already_warm(world: World) -> None:
    facts = [f"I enjoy visiting museum number {n} on weekends" for n in range(10)]
    busy = world.traveller(TODAY + timedelta(days=1), "I never take red-eye flights", *facts)
    # More facts than the summary budget, recalled for one particular request: the
    # recall cached the traveller's facts, so every other request is answered too.
    world.memory.retrieve(busy, "which museums do I like")
    assert world.redis.hexists(world.key(busy), FACTS)

    report = world.warmer().run_once(now=NOW)

    assert (report.warmed, report.already_cached) == (0, 1)
    hits = world.memory.cache.stats.hits
    assert "red-eye" in world.memory.retrieve(busy)
    assert "red-eye" in world.memory.retrieve(busy, "book me a flight to Chengdu")
    assert world.memory.cache.stats.hits == hits + 2
