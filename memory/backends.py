"""Database backends for the store: an embedded SQLite file, or PostgreSQL."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memory.errors import StoreUnavailable
from memory.store import Backend, Cursor


class SQLiteBackend:
    """One SQLite file in WAL mode; a connection per thread, writers serialised."""

    name = "sqlite"

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreUnavailable(f"cannot create {self.path.parent}: {exc}") from exc

    def _connection(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            try:
                conn = sqlite3.connect(
                    self.path, isolation_level=None, check_same_thread=False, timeout=30
                )
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.execute("PRAGMA busy_timeout=30000")
            except sqlite3.Error as exc:
                raise StoreUnavailable(f"cannot open {self.path}: {exc}") from exc
            self._local.conn = conn
            with self._lock:
                self._connections.append(conn)
        return conn

    @contextmanager
    def transaction(self, namespace: str | None = None) -> Iterator[Cursor]:
        conn = self._connection()
        try:
            cur = conn.cursor()
            # IMMEDIATE takes the database's write lock now, so a read-decide-write
            # sequence of one namespace never interleaves with another writer.
            cur.execute("BEGIN IMMEDIATE" if namespace is not None else "BEGIN")
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"SQLite store unavailable: {exc}") from exc
        try:
            yield cur
            conn.commit()
        except sqlite3.Error as exc:
            conn.rollback()
            raise StoreUnavailable(f"SQLite store failed: {exc}") from exc
        except BaseException:
            conn.rollback()
            raise

    def sql(self, statement: str) -> str:
        return statement.replace("%s", "?")

    def to_db_time(self, moment: datetime) -> str:
        return moment.astimezone(UTC).isoformat(timespec="microseconds")

    def from_db_time(self, value: Any) -> datetime:
        return datetime.fromisoformat(str(value))

    def blob(self, data: bytes) -> bytes:
        return data

    def ping(self) -> bool:
        try:
            self._connection().execute("SELECT 1").fetchone()
        except (sqlite3.Error, StoreUnavailable):
            return False
        return True

    def close(self) -> None:
        with self._lock:
            for conn in self._connections:
                conn.close()
            self._connections.clear()
        self._local = threading.local()


class PostgresBackend:
    """PostgreSQL through a psycopg connection pool; namespace writers hold an advisory lock."""

    name = "postgresql"

    def __init__(
        self, dsn: str, *, max_size: int = 10, timeout: float = 2.0, retry_after: float = 2.0
    ) -> None:
        from psycopg_pool import ConnectionPool

        self._timeout = timeout
        self._retry_after = retry_after
        self._down_until = 0.0
        self._pool = ConnectionPool(
            dsn,
            min_size=1,
            max_size=max_size,
            open=False,
            timeout=timeout,
            kwargs={"connect_timeout": 3},
        )
        # Do not wait for the server here: a database that is down at start-up
        # must degrade recall, not stop the process.
        self._pool.open(wait=False)

    @contextmanager
    def transaction(self, namespace: str | None = None) -> Iterator[Cursor]:
        import psycopg
        from psycopg_pool import PoolTimeout

        if time.monotonic() < self._down_until:
            # Fail fast while the server is known to be down, instead of making every
            # caller wait for the pool's timeout.
            raise StoreUnavailable("PostgreSQL store unavailable (retrying shortly)")
        try:
            with self._pool.connection(timeout=self._timeout) as conn, conn.transaction():
                cur = conn.cursor()
                if namespace is not None:
                    cur.execute(
                        "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (namespace,)
                    )
                yield cur
        except (psycopg.OperationalError, psycopg.InterfaceError, PoolTimeout) as exc:
            self._down_until = time.monotonic() + self._retry_after
            raise StoreUnavailable(f"PostgreSQL store unavailable: {type(exc).__name__}") from exc
        except psycopg.Error as exc:
            raise StoreUnavailable(f"PostgreSQL store failed: {exc}") from exc

    def sql(self, statement: str) -> str:
        return statement

    def to_db_time(self, moment: datetime) -> datetime:
        return moment

    def from_db_time(self, value: Any) -> datetime:
        assert isinstance(value, datetime)
        return value

    def blob(self, data: bytes) -> bytes:
        return data

    def ping(self) -> bool:
        try:
            with self.transaction() as cur:
                cur.execute("SELECT 1")
        except StoreUnavailable:
            return False
        return True

    def close(self) -> None:
        self._pool.close()


def backend_from_dsn(dsn: str) -> Backend:
    """`sqlite:///relative/or/absolute.db` or `postgresql://...`."""
    if dsn.startswith("sqlite:///"):
        return SQLiteBackend(dsn.removeprefix("sqlite:///"))
    if dsn.startswith(("postgresql://", "postgres://")):
        return PostgresBackend(dsn)
    raise ValueError(
        "MEMORY_DSN must start with sqlite:/// or postgresql:// (got an unsupported scheme)"
    )
