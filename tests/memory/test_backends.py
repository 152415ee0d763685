"""The SQLite backend under the thread patterns the bot uses, and behind a held lock."""

from __future__ import annotations

import gc
import logging
import sqlite3
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from memory import open_memory
from memory.backends import SQLiteBackend
from memory.errors import StoreUnavailable


def _touch(backend: SQLiteBackend) -> None:
    with backend.transaction("T1:U1") as cur:
        cur.execute("CREATE TABLE IF NOT EXISTS t (x INTEGER)")
        cur.execute("INSERT INTO t VALUES (1)")


def test_connections_of_finished_threads_are_closed(tmp_path: Path) -> None:
    backend = SQLiteBackend(tmp_path / "m.db")
    try:
        for _ in range(5):  # like the warming pass: a new pool every run
            with ThreadPoolExecutor(max_workers=4) as pool:
                list(pool.map(lambda _: _touch(backend), range(8)))
        gc.collect()
        assert backend.open_connections <= 1
    finally:
        backend.close()


def test_many_threads_opening_a_new_file_at_once_all_succeed(tmp_path: Path) -> None:
    for trial in range(5):
        backend = SQLiteBackend(tmp_path / f"fresh-{trial}.db")
        start = threading.Barrier(8)
        errors: list[BaseException] = []

        def first_use(
            backend: SQLiteBackend = backend,
            start: threading.Barrier = start,
            errors: list[BaseException] = errors,
        ) -> None:
            start.wait()
            try:
                _touch(backend)
            except BaseException as exc:  # reported below
                errors.append(exc)

        threads = [threading.Thread(target=first_use) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        backend.close()
        assert errors == []


def test_a_lock_held_elsewhere_fails_writes_fast_and_reads_go_on(tmp_path: Path) -> None:
    """A backup or a long write in another process: memory says so instead of waiting."""
    path = tmp_path / "memory.db"
    first = open_memory(dsn=f"sqlite:///{path}", redis_url="")
    first.record("T1:U1", ["I never take red-eye flights"])
    first.close()
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    # Opened while the lock is held: the schema is read to be current, not migrated.
    mem = open_memory(dsn=f"sqlite:///{path}", redis_url="", sqlite_busy_timeout_seconds=0.5)
    try:
        failed: list[BaseException] = []

        def write(i: int) -> None:
            try:
                mem.record("T1:U1", [f"I like hotel number {i}"])
            except BaseException as exc:
                failed.append(exc)

        writers = [threading.Thread(target=write, args=(i,)) for i in range(8)]
        for writer in writers:
            writer.start()
        for writer in writers:
            writer.join(timeout=30)
            assert not writer.is_alive(), "a write waited for the lock"
        assert len(failed) == 8
        assert all(isinstance(exc, StoreUnavailable) for exc in failed)
        assert "locked" in str(failed[0])
        with pytest.raises(StoreUnavailable):
            mem.forget("T1:U1")
        recalled = mem.recall("T1:U1", "flight")
        assert (recalled.status, recalled.summary) == ("ok", "I never take red-eye flights.")

        other.execute("ROLLBACK")
        assert mem.record("T1:U1", ["I like hotel number 1"])[0].status == "added"
    finally:
        other.close()
        mem.close()


def test_the_busy_timeout_is_short_by_default(tmp_path: Path) -> None:
    backend = SQLiteBackend(tmp_path / "m.db")
    try:
        with backend.transaction() as cur:
            cur.execute("PRAGMA busy_timeout")
            (milliseconds,) = cur.fetchone()
        assert milliseconds == 2000
    finally:
        backend.close()


def test_closing_while_threads_wait_for_a_lock_leaves_their_connections_to_them(
    tmp_path: Path,
) -> None:
    """Closing a connection another thread is using crashes the process (seen as a
    segfault or a MemoryError): the backend leaves it to that thread."""
    path = tmp_path / "m.db"
    backend = SQLiteBackend(path, busy_timeout=0.5)
    _touch(backend)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    failed: list[BaseException] = []

    def write() -> None:
        for _ in range(3):
            try:
                _touch(backend)
            except BaseException as exc:
                failed.append(exc)

    writers = [threading.Thread(target=write) for _ in range(4)]
    for writer in writers:
        writer.start()
    for _ in range(3):  # while they wait for the lock
        time.sleep(0.3)
        backend.close()
    for writer in writers:
        writer.join(30)
        assert not writer.is_alive()
    other.close()
    assert {type(exc) for exc in failed} == {StoreUnavailable}
    failed.clear()  # their tracebacks hold the connections
    gc.collect()
    assert backend.open_connections == 0
    _touch(backend)  # a closed backend opens again on use
    backend.close()


def test_an_unreadable_file_is_unavailable_not_empty(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    path.write_bytes(b"not a database, perhaps half a backup" * 200)
    mem = open_memory(dsn=f"sqlite:///{path}", redis_url="")
    try:
        assert mem.recall("T1:U1", "flight").status == "unavailable"
        with pytest.raises(StoreUnavailable):
            mem.record("T1:U1", ["I never take red-eye flights"])
        assert mem.health()["database"] is False
    finally:
        mem.close()


@pytest.mark.parametrize(
    "dsn",
    [
        "postgresql://traveller:s3cret pw@127.0.0.1:5432/test",
        "postgresql://traveller@127.0.0.1/test password=s3cret pw",
    ],
)
def test_a_malformed_postgresql_dsn_is_refused_without_its_password(
    dsn: str, caplog: pytest.LogCaptureFixture
) -> None:
    """psycopg's own message quotes the part it cannot parse, password included: what
    start-up prints (the exception and its traceback) and the log never show it."""
    caplog.set_level(logging.DEBUG)
    with pytest.raises(StoreUnavailable) as refused:
        open_memory(dsn=dsn, redis_url="")
    shown = "".join(traceback.format_exception(refused.value))
    assert "MEMORY_DSN is not a valid PostgreSQL connection string" in shown
    assert "s3cret" not in shown
    assert "s3cret" not in caplog.text
