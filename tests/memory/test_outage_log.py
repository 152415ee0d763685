"""A PostgreSQL server that cannot be reached, as an operator reads it in the log: one
line when the outage starts (where, why, what degrades), a reminder at a bounded rate
while it lasts, and none of the pool's own two-line warnings every second."""

from __future__ import annotations

import logging
import time

import pytest

from memory.backends import PostgresBackend
from memory.outage import Outage
from tests.support.services import free_port


def test_an_unreachable_database_logs_one_line_then_bounded_reminders(
    caplog: pytest.LogCaptureFixture,
) -> None:
    port = free_port()
    caplog.set_level(logging.DEBUG)
    backend = PostgresBackend(
        f"postgresql://postgres:secret-pw@127.0.0.1:{port}/test",
        timeout=0.3,
        retry_after=0.1,
        remind_every=1.0,
    )
    pings = 0
    try:
        deadline = time.monotonic() + 3.5
        while time.monotonic() < deadline:
            assert backend.ping() is False
            pings += 1
            time.sleep(0.05)
    finally:
        backend.close()

    lines = [r.getMessage() for r in caplog.records]
    assert pings > 10
    assert not [r for r in caplog.records if r.name.startswith("psycopg")], lines
    assert all("\n" not in line for line in lines)
    assert all("secret-pw" not in line for line in lines)
    started = [line for line in lines if line.startswith("database outage:")]
    assert len(started) == 1, lines
    assert f"127.0.0.1:{port}" in started[0]
    assert "Connection refused" in started[0]  # the first error is not hidden
    assert "/readyz answers 503" in started[0]
    reminders = [line for line in lines if line.startswith("database outage goes on")]
    assert 2 <= len(reminders) <= 4, lines  # about one a second over 3.5 s, not one a ping
    assert len(lines) == len(started) + len(reminders), lines


def test_a_pool_that_only_timed_out_still_gets_its_cause_on_the_first_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """On a loaded machine the pool's own attempt may not have failed before its timeout:
    the first line asks the server why instead of saying only that the pool timed out."""
    port = free_port()
    caplog.set_level(logging.WARNING, logger="memory.database")
    outage = Outage.of(f"postgresql://postgres:secret-pw@127.0.0.1:{port}/test")
    outage.failed("PoolTimeout: couldn't get a connection after 0.30 sec")
    outage.failed("PoolTimeout: couldn't get a connection after 0.30 sec")
    [started] = [r.getMessage() for r in caplog.records]
    assert f"127.0.0.1:{port}" in started and "Connection refused" in started
    assert "secret-pw" not in started
