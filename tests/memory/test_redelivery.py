"""The durable cache invalidations (`memory.redelivery`): committed with the write, so
a writer killed right after its commit loses none; around a database outage and after a
long Redis one the log stays one line, and a long journal does not hold up a reply.
Real PostgreSQL, SQLite and Redis; a database that cannot be reached is one on a port
nothing listens on (or a SQLite file whose directory is gone)."""

from __future__ import annotations

import logging
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from memory import open_memory
from memory.engine import Memory
from tests.conftest import MemoryFactory
from tests.support.processes import bot_env
from tests.support.services import REDIS_URL, free_port

RED_EYE = "I never take red-eye flights"
AISLE = "I prefer aisle seats"
WINDOW = "Now I prefer window seats"
UNREADABLE = "could not read the undelivered cache invalidations"

# A writer process (MEMORY_DSN, REDIS_URL, REDIS_KEY_PREFIX from its environment) that
# dies, as under `kill -9`, the moment its write has committed: its first Redis call
# after the commit is the drop of the namespace's cached summaries.
_KILLED_AFTER_COMMIT = """
import os, sys
from memory import open_memory
from memory.cache import PreferenceCache

mem = open_memory()
PreferenceCache.send_invalidate = lambda self, namespace: os._exit(9)
mem.record(sys.argv[1], [sys.argv[2]])
"""


def _warm(mem: Memory, namespace: str) -> None:
    mem.record(namespace, [RED_EYE, AISLE])
    assert "red-eye" in mem.retrieve(namespace, "plan my trip")
    mem.cache.settle()
    mem.cache.journal.settle()  # type: ignore[union-attr]  # the rows' deletes are queued


def _kept(mem: Memory) -> int:
    with mem.store.backend.transaction() as cur:
        cur.execute("SELECT COUNT(*) FROM cache_invalidations")
        return int(cur.fetchone()[0])


def test_a_writer_killed_between_its_commit_and_the_drop_leaves_it_to_the_next_process(
    make_memory: MemoryFactory, dsn: str, redis_prefix: str, namespace: str, tmp_path: Path
) -> None:
    """The change is not served stale for the cache's 30 minutes: the drop was kept in the
    same transaction as the facts, and the next process delivers it before its first read."""
    serving = make_memory()
    serving.cache.journal.every = 600  # type: ignore[union-attr]  # no background help
    _warm(serving, namespace)
    assert _kept(serving) == 0  # a drop Redis took leaves nothing behind
    env = bot_env(tmp_path, redis_prefix, MEMORY_DSN=dsn)
    died = subprocess.run(
        [sys.executable, "-c", _KILLED_AFTER_COMMIT, namespace, WINDOW],
        env=env,
        capture_output=True,
        timeout=300,
    )
    assert died.returncode == 9, died.stderr.decode(errors="replace")[-2000:]
    assert _kept(serving) == 1  # committed with the facts, though Redis never heard of it
    started = make_memory()  # a restart or a deploy: a new process, its first recall
    assert WINDOW in started.retrieve(namespace, "plan my trip")
    assert WINDOW in serving.retrieve(namespace, "plan my trip")
    assert _kept(serving) == 0


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


@pytest.mark.parametrize("dsn", ["sqlite"], indirect=True)  # the database it names
def test_a_save_does_not_wait_for_the_lock_its_cleanup_needs(
    make_memory: MemoryFactory, namespace: str, tmp_path: Path
) -> None:
    """Another connection takes SQLite's write lock the moment the save's drop reached
    Redis (a backup, a busy neighbour): the save answers at once, and the journal row is
    deleted once the lock is free."""
    path = tmp_path / "held.db"
    mem = make_memory(dsn=f"sqlite:///{path}")
    _warm(mem, namespace)
    send = mem.cache.send_invalidate
    release = threading.Event()

    def hold() -> None:
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        held.set()
        release.wait(10)
        conn.execute("ROLLBACK")
        conn.close()

    held = threading.Event()

    def sent_then_locked(ns: str) -> bool:
        ok = send(ns)
        threading.Thread(target=hold, daemon=True).start()
        held.wait(5)
        return ok

    mem.cache.send_invalidate = sent_then_locked  # type: ignore[method-assign]
    started = time.monotonic()
    [outcome] = mem.record(namespace, [WINDOW])
    took = time.monotonic() - started
    release.set()
    assert outcome.status == "updated"  # aisle -> window: saved
    assert took < 1.0, f"the save waited {took:.1f} s for the lock its cleanup needed"
    mem.cache.send_invalidate = send  # type: ignore[method-assign]
    mem.cache.journal.settle()  # type: ignore[union-attr]
    assert _kept(mem) == 0


@pytest.mark.parametrize("dsn", ["postgresql"], indirect=True)  # the database it names
def test_a_cleanup_that_fails_on_postgresql_is_no_database_outage(
    make_memory: MemoryFactory,
    pg_schema_dsn: str,
    namespace: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The row's delete waits on a lock another session holds until PostgreSQL's query
    watchdog hangs it up: the save was answered, the store is not called down, nothing
    says the database is out, and the next save and recall go on."""
    import psycopg

    mem = make_memory(dsn=pg_schema_dsn)
    _warm(mem, namespace)
    send = mem.cache.send_invalidate
    locker = psycopg.connect(pg_schema_dsn, autocommit=False)

    def sent_then_locked(ns: str) -> bool:
        ok = send(ns)
        locker.execute("SELECT 1 FROM cache_invalidations WHERE namespace = %s FOR UPDATE", (ns,))
        return ok

    mem.cache.send_invalidate = sent_then_locked  # type: ignore[method-assign]
    try:
        with caplog.at_level(logging.WARNING):
            [outcome] = mem.record(namespace, [WINDOW])
            mem.cache.journal.settle(15)  # type: ignore[union-attr]  # hung up after 5 s
    finally:
        locker.rollback()
        locker.close()
    mem.cache.send_invalidate = send  # type: ignore[method-assign]
    assert outcome.status == "updated"
    assert not mem.store.backend.down  # type: ignore[attr-defined]
    assert not [r for r in caplog.records if r.name == "memory.database"]
    assert "window" in mem.retrieve(namespace, "plan my trip")


def test_an_earlier_writes_cleanup_leaves_a_later_writes_row(
    make_memory: MemoryFactory, dsn: str, namespace: str
) -> None:
    """Write A's drop reached Redis, write B recorded the namespace again meanwhile: A's
    delete must not remove B's row (B's drop may yet fail); B's own delete does."""
    mem = make_memory()
    _warm(mem, namespace)
    journal = mem.cache.journal
    assert journal is not None
    first = mem.store.write(namespace, journal.keep)  # write A keeps a row
    second = mem.store.write(namespace, journal.keep)  # write B overwrites it
    journal.delivered(namespace, first)
    journal.settle()
    assert _kept(mem) == 1  # B's row is still there
    journal.delivered(namespace, second)
    journal.settle()
    assert _kept(mem) == 0
