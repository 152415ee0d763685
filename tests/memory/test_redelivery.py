"""The durable cache invalidations (`memory.redelivery`) around a database outage and
after a long Redis one: the log stays one line, a forget kept in the journal is never
undone by a restart while the database is down, and a long journal does not hold up a
reply. Real PostgreSQL, SQLite and Redis; a database that cannot be reached is one on
a port nothing listens on (or a SQLite file whose directory is gone)."""

from __future__ import annotations

import logging
import time

import pytest

from memory import open_memory
from tests.support.services import REDIS_URL, free_port

UNREADABLE = "could not read the undelivered cache invalidations"


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
