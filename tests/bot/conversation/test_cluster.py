"""Warming, message claims and thread history on a real local Redis Cluster (three masters)."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.compose.parts import open_warm_redis
from bot.conversation.claims import Claims
from bot.conversation.incoming import IncomingMessage
from bot.conversation.threads import ThreadHistory, Turn
from bot.planning.trips import TripStore
from bot.settings import Settings
from bot.warming.warmer import Warmer, WarmReport
from memory import open_memory
from memory.backends import backend_from_dsn
from memory.engine import Memory
from tests.support.platforms import SLACK
from tests.support.redis_cluster import LocalCluster

NOW = datetime(2030, 3, 1, 10, 0, tzinfo=UTC)


@pytest.fixture
def prefix() -> str:
    return f"test-{uuid.uuid4().hex[:8]}:"


@pytest.fixture
def client(redis_cluster: LocalCluster) -> Iterator[Any]:
    """The bot's own client for `REDIS_URL=redis+cluster://...`."""
    connection = open_warm_redis(Settings(_env_file=None, redis_url=redis_cluster.url))  # type: ignore[call-arg]
    yield connection
    connection.close()


@pytest.fixture
def memory(redis_cluster: LocalCluster, prefix: str, tmp_path: Path) -> Iterator[Memory]:
    mem = open_memory(
        dsn=f"sqlite:///{tmp_path}/memory.db",
        redis_url=redis_cluster.url,
        redis_key_prefix=prefix,
        memory_cache_ttl_seconds=600,
    )
    yield mem
    mem.close()


def test_warming_passes_share_the_lock_and_the_claims_on_a_cluster(
    memory: Memory, client: Any, prefix: str, tmp_path: Path
) -> None:
    trips = TripStore(backend_from_dsn(f"sqlite:///{tmp_path}/memory.db"), timezone=UTC)
    travellers = [f"T1:U{n:03d}" for n in range(12)]
    for number, namespace in enumerate(travellers):
        trips.add(namespace, "Chengdu", NOW.date() + timedelta(days=1), created_by="test")
        memory.record(namespace, [f"I prefer seat row {number} by the window"])
    trips.add("T1:UNOTHING", "Chengdu", NOW.date() + timedelta(days=1), created_by="test")

    def warmer() -> Warmer:
        return Warmer(memory=memory, trips=trips, redis=client, key_prefix=prefix, batch_size=5)

    reports: list[WarmReport] = []
    barrier = threading.Barrier(2)

    def run() -> None:
        barrier.wait()
        reports.append(warmer().run_once(now=NOW))

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    trips.close()

    assert sum(r.warmed for r in reports) == len(travellers)
    assert sum(r.failed for r in reports) == 0
    assert all(r.skipped in (None, "locked") and r.aborted is None for r in reports)
    assert sum(r.empty for r in reports) == 1
    assert not client.exists(warmer().lock_key)  # released
    assert client.sismember(warmer().warmed_key(NOW), travellers[0])
    assert memory.cache.stats.errors == 0
    # Every traveller's first request is answered from the cache.
    hits = memory.cache.stats.hits
    for namespace in travellers:
        assert "window" in memory.retrieve(namespace, "plan my trip to Chengdu")
    assert memory.cache.stats.hits == hits + len(travellers)


def _message(n: int, event: str) -> IncomingMessage:
    return IncomingMessage(
        platform=SLACK,
        tenant="T1",
        user="U1",
        conversation="C1",
        thread=f"2.{n:06d}",
        message_id=f"2.{n:06d}",
        text="plan my trip",
        kind="dm",
        delivery_id=event,
    )


def test_message_claims_on_a_cluster(client: Any, prefix: str) -> None:
    claims = Claims(client=client, key_prefix=prefix, ttl_seconds=60)
    first = _message(0, "Ev1")
    assert claims.claim_message(first) is True
    assert claims.claim_message(first) is False  # Slack's retry
    # The same message as another event type (a DM and a mention): still one answer.
    assert claims.claim_message(_message(0, "Ev2")) is False
    # Many messages, their keys spread over the cluster's slots, each claimed once.
    assert all(claims.claim_message(_message(n, f"Ev{n}x")) for n in range(1, 41))
    # Claimed in the cluster (not in the in-process fallback), with their expiry.
    assert client.ttl(claims.key("bot:seen:event:Ev1")) > 0
    assert all(client.exists(claims.key(f"bot:seen:msg:T1:C1:2.{n:06d}")) for n in range(1, 41))
    # Released keys in several slots at once: claimable again.
    claims.release("bot:seen:msg:T1:C1:2.000001", "bot:seen:msg:T1:C1:2.000002")
    assert claims.claim("bot:seen:msg:T1:C1:2.000001", "bot:seen:msg:T1:C1:2.000002")


def test_thread_history_on_a_cluster(client: Any, prefix: str) -> None:
    history = ThreadHistory(client=client, key_prefix=prefix)
    history.append("T1:C1:1.0", Turn("user", "plan my trip to Chengdu"))
    assert history.seed("T1:C1:2.0", Turn("user", "出差只坐高铁一等座"))
    history.set_subject("T1:C1:1.0", "T1:U9")
    assert history.load("T1:C1:1.0") == [Turn("user", "plan my trip to Chengdu")]
    assert history.load("T1:C1:2.0") == [Turn("user", "出差只坐高铁一等座")]
    assert history.subject("T1:C1:1.0") == "T1:U9"
    assert history.knows("T1:C1:1.0")
    # A thread marked at a mention (its mark and its history in different slots).
    ThreadHistory(client=client, key_prefix=prefix).mark("T1:C1:3.0")
    assert history.knows("T1:C1:3.0") and not history.knows("T1:C1:4.0")
