"""The preference cache on a real local Redis Cluster (three masters, `redis+cluster://`)."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from memory import open_memory
from memory.cache import FACTS
from memory.engine import Memory
from memory.redis_client import open_redis
from tests.memory.test_cache import RED_EYE, TRAVELLER, GatedStore
from tests.support.redis_cluster import LocalCluster
from tests.support.services import free_port


@pytest.fixture
def on_cluster(redis_cluster: LocalCluster, tmp_path: Path) -> Iterator[Callable[..., Memory]]:
    """Memory engines on one SQLite file, cached in the cluster under this test's prefix."""
    prefix = f"test-{uuid.uuid4().hex[:8]}:"
    opened: list[Memory] = []

    def factory(**overrides: Any) -> Memory:
        overrides.setdefault("redis_url", redis_cluster.url)
        overrides.setdefault("redis_key_prefix", prefix)
        opened.append(open_memory(dsn=f"sqlite:///{tmp_path}/memory.db", **overrides))
        return opened[-1]

    yield factory
    for mem in opened:
        mem.close()


@pytest.fixture
def cluster_client(redis_cluster: LocalCluster) -> Iterator[Any]:
    client = open_redis(redis_cluster.url)
    yield client
    client.close()


def test_a_namespaces_keys_share_one_slot_and_namespaces_spread(
    on_cluster: Callable[..., Memory], redis_cluster: LocalCluster
) -> None:
    cache = on_cluster().cache
    for namespace in ("T1:U1", "T1:U2", "feishu:T9:ou_1", "T1:{odd}", "}T1"):
        assert redis_cluster.slot(cache.key(namespace)) == redis_cluster.slot(
            cache.generation_key(namespace)
        )
    assert cache.key("T1:U1").endswith("ltm:travel-pref:{T1:U1}")
    slots = {redis_cluster.slot(cache.key(f"T1:U{n}")) for n in range(30)}
    assert len(slots) > 20  # one hash slot per namespace, not one for all


def test_fill_hit_and_invalidate_on_a_cluster(
    on_cluster: Callable[..., Memory], cluster_client: Any
) -> None:
    mem = on_cluster(memory_cache_ttl_seconds=900)
    mem.record("T1:U1", TRAVELLER)
    assert mem.warm("T1:U1") == "warmed"
    key = mem.cache.key("T1:U1")
    assert cluster_client.hexists(key, FACTS)
    assert 890 <= cluster_client.ttl(key) <= 900
    errors = mem.cache.stats.errors

    recalled = mem.recall("T1:U1", "帮我订去成都的机票")
    assert recalled.cached and "I never take red-eye flights" in recalled.summary
    assert mem.recall("T1:U1", "帮我订去成都的机票").cached  # the summary itself, now

    mem.record("T1:U1", ["Now I prefer window seats"])
    assert not cluster_client.exists(key)
    assert "window" in mem.retrieve("T1:U1", "帮我订去成都的机票")
    assert mem.cache.stats.errors == errors  # no CROSSSLOT or any other Redis error


def test_a_reader_that_raced_a_write_never_caches_stale_facts_on_a_cluster(
    on_cluster: Callable[..., Memory], cluster_client: Any
) -> None:
    mem = on_cluster()
    mem.record("T1:U2", [RED_EYE])
    gated = GatedStore(mem.store)
    reader_mem = Memory(
        store=gated,
        cache=mem.cache,
        embedder=mem.embedder,
        schema=mem.schema,
        settings=mem.settings,
    )
    gated.gate = True
    result: list[str] = []
    reader = threading.Thread(
        target=lambda: result.append(reader_mem.retrieve("T1:U2", "trip")), name="reader"
    )
    reader.start()
    assert gated.read_done.wait(10)
    mem.record("T1:U2", ["酒店要含早餐"])
    gated.release.set()
    reader.join(10)
    assert result == ["I never take red-eye flights."]
    assert not cluster_client.exists(mem.cache.key("T1:U2"))
    assert "酒店要含早餐" in mem.retrieve("T1:U2", "trip")
    assert mem.cache.stats.errors == 0


def test_a_cluster_that_is_down_at_start_degrades_to_uncached(
    on_cluster: Callable[..., Memory],
) -> None:
    mem = on_cluster(redis_url=f"redis+cluster://127.0.0.1:{free_port()}")  # nobody there
    mem.record("T1:U3", [RED_EYE])
    assert mem.retrieve("T1:U3", "trip") == "I never take red-eye flights."
    assert mem.cache.stats.errors >= 1 and not mem.health()["redis"]


def test_a_cluster_url_may_name_several_seed_nodes(redis_cluster: LocalCluster) -> None:
    # The first seed is down; the client finds the cluster through the next one.
    seeds = ",".join(f"127.0.0.1:{port}" for port in [free_port(), *redis_cluster.ports[1:]])
    client = open_redis(f"redis+cluster://{seeds}")
    try:
        client.set("test-seeds:{x}", "1", ex=10)
        assert client.get("test-seeds:{x}") == b"1"
        assert len(client.get_primaries()) == 3
    finally:
        client.close()
