"""The Redis read cache: exact keys and TTLs, invalidation, the write race, Redis outages."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from memory.cache import FACTS, MAX_FIELDS, Lookup, PreferenceCache, query_field
from memory.engine import Memory
from memory.store import Store, StoredItem
from tests.conftest import MemoryFactory
from tests.support.redis_server import RedisServer
from tests.support.services import REDIS_URL, free_port

RED_EYE = "I never take red-eye flights"


def test_retrieve_fills_the_named_key_with_the_configured_ttl(
    make_memory: MemoryFactory, namespace: str, redis_client: redis.Redis, redis_prefix: str
) -> None:
    mem = make_memory(memory_cache_ttl_seconds=1800)
    mem.record(namespace, [RED_EYE])
    summary = mem.retrieve(namespace, "plan my trip")
    key = f"{redis_prefix}ltm:travel-pref:{{{namespace}}}"
    assert summary == "I never take red-eye flights."
    assert 1790 <= redis_client.ttl(key) <= 1800  # the facts: cached before the answer
    mem.cache.settle()  # the summary of a miss is cached after it, on the cache's thread
    assert summary.encode() in redis_client.hvals(key)
    hits = mem.cache.stats.hits
    assert mem.retrieve(namespace, "something else entirely") == summary
    assert mem.cache.stats.hits == hits + 1


def test_empty_results_are_never_cached(
    memory: Memory, namespace: str, redis_client: redis.Redis, redis_prefix: str
) -> None:
    assert memory.retrieve(namespace, "anything") == ""
    assert not redis_client.exists(f"{redis_prefix}ltm:travel-pref:{{{namespace}}}")


def test_every_write_invalidates_after_commit(
    memory: Memory, namespace: str, redis_client: redis.Redis, redis_prefix: str
) -> None:
    key = f"{redis_prefix}ltm:travel-pref:{{{namespace}}}"
    memory.record(namespace, [RED_EYE])
    memory.retrieve(namespace, "trip")
    assert redis_client.exists(key)
    memory.record(namespace, ["酒店要含早餐"])
    assert not redis_client.exists(key)
    assert "酒店要含早餐" in memory.retrieve(namespace, "trip")
    memory.update_profile(namespace, {"seat": "aisle"})
    assert not redis_client.exists(key)
    memory.retrieve(namespace, "trip")
    memory.forget(namespace)
    assert memory.retrieve(namespace, "trip") == ""


def test_a_duplicate_write_keeps_the_cache(
    memory: Memory, namespace: str, redis_client: redis.Redis, redis_prefix: str
) -> None:
    memory.record(namespace, [RED_EYE])
    memory.retrieve(namespace, "trip")
    assert memory.record(namespace, [RED_EYE])[0].status == "duplicate"
    assert redis_client.exists(f"{redis_prefix}ltm:travel-pref:{{{namespace}}}")


# A traveller with more preferences than one summary holds (8 facts / 600 characters).
TRAVELLER = [
    "I never take red-eye flights",
    "出差只坐高铁一等座",
    "I prefer aisle seats",
    "酒店要含早餐",
    "I like hotels within walking distance of the office",
    "偏好东航",
    "Avoid connections shorter than 90 minutes",
    "喜欢离地铁站近的酒店",
    "Vegetarian meals on flights, please",
    "I need a quiet room away from the elevator",
    "航班尽量选上午出发的",
    "I like to visit a local museum on a free evening",
]
REQUESTS = [
    "flight Chengdu",
    "机票 成都 酒店",
    "plan trip Chengdu",
    "which hotel near the office",
    "",
]


def test_after_warming_every_request_is_answered_without_the_database(
    make_memory: MemoryFactory, unreachable_memory: MemoryFactory, namespace: str
) -> None:
    mem = make_memory()
    mem.record(namespace, TRAVELLER)
    from_store = make_memory(redis_url="")  # what the store alone answers
    expected = {request: from_store.retrieve(namespace, request) for request in REQUESTS}
    assert mem.warm(namespace) == "warmed"
    assert mem.warm(namespace) == "cached"

    offline = unreachable_memory()  # another process, whose database is unreachable
    offline.cache.inline_facts_bytes = 0  # as for a traveller with hundreds of facts
    for request in REQUESTS:
        recalled = offline.recall(namespace, request)
        assert (recalled.status, recalled.cached) == ("ok", True), request
        assert recalled.summary == expected[request], request
        assert offline.retrieve(namespace, request) == expected[request]
    assert offline.cache.stats.fact_hits >= len(REQUESTS) - 1  # ranked from cached facts
    # Nothing cached and no database: told apart from "nothing remembered".
    assert offline.recall("T1:UNKNOWN", "flight Chengdu").status == "unavailable"
    assert offline.retrieve("T1:UNKNOWN", "flight Chengdu") == ""


def test_any_recall_caches_the_facts_for_every_other_request(
    make_memory: MemoryFactory, unreachable_memory: MemoryFactory, namespace: str
) -> None:
    mem = make_memory()
    mem.record(namespace, TRAVELLER)
    assert "红眼" not in mem.retrieve(namespace, "which hotel near the office")

    offline = unreachable_memory()
    recalled = offline.recall(namespace, "帮我订去成都的机票")
    assert recalled.status == "ok" and "I never take red-eye flights" in recalled.summary
    assert "高铁一等座" in offline.retrieve(namespace, "train to Chengdu")


def test_a_request_ranked_from_cached_facts_is_then_one_read(
    memory: Memory, namespace: str, redis_client: redis.Redis
) -> None:
    memory.record(namespace, TRAVELLER)
    memory.warm(namespace)
    first = memory.recall(namespace, "book me a flight to Chengdu")
    memory.cache.settle()
    fact_hits = memory.cache.stats.fact_hits
    again = memory.recall(namespace, "Book me a flight  to Chengdu")
    assert again == first and again.cached
    assert memory.cache.stats.fact_hits == fact_hits  # the summary itself was read
    key = memory.cache.key(namespace)
    assert redis_client.hget(key, query_field("book me a flight to chengdu")) is not None


def test_a_write_is_visible_to_the_very_next_recall_of_a_warmed_traveller(
    memory: Memory, namespace: str, redis_client: redis.Redis
) -> None:
    memory.record(namespace, TRAVELLER)
    memory.warm(namespace)
    memory.retrieve(namespace, "plan trip Chengdu")
    assert memory.record(namespace, ["Now I prefer window seats"])[0].status == "updated"
    assert not redis_client.exists(memory.cache.key(namespace))
    for request in ("plan trip Chengdu", "hotel", ""):
        summary = memory.retrieve(namespace, request)
        assert "Now I prefer window seats" in summary and "aisle" not in summary
    memory.forget(namespace)
    assert memory.recall(namespace, "plan trip Chengdu").status == "empty"


def test_each_fact_is_punctuated_in_its_own_language_whatever_the_request(
    memory: Memory, namespace: str
) -> None:
    """A Chinese request once joined English facts with "；" and closed them with "。"
    ("I never take red-eye flights；I prefer aisle seats。"); an English one closed a
    Chinese fact with "."."""
    memory.record(namespace, ["出差只坐高铁一等座", "I prefer aisle seats"])
    mixed = "出差只坐高铁一等座；I prefer aisle seats."
    assert memory.retrieve(namespace, "plan my trip to Chengdu") == mixed
    assert memory.retrieve(namespace, "规划去成都的行程") == mixed
    assert memory.retrieve(namespace, "book a hotel") == mixed  # cached per language
    assert memory.retrieve(namespace, "") == mixed


def test_old_and_unreadable_entries_are_never_served(
    memory: Memory, namespace: str, redis_client: redis.Redis, redis_prefix: str
) -> None:
    """Keys written before the hash tag (`ltm:travel-pref:T1:U1`) are never read; they
    expire. Cached facts this version cannot read are replaced from the store."""
    memory.record(namespace, [RED_EYE])
    old_key = f"{redis_prefix}ltm:travel-pref:{namespace}"
    redis_client.hset(old_key, mapping={"*": "Stale summary.", query_field("trip"): "Stale."})
    redis_client.expire(old_key, 60)
    key = memory.cache.key(namespace)
    redis_client.hset(key, FACTS, b"written by some other version")
    assert memory.retrieve(namespace, "trip") == "I never take red-eye flights."
    assert redis_client.hget(key, FACTS) != b"written by some other version"
    assert memory.retrieve(namespace, "a flight") == "I never take red-eye flights."
    redis_client.delete(old_key)


def test_facts_cached_by_the_version_before_are_a_miss_then_replaced(
    make_memory: MemoryFactory, namespace: str, redis_client: redis.Redis
) -> None:
    """After a deploy, a warmed traveller's entry may still be in the layout before
    (version 3): the recall answers from the store, as a miss and not an error, and the
    entry is written again in this version, so the next recall needs no store."""
    mem = make_memory()
    mem.record(namespace, TRAVELLER)
    expected = {request: mem.retrieve(namespace, request) for request in REQUESTS}
    key = mem.cache.key(namespace)
    current = redis_client.hget(key, FACTS)
    assert current is not None and current[4] == 4
    old = bytearray(current)
    old[4] = 3  # the layout before, as far as the version says
    for inline in (True, False):  # read with the lookup, or with a second read
        mem.cache.invalidate(namespace)
        assert mem.warm(namespace) == "warmed"
        redis_client.hset(key, FACTS, bytes(old))
        reader = make_memory()
        reader.cache.inline_facts_bytes = 64 * 1024 if inline else 0
        recalled = reader.recall(namespace, "book me a train to Hangzhou")
        assert (recalled.status, recalled.cached) == ("ok", False)
        assert "高铁一等座" in recalled.summary
        assert (reader.cache.stats.misses, reader.cache.stats.errors) == (1, 0)
        rewritten = redis_client.hget(key, FACTS)
        assert rewritten is not None and rewritten[4] == 4
        for request in REQUESTS[:4]:
            again = reader.recall(namespace, request)
            assert (again.summary, again.cached) == (expected[request], True), request


class GatedCache(PreferenceCache):
    """The real cache, but a reader can be held after reading the cached facts."""

    def __init__(self, **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.read_done = threading.Event()
        self.release = threading.Event()

    def lookup(self, namespace: str, fields: list[str]) -> Lookup:  # type: ignore[override]
        found = super().lookup(namespace, fields)
        if found.facts is not None and threading.current_thread().name == "reader":
            self.read_done.set()
            self.release.wait(10)
        return found


def test_a_summary_ranked_from_cached_facts_that_raced_a_write_is_never_cached(
    make_memory: MemoryFactory, namespace: str, redis_prefix: str, redis_client: redis.Redis
) -> None:
    mem = make_memory()
    mem.record(namespace, TRAVELLER)
    mem.warm(namespace)
    client = redis.Redis.from_url(REDIS_URL)
    gated = GatedCache(client=client, key_prefix=redis_prefix, ttl_seconds=1800)
    reader_mem = Memory(
        store=mem.store,
        cache=gated,
        embedder=mem.embedder,
        schema=mem.schema,
        settings=mem.settings,
    )
    request = "which seat do I like"
    result: list[str] = []
    reader = threading.Thread(
        target=lambda: result.append(reader_mem.retrieve(namespace, request)), name="reader"
    )
    reader.start()
    assert gated.read_done.wait(10)  # the reader has the cached (old) facts in hand...
    mem.record(namespace, ["Now I prefer window seats"])  # ...a write commits...
    mem.warm(namespace)  # ...and the new facts are cached again...
    gated.release.set()  # ...then the reader ranks the old facts and caches the summary.
    reader.join(10)
    gated.settle()  # its summary's (deferred) fill has been tried: and refused
    assert "I prefer aisle seats" in result[0]  # it answered from what it had read
    assert redis_client.hget(mem.cache.key(namespace), query_field(request)) is None
    summary = mem.retrieve(namespace, request)
    assert "Now I prefer window seats" in summary and "aisle" not in summary
    gated.flush()
    client.close()


class GatedStore(Store):
    """The real store, but a reader can be held between reading and returning."""

    def __init__(self, inner: Store) -> None:
        super().__init__(inner.backend)
        self.read_done = threading.Event()
        self.release = threading.Event()
        self.gate = False

    def current(self, namespace: str) -> list[StoredItem]:
        rows = super().current(namespace)
        if self.gate and threading.current_thread().name == "reader":
            self.read_done.set()
            self.release.wait(10)
        return rows


def test_a_reader_that_raced_a_write_never_caches_the_stale_summary(
    make_memory: MemoryFactory, namespace: str
) -> None:
    mem = make_memory()
    mem.record(namespace, [RED_EYE])
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
        target=lambda: result.append(reader_mem.retrieve(namespace, "trip")), name="reader"
    )
    reader.start()
    assert gated.read_done.wait(10)  # the reader has the old facts in hand...
    mem.record(namespace, ["酒店要含早餐"])  # ...a write commits and invalidates...
    gated.release.set()  # ...then the reader tries to fill the cache.
    reader.join(10)
    assert result == ["I never take red-eye flights."]
    assert "酒店要含早餐" in mem.retrieve(namespace, "trip")


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.kill()


def test_redis_down_at_start_degrades_to_uncached(
    make_memory: MemoryFactory, namespace: str
) -> None:
    mem = make_memory(redis_url=f"redis://127.0.0.1:{free_port()}/0")
    mem.record(namespace, [RED_EYE])
    assert mem.retrieve(namespace, "trip") == "I never take red-eye flights."
    assert mem.cache.stats.errors >= 1


def test_redis_dying_mid_run_degrades_and_recovers(
    make_memory: MemoryFactory, namespace: str, own_redis: RedisServer
) -> None:
    mem = make_memory(redis_url=own_redis.url)
    mem.cache._retry_after = 0.1
    mem.record(namespace, [RED_EYE])
    assert mem.retrieve(namespace, "trip") == "I never take red-eye flights."
    own_redis.kill()
    mem.record(namespace, ["酒店要含早餐"])  # the invalidation cannot be delivered
    assert "酒店要含早餐" in mem.retrieve(namespace, "trip")
    own_redis.start()  # back on the same port, empty, as this machine's Redis keeps nothing
    time.sleep(0.2)  # past the cache's back-off
    assert "酒店要含早餐" in mem.retrieve(namespace, "trip")
    hits = mem.cache.stats.hits
    assert "酒店要含早餐" in mem.retrieve(namespace, "trip")
    assert mem.cache.stats.hits == hits + 1  # served from the cache again


def test_a_write_during_the_back_off_still_invalidates_at_once(
    make_memory: MemoryFactory, namespace: str, redis_client: redis.Redis
) -> None:
    """Another process would otherwise serve the old summary for the whole TTL."""
    mem = make_memory(redis_url=REDIS_URL)
    mem.record(namespace, [RED_EYE])
    mem.retrieve(namespace, "trip")
    mem.cache._down_until = time.monotonic() + 60  # as right after a failed call
    assert mem.forget(namespace) == 1
    assert not redis_client.exists(mem.cache.key(namespace))


def test_pending_invalidation_is_replayed_when_redis_returns(
    make_memory: MemoryFactory, namespace: str, redis_client: redis.Redis
) -> None:
    mem = make_memory(redis_url=REDIS_URL)
    mem.record(namespace, [RED_EYE])
    mem.retrieve(namespace, "trip")
    assert redis_client.exists(mem.cache.key(namespace))
    mem.cache._down_until = time.monotonic() + 0.2  # as after a failed call
    mem.record(namespace, ["酒店要含早餐"])  # invalidation deferred while "down"
    time.sleep(0.25)
    assert "酒店要含早餐" in mem.retrieve(namespace, "trip")


def test_a_warmed_travellers_entry_stops_growing_and_every_request_is_still_answered(
    memory: Memory, namespace: str, redis_client: redis.Redis
) -> None:
    memory.record(namespace, TRAVELLER)
    memory.warm(namespace)
    asked = [f"plan my trip number {n} to Chengdu" for n in range(MAX_FIELDS + 7)]
    answers = {}
    for request in asked:
        answers[request] = memory.retrieve(namespace, request)
        memory.cache.settle()
    key = memory.cache.key(namespace)
    assert redis_client.hlen(key) == MAX_FIELDS  # the facts and the first requests' summaries
    for request in asked:  # asked again: the same summary, cached or ranked again
        assert memory.retrieve(namespace, request) == answers[request]
        assert "I never take red-eye flights" in answers[request]
    assert memory.record(namespace, ["Now I prefer window seats"])[0].status == "updated"
    assert "Now I prefer window seats" in memory.retrieve(namespace, asked[-1])
