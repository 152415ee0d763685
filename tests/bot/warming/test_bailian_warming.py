"""Warming travellers whose memory is in Bailian: their first question needs no call."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import redis

from bot.planning.trips import TripStore
from bot.warming.warmer import Warmer
from memory.backends import backend_from_dsn
from tests.conftest import BailianFactory
from tests.support.bailian_api import Fail, FakeBailian

NOW = datetime(2030, 3, 1, 10, 0, tzinfo=UTC)


def test_a_pass_caches_bailian_travellers_and_counts_a_failure(
    make_bailian: BailianFactory,
    bailian: FakeBailian,
    redis_prefix: str,
    redis_client: redis.Redis,
    tmp_path: Path,
) -> None:
    prefix = f"{redis_prefix}{uuid.uuid4().hex[:8]}:"
    memory = make_bailian(redis_key_prefix=prefix)
    trips = TripStore(backend_from_dsn(f"sqlite:///{tmp_path}/trips.db"), timezone=UTC)
    soon, empty, broken = (f"T{n}:U{uuid.uuid4().hex[:6].upper()}" for n in range(3))
    for namespace in (soon, empty, broken):
        trips.add(namespace, "Chengdu", NOW.date() + timedelta(days=1), created_by="test")
    bailian.add_node(soon, "I never take red-eye flights")
    bailian.add_node(broken, "出差只坐高铁一等座")
    bailian.fault(*[Fail(503)] * 4, user=broken)  # its listing fails, every retry
    warmer = Warmer(
        memory=memory, trips=trips, redis=redis_client, key_prefix=prefix, concurrency=1
    )
    report = warmer.run_once(now=NOW)
    trips.close()
    assert (report.due, report.warmed, report.empty, report.failed) == (3, 1, 1, 1)
    assert not redis_client.exists(memory.cache.key(broken))
    bailian.requests.clear()
    recalled = memory.recall(soon, "plan my trip to Chengdu")
    assert recalled.cached and recalled.summary and bailian.requests == []
