"""A change made with `travel-bot memory` while Redis does not answer reaches the
assistant once Redis is back, although the command ended long before (issue: "forget"
must mean forget). The assistant is a serving process of this test holding a warm
cache; the command runs as `travel-bot memory ...` with its own memory, closed when it
returns, as when its process exits. Real Redis (a private server frozen with SIGSTOP,
keeping its data, or the shared one behind a closed port), real SQLite and PostgreSQL.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from memory.cache import FACTS, query_field
from memory.engine import Memory
from tests.bot.cli.conftest import TravelBot
from tests.conftest import MemoryFactory
from tests.support.redis_server import RedisServer
from tests.support.services import REDIS_URL, free_port

RED_EYE = "I never take red-eye flights"
AISLE = "I prefer aisle seats"
NOTE = "is dropped as soon as Redis answers again"


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


def _warm(serving: Memory, namespace: str) -> str:
    serving.record(namespace, [RED_EYE, AISLE])
    summary = serving.retrieve(namespace, "plan my trip")
    serving.cache.settle()
    hits = serving.cache.stats.hits
    assert serving.retrieve(namespace, "plan my trip") == summary  # served from Redis
    assert serving.cache.stats.hits == hits + 1
    return summary


def _change(travel_bot: TravelBot, verb: str, serving: Memory, namespace: str, **env: str) -> str:
    """Forget the red-eye fact, or change the seat, with the command; its stderr."""
    if verb == "forget":
        [item_id] = [i.id for i in serving.items(namespace) if i.text == RED_EYE]
        ran = travel_bot("memory", "forget", "--user", namespace, "--id", item_id, **env)
    else:
        ran = travel_bot("memory", "add", "--user", namespace, "Now I prefer window seats", **env)
    assert ran.status == 0, ran.err
    return ran.err


def _gone(summary: str, verb: str) -> bool:
    if verb == "forget":
        return "red-eye" not in summary
    return "window" in summary and "aisle" not in summary


@pytest.mark.parametrize("verb", ["forget", "change"])
def test_a_change_made_while_redis_is_frozen_is_not_served_once_it_is_back(
    make_memory: MemoryFactory,
    travel_bot: TravelBot,
    own_redis: RedisServer,
    dsn: str,
    namespace: str,
    redis_prefix: str,
    verb: str,
) -> None:
    """The serving process saw the outage (it had traffic): its very next recall after
    Redis answers again is the new preferences, and a reader that read the store before
    the change and fills the cache after it does not bring the old ones back."""
    serving = make_memory(redis_url=own_redis.url)
    serving.cache._retry_after = 0.1
    assert "red-eye" in _warm(serving, namespace)
    old_facts = own_redis.client().hget(serving.cache.key(namespace), FACTS)
    seen = serving.cache.generation(namespace)  # a slow reader, before the change
    own_redis.freeze()
    err = _change(
        travel_bot, verb, serving, namespace,
        MEMORY_DSN=dsn, REDIS_URL=own_redis.url, REDIS_KEY_PREFIX=redis_prefix,
    )  # fmt: skip
    assert NOTE in err and "warning: Redis did not" not in err
    assert _gone(serving.retrieve(namespace, "plan my trip"), verb)  # uncached meanwhile
    own_redis.thaw()
    time.sleep(0.15)  # past the back-off
    assert _gone(serving.retrieve(namespace, "plan my trip"), verb)
    # The slow reader fills what it read before the change: refused.
    stale = {FACTS: old_facts, query_field("plan my trip"): f"{RED_EYE}. {AISLE}."}
    serving.cache.fill(namespace, stale, seen)
    assert _gone(serving.retrieve(namespace, "plan my trip"), verb)
    assert _gone(make_memory(redis_url=own_redis.url).retrieve(namespace, "plan my trip"), verb)


@pytest.mark.parametrize("verb", ["forget", "change"])
def test_a_change_the_command_could_not_tell_redis_reaches_a_process_that_never_lost_it(
    make_memory: MemoryFactory,
    travel_bot: TravelBot,
    dsn: str,
    namespace: str,
    redis_prefix: str,
    verb: str,
) -> None:
    """Only the command could not reach Redis: the running assistant drops its cached
    copy within seconds, and a process started after the command never serves it."""
    serving = make_memory()
    serving.cache.journal.every = 0.2  # type: ignore[union-attr]
    assert "red-eye" in _warm(serving, namespace)
    closed = f"redis://127.0.0.1:{free_port()}/0"
    err = _change(
        travel_bot, verb, serving, namespace,
        MEMORY_DSN=dsn, REDIS_URL=closed, REDIS_KEY_PREFIX=redis_prefix,
    )  # fmt: skip
    assert NOTE in err and "warning: Redis did not" not in err
    started = make_memory(redis_url=REDIS_URL)  # a deploy: a new process, first recall
    assert _gone(started.retrieve(namespace, "plan my trip"), verb)
    deadline = time.monotonic() + 5
    while not _gone(serving.retrieve(namespace, "plan my trip"), verb):
        assert time.monotonic() < deadline, "the running assistant kept the old preferences"
        time.sleep(0.05)
    with serving.store.backend.transaction() as cur:
        cur.execute("SELECT COUNT(*) FROM cache_invalidations")
        assert cur.fetchone()[0] == 0  # delivered, so no longer kept


def test_a_cache_hit_reads_no_database(make_memory: MemoryFactory, namespace: str) -> None:
    """What makes the fix durable is read once per start or outage, never per hit."""
    serving = make_memory()
    _warm(serving, namespace)
    reads = 0
    backend = serving.store.backend
    opened = backend.transaction

    def counted(*args: object, **kwargs: object) -> object:
        nonlocal reads
        reads += threading.get_ident() == caller  # not the background check's reads
        return opened(*args, **kwargs)  # type: ignore[arg-type]

    caller = threading.get_ident()
    backend.transaction = counted  # type: ignore[method-assign]
    hits = serving.cache.stats.hits
    for request in ["plan my trip", "book a hotel in Chengdu", "plan my trip", "a train"]:
        assert "red-eye" in serving.retrieve(namespace, request)
    assert serving.cache.stats.hits == hits + 4
    assert reads == 0
