"""Database backends for the store: an embedded SQLite file, or PostgreSQL."""

from __future__ import annotations

import contextlib
import heapq
import itertools
import os
import socket
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memory.errors import StoreUnavailable
from memory.outage import DEGRADES, Outage, PoolLog, one_line
from memory.sqlite_connection import ThreadConnection as _ThreadConnection
from memory.store import Backend, Cursor

# How long a statement waits for another connection's lock before the store is called
# unavailable (`SQLITE_BUSY_TIMEOUT_SECONDS`): short, as it is on the path of a reply.
DEFAULT_BUSY_TIMEOUT = 2.0
PATIENT_BUSY_TIMEOUT = 30.0  # migrations, off the request path's common case


class SQLiteBackend:
    """One SQLite file in WAL mode; a connection per thread, writers serialised.

    Connections belong to threads and are closed when their thread ends, so pools that
    replace their threads (the warming pass makes one per run) never leak file handles.

    A lock held by another connection or process (a backup, a long write, a stuck
    tool) is waited for `busy_timeout` seconds at most; then the statement fails with
    "database is locked", raised as `StoreUnavailable`, so a recall says memory is
    unavailable and a write says it was not saved, instead of every worker waiting.
    In WAL mode readers are not blocked by a writer, so recall goes on while one holds
    the write lock; only writes (and reads under an exclusive locking mode) wait.
    """

    name = "sqlite"

    def __init__(self, path: str | Path, *, busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> None:
        self.path = Path(path)
        self.busy_timeout = busy_timeout
        self._local = threading.local()
        self._open: weakref.WeakSet[_ThreadConnection] = weakref.WeakSet()
        self._lock = threading.Lock()
        self._wal_lock = threading.Lock()
        self._wal = False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreUnavailable(f"cannot create {self.path.parent}: {exc}") from exc

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.path, isolation_level=None, check_same_thread=False, timeout=self.busy_timeout
        )
        self._busy_timeout(conn, self.busy_timeout)
        conn.execute("PRAGMA synchronous=NORMAL")
        return conn

    def _enable_wal(self, conn: sqlite3.Connection) -> None:
        """Switch the file to WAL once; a new file being switched can report "locked".

        Tried for the busy timeout at most, and by one thread at a time: the others wait
        as long, then fail, rather than queueing one after another behind a held lock.
        """
        if self._wal:
            return
        if not self._wal_lock.acquire(timeout=self.busy_timeout):
            raise sqlite3.OperationalError("database is locked (switching to WAL)")
        try:
            if self._wal:
                return
            deadline = time.monotonic() + self.busy_timeout
            while True:
                try:
                    conn.execute("PRAGMA journal_mode=WAL")
                    break
                except sqlite3.OperationalError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
            self._wal = True
        finally:
            self._wal_lock.release()

    def _connection(self) -> sqlite3.Connection:
        return self._holder().conn

    def _holder(self) -> _ThreadConnection:
        holder: _ThreadConnection | None = getattr(self._local, "holder", None)
        if holder is None:
            try:
                conn = self._connect()
                self._enable_wal(conn)
            except sqlite3.Error as exc:
                raise StoreUnavailable(f"cannot open {self.path}: {exc}") from exc
            holder = _ThreadConnection(conn)
            self._local.holder = holder
            with self._lock:
                self._open.add(holder)
        return holder

    @property
    def open_connections(self) -> int:
        with self._lock:
            return len(self._open)

    @contextmanager
    def transaction(
        self, namespace: str | None = None, *, patient: bool = False, chore: bool = False
    ) -> Iterator[Cursor]:
        """`patient` (migrations): wait for a lock held elsewhere up to 30 s, not the
        busy timeout. `chore`: see `memory.store.Backend.transaction`."""
        holder = self._holder()
        with self._lock:
            holder.busy = True
        try:
            if patient:
                self._busy_timeout(holder.conn, PATIENT_BUSY_TIMEOUT)
            with self._transaction(holder.conn, namespace) as cur:
                yield cur
        finally:
            if patient:
                with contextlib.suppress(StoreUnavailable):
                    self._busy_timeout(holder.conn, self.busy_timeout)
            with self._lock:
                holder.busy = False
                doomed = holder.doomed
            if doomed:
                holder.close()

    @staticmethod
    def _busy_timeout(conn: sqlite3.Connection, seconds: float) -> None:
        try:
            conn.execute(f"PRAGMA busy_timeout={int(seconds * 1000)}")
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"SQLite store unavailable: {exc}") from exc

    @contextmanager
    def _transaction(self, conn: sqlite3.Connection, namespace: str | None) -> Iterator[Cursor]:
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
            with self.transaction() as cur:
                cur.execute("SELECT 1").fetchone()
        except (sqlite3.Error, StoreUnavailable):
            return False
        return True

    def close(self) -> None:
        """Close every connection; one in use by a transaction is closed by its thread
        when the transaction ends."""
        with self._lock:  # a thread marks its connection busy under the same lock
            holders = list(self._open)
            self._open.clear()
            for holder in holders:
                holder.doomed = holder.busy
                if not holder.doomed:
                    holder.close()
        self._local = threading.local()


class _Watchdog:
    """Runs a callback when its deadline passes, unless cancelled first; one thread."""

    def __init__(self) -> None:
        self._due: list[tuple[float, int]] = []
        self._actions: dict[int, Callable[[], None]] = {}
        self._ids = itertools.count()
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None

    def arm(self, seconds: float, action: Callable[[], None]) -> int:
        with self._wake:
            token = next(self._ids)
            self._actions[token] = action
            heapq.heappush(self._due, (time.monotonic() + seconds, token))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="db-watchdog", daemon=True)
                self._thread.start()
            if self._due[0][1] == token:  # the earliest deadline now
                self._wake.notify()
        return token

    def disarm(self, token: int) -> None:
        """After it returns, the action of `token` has run or never will."""
        with self._wake:
            self._actions.pop(token, None)

    def _run(self) -> None:
        with self._wake:
            while True:
                now = time.monotonic()
                # Pop what is due, and what was disarmed (so the heap never grows).
                while self._due and (
                    self._due[0][0] <= now or self._due[0][1] not in self._actions
                ):
                    _, token = heapq.heappop(self._due)
                    action = self._actions.pop(token, None)
                    if action is not None:
                        action()  # under the lock: never after `disarm` returned
                self._wake.wait(self._due[0][0] - now if self._due else None)


def _hang_up(fd: int) -> None:
    """Shut the connection's socket down: a query waiting on it fails at once."""
    try:
        with socket.socket(fileno=os.dup(fd)) as sock:
            sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


_POOL_NAMES = itertools.count(1)


class PostgresBackend:
    """PostgreSQL through a psycopg connection pool; namespace writers hold an advisory lock.

    A transaction on the request path that has not finished in `query_timeout` seconds
    (a server that is paused, overloaded or unreachable mid-query; a namespace lock
    held too long) is cut off: its connection is hung up, so it fails as
    `StoreUnavailable` instead of holding a worker until the server answers. Migrations
    (`patient=True`) are never cut off.
    """

    name = "postgresql"

    def __init__(
        self,
        dsn: str,
        *,
        max_size: int = 10,
        timeout: float = 2.0,
        retry_after: float = 2.0,
        query_timeout: float = 5.0,
        remind_every: float = 60.0,
        degrades: str = DEGRADES,
    ) -> None:
        from psycopg_pool import ConnectionPool

        self._outage = Outage.of(dsn, remind_every=remind_every, degrades=degrades)
        name = f"memory-{next(_POOL_NAMES)}"
        self._pool_log = PoolLog(name)
        self._pool_log.attach()
        self._query_timeout = query_timeout
        self._watchdog = _Watchdog()
        self._timeout = timeout
        self.retry_after = retry_after  # seconds every call is refused after a failure
        self._down_until = 0.0
        self._pool = ConnectionPool(
            dsn,
            min_size=1,
            max_size=max_size,
            open=False,
            timeout=timeout,
            kwargs={"connect_timeout": 3},
            name=name,
        )
        # Do not wait for the server here: a database that is down at start-up
        # must degrade recall, not stop the process.
        self._pool.open(wait=False)

    @contextmanager
    def transaction(
        self, namespace: str | None = None, *, patient: bool = False, chore: bool = False
    ) -> Iterator[Cursor]:
        import psycopg
        from psycopg_pool import PoolTimeout

        if time.monotonic() < self._down_until:
            # Fail fast while the server is known to be down, instead of making every
            # caller wait for the pool's timeout.
            self._outage.failed(self._pool_log.last_reason or "retrying shortly")
            raise StoreUnavailable("PostgreSQL store unavailable (retrying shortly)")
        try:
            with self._pool.connection(timeout=self._timeout) as conn:
                fd = conn.pgconn.socket
                token = None
                if not patient:
                    token = self._watchdog.arm(self._query_timeout, lambda: _hang_up(fd))
                try:
                    with conn.transaction():
                        cur = conn.cursor()
                        if namespace is not None:
                            cur.execute(
                                "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
                                (namespace,),
                            )
                        yield cur
                finally:
                    # Before the connection goes back to the pool: never hung up after.
                    if token is not None:
                        self._watchdog.disarm(token)
            self._outage.succeeded()
        except (psycopg.OperationalError, psycopg.InterfaceError, PoolTimeout) as exc:
            if chore:  # a cleanup that failed is no outage: nothing marked down or logged
                raise StoreUnavailable(f"PostgreSQL cleanup failed: {type(exc).__name__}") from exc
            self._down_until = time.monotonic() + self.retry_after
            reason = self._pool_log.last_reason
            if not isinstance(exc, PoolTimeout) or not reason:
                reason = one_line(f"{type(exc).__name__}: {exc}")
            self._outage.failed(reason)
            raise StoreUnavailable(f"PostgreSQL store unavailable: {type(exc).__name__}") from exc
        except psycopg.Error as exc:
            raise StoreUnavailable(f"PostgreSQL store failed: {exc}") from exc

    @property
    def down(self) -> bool:
        """Found unreachable a moment ago: calls fail at once until the retry."""
        return time.monotonic() < self._down_until

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
        self._pool_log.detach()


def backend_from_dsn(dsn: str, *, busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> Backend:
    """`sqlite:///relative/or/absolute.db` or `postgresql://...`; `busy_timeout` is how
    long SQLite waits for another connection's lock."""
    if dsn.startswith("sqlite:///"):
        return SQLiteBackend(dsn.removeprefix("sqlite:///"), busy_timeout=busy_timeout)
    if dsn.startswith(("postgresql://", "postgres://")):
        return PostgresBackend(dsn)
    raise ValueError(
        "MEMORY_DSN must start with sqlite:/// or postgresql:// (got an unsupported scheme)"
    )
