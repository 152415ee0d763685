"""The durable cache invalidations (`memory.redelivery`) around a database outage and
after a long Redis one: the log stays one line, and a long journal does not hold up a
reply. Real PostgreSQL, SQLite and Redis; a database that cannot be reached is one on
a port nothing listens on (or a SQLite file whose directory is gone)."""

from __future__ import annotations

import logging
import time

import pytest

from memory import open_memory
from memory.engine import Memory
from tests.conftest import MemoryFactory
from tests.support.services import REDIS_URL, free_port

RED_EYE = "I never take red-eye flights"
AISLE = "I prefer aisle seats"
UNREADABLE = "could not read the undelivered cache invalidations"


def _warm(mem: Memory, namespace: str) -> None:
    mem.record(namespace, [RED_EYE, AISLE])
    assert "red-eye" in mem.retrieve(namespace, "plan my trip")
    mem.cache.settle()


def _kept(mem: Memory) -> int:
    with mem.store.backend.transaction() as cur:
        cur.execute("SELECT COUNT(*) FROM cache_invalidations")
        return int(cur.fetchone()[0])


def test_a_database_outage_is_one_line_of_the_journal_not_one_per_check(
    redis_prefix: str, namespace: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="memory.redelivery")
    down = f"postgresql://postgres@127.0.0.1:{free_port()}/test"
    mem = open_memory(dsn=down, redis_url=REDIS_URL, redis_key_prefix=redis_prefix)
    try:
        mem.cache.journal.every = 0.1  # type: ignore[union-attr]
        mem.retrieve(namespace, "plan my trip")  # the first read starts the checks
        time.sleep(3)
        # The checks wait while the database is known to be down instead of calling it
        # every tick (each call is a failed call in the outage's reminder line).
        failed = mem.store.backend._outage._failures  # type: ignore[attr-defined]
    finally:
        mem.close()
    lines = [r for r in caplog.records if UNREADABLE in r.getMessage()]
    assert len(lines) <= 1
    assert failed <= 6


def test_a_long_journal_is_not_delivered_inside_one_read(
    make_memory: MemoryFactory, namespace: str
) -> None:
    """A read delivers a batch (50) and goes uncached while rows remain; the next reads
    deliver the rest, then the cache serves again."""
    writer = make_memory()
    _warm(writer, namespace)
    for n in range(60):  # other travellers' invalidations Redis missed
        assert writer.cache.journal.record(f"T0:U{n}")  # type: ignore[union-attr]
    reader = make_memory()
    reader.cache.journal.every = 600  # type: ignore[union-attr]  # no background help
    assert "red-eye" in reader.retrieve(namespace, "plan my trip")
    assert reader.cache.stats.hits == 0  # uncached while rows remain
    assert _kept(reader) == 10
    reader.retrieve(namespace, "plan my trip")
    assert _kept(reader) == 0
    hits = reader.cache.stats.hits
    assert "red-eye" in reader.retrieve(namespace, "plan my trip")
    assert reader.cache.stats.hits == hits + 1
