"""A PostgreSQL server that cannot be reached, as an operator reads it in the log: one
line when the outage starts (where, why, what degrades), a reminder at a bounded rate
while it lasts, and none of the pool's own two-line warnings every second."""

from __future__ import annotations

import logging
import time

import pytest

from memory.backends import PostgresBackend
from tests.support.services import free_port


def test_an_unreachable_database_logs_one_line_then_bounded_reminders(
    caplog: pytest.LogCaptureFixture,
) -> None:
    port = free_port()
    caplog.set_level(logging.DEBUG)
    backend = PostgresBackend(
        f"postgresql://postgres:secret-pw@127.0.0.1:{port}/test",
        # Long enough for the pool's own first attempt (refused at once) to be seen even
        # on a loaded machine, so the first line can say why.
        timeout=1.0,
        retry_after=0.5,
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
