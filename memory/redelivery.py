"""Cache invalidations kept in the memory store until Redis has taken them.

A write that changes what is cached records its namespace in the store's
`cache_invalidations` table (key prefix, namespace, a token) inside its own
transaction (`write_and_invalidate`), then, once committed, drops the namespace's cached
summaries from Redis (`PreferenceCache.invalidate`) and deletes the row again. So the
drop outlives the process that made the change: a one-off `travel-bot memory forget`,
a console that quits, a deploy, a crash, or a process killed between its commit and the
drop; the changed facts and the row commit together or not at all. Without it the
cached copy of the preferences as they were, an erased fact included, would be served
until its TTL. The row's delete is the one cost of a write whose drop succeeded: made
off the request path by a thread that deletes what is queued in one transaction (the
write's answer never waits for the write lock again), whose commit PostgreSQL need not
wait to flush; a failed delete is no database outage. If it is lost, the drop is
delivered once more, which only empties a fresh entry.

Every process holding the cache delivers what is recorded:

- before its first cache read, and before its first read after an outage it saw (once
  per outage, not per read: a cache hit never reads the database);
- every `every` seconds (5) from a background thread, for a change another process
  made while this one could reach Redis, or one whose process died before its drop
  (one indexed read of a table that is empty except around an outage or such a death;
  skipped while this process's cache is backing off or its database is known to be
  down).

A read delivers at most `BATCH` rows and goes uncached while more remain (the next
reads and the thread deliver the rest). A read that cannot read the journal (the
database is down) is served from Redis: a warm cache answers without the database.

A row is deleted only after Redis confirmed the drop, and only when no newer write
recorded the namespace again meanwhile (its token changed). A reader that read the
store before the write and fills Redis after it is refused (or dropped) by the
generation counter every delivery moves (`memory.cache`), so a late fill cannot bring
an erased fact back.

Bailian's store is no database of ours: its journal is a database of its own
(`standalone_journal`, `BAILIAN_CACHE_JOURNAL_DSN`: a local SQLite file by default), and
a drop is recorded there only when Redis did not take it (`PreferenceCache.invalidate`).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar

from memory.errors import MemoryEngineError, StoreUnavailable
from memory.store import Backend, Store, Tx, utcnow

T = TypeVar("T")

log = logging.getLogger(__name__)

_RECORD = (
    "INSERT INTO cache_invalidations (key_prefix, namespace, token, recorded_at) "
    "VALUES (%s, %s, %s, %s) ON CONFLICT (key_prefix, namespace) "
    "DO UPDATE SET token = excluded.token, recorded_at = excluded.recorded_at"
)
_DUE = "SELECT namespace, token FROM cache_invalidations WHERE key_prefix = %s LIMIT %s"
# What a read delivers before it is served: a long journal (after a long outage) is
# drained by the background thread, the read meanwhile goes uncached.
BATCH = 50
_ALL = 1 << 62
_DONE = "DELETE FROM cache_invalidations WHERE key_prefix = %s AND namespace = %s AND token = %s"
# How long the thread deleting delivered rows waits for more before it ends.
_IDLE = 30.0
# A lost delete costs one more drop of the entry, never a stale one: no flush to wait for.
_NO_FLUSH = "SET LOCAL synchronous_commit TO OFF"


class Invalidator(Protocol):
    """What a write needs of the cache (`memory.cache.PreferenceCache`)."""

    journal: InvalidationJournal | None

    def invalidate(self, namespace: str, kept: str | None = None) -> None: ...


def write_and_invalidate(
    store: Store,
    cache: Invalidator,
    namespace: str,
    work: Callable[[Tx], T],
    changed: Callable[[T], bool] = lambda _: True,
) -> T:
    """Run `work` as one write of `namespace`; when `changed(result)`, drop the namespace's
    cached summaries after the commit, the drop kept in the same transaction until Redis
    has taken it (see the module docstring)."""
    journal, token = cache.journal, None
    if journal is not None and not journal.kept_in(store.backend):
        journal = None  # kept elsewhere: recorded there only if Redis refuses the drop

    def kept(tx: Tx) -> T:
        nonlocal token
        result = work(tx)
        if journal is not None and changed(result):
            token = journal.keep(tx)
        return result

    result = store.write(namespace, kept)
    if changed(result):
        cache.invalidate(namespace, kept=token)
    return result


class Sender(Protocol):
    """What the journal needs of the cache (`memory.cache.PreferenceCache`)."""

    def send_invalidate(self, namespace: str) -> bool: ...

    def backing_off(self) -> bool: ...


class InvalidationJournal:
    """The durable list of one cache's undelivered invalidations; see the module docstring.

    `ready` brings the schema up to date (raises `MemoryEngineError` when it cannot).
    `backend` is None for a journal opened by `opener` when first needed (a SQLite file
    of its own: `record` makes it, `deliver` reads it only once it exists).
    """

    def __init__(
        self,
        cache: Sender,
        backend: Backend | None,
        *,
        key_prefix: str,
        ready: Callable[[], object],
        every: float = 5.0,
        present: Callable[[], bool] | None = None,
        owns_backend: bool = False,
        opener: Callable[[], Backend] | None = None,
        where: str = "the memory store",
    ) -> None:
        self._cache = cache
        self._backend = backend
        self._opener = opener
        self._where = where
        self._closed = False
        self._unopened = False  # a journal that cannot be made is logged once
        self._prefix = key_prefix
        self._ready = ready
        self.every = every
        # False while the journal does not exist yet (a file made by the first `record`).
        self._present = present
        self._owns_backend = owns_backend
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._readable = True  # the journal is logged unreadable once per outage
        self._done: list[tuple[str, str]] = []  # rows to delete (`delivered`)
        self._queued = threading.Condition()
        self._tidier: threading.Thread | None = None
        self._tidying = False

    @property
    def backend(self) -> Backend:
        """The database the journal is kept in, opened now if it was not yet (raises
        `MemoryEngineError` when it cannot be, or the journal is closed)."""
        with self._lock:
            if self._backend is None:
                if self._closed or self._opener is None:
                    raise StoreUnavailable("the cache invalidation journal is closed")
                self._backend = self._opener()
            return self._backend

    def kept_in(self, backend: Backend) -> bool:
        """Whether the journal lives in `backend` (a write then keeps its row itself)."""
        return self._backend is backend

    def keep(self, tx: Tx) -> str:
        """Record `tx`'s namespace in `tx` (it commits with the write); returns its token."""
        token = uuid.uuid4().hex
        tx.execute(_RECORD, (self._prefix, tx.namespace, token, utcnow().isoformat()))
        return token

    def delivered(self, namespace: str, token: str) -> None:
        """Delete the row `keep` wrote, Redis having taken the drop: queued for a thread of
        its own, which deletes what is queued in one transaction, so a write's answer never
        waits for the write lock a second time. A failed delete, or a process that ends
        first, leaves the row to be delivered again: one more drop of a fresh entry."""
        with self._queued:
            self._done.append((namespace, token))
            self._queued.notify_all()
            if self._tidier is None:
                self._tidier = threading.Thread(
                    target=self._tidy, name="ltm-cache-tidy", daemon=True
                )
                self._tidier.start()

    def settle(self, timeout: float = 5.0) -> None:
        """Wait until the queued deletes are done (on stop, for tests and benches)."""
        with self._queued:
            self._queued.wait_for(lambda: not self._done and not self._tidying, timeout)

    def _tidy(self) -> None:
        """Delete what is queued; the thread ends after `_IDLE` seconds without work, or
        once nothing is queued after `stop` (a stopped process leaves no thread behind)."""
        while True:
            with self._queued:
                if not self._queued.wait_for(self._work_or_stop, _IDLE) or not self._done:
                    self._tidier = None
                    return
                done, self._done, self._tidying = self._done, [], True
            try:
                self._delete(done)
            finally:
                with self._queued:
                    self._tidying = False
                    self._queued.notify_all()

    def _work_or_stop(self) -> bool:
        return bool(self._done) or self._stop.is_set()

    def _delete(self, done: list[tuple[str, str]]) -> None:
        with contextlib.suppress(MemoryEngineError):
            backend = self.backend
            if getattr(backend, "down", False):
                return  # delivered again once the database is back
            with backend.transaction(chore=True) as cur:
                if backend.name == "postgresql":
                    cur.execute(_NO_FLUSH)
                for namespace, token in done:
                    cur.execute(backend.sql(_DONE), (self._prefix, namespace, token))

    def record(self, namespace: str) -> bool:
        """Keep `namespace`'s invalidation until delivered, in a transaction of its own
        (for a drop no write of this store made); False when the store failed."""
        try:
            backend = self.backend
        except MemoryEngineError as exc:
            if not self._unopened:
                self._unopened = True
                log.warning(
                    "cannot make the journal of undelivered cache invalidations in %s (%s): "
                    "they are kept in this process's memory only, lost if it stops",
                    self._where,
                    exc,
                )
            return False
        try:
            self._ready()
            with backend.transaction() as cur:
                cur.execute(
                    backend.sql(_RECORD),
                    (self._prefix, namespace, uuid.uuid4().hex, utcnow().isoformat()),
                )
        except MemoryEngineError as exc:
            log.error("could not keep an undelivered cache invalidation (%s)", exc)
            return False
        return True

    def deliver(self, limit: int | None = BATCH) -> int:
        """Send the recorded invalidations (the first `limit` of them), deleting each one
        Redis took; returns how many are left, or at least, when `limit` left some
        unsent (-1: the store could not be read).

        While the database is known to be down (`backend.down`) nothing is tried, and
        the store becoming unreadable and readable again is logged once each, not at
        every tick: `memory.outage` already says the database is down.
        """
        if getattr(self._backend, "down", False):  # None (not made yet): not down
            return -1
        if self._present is not None and not self._present():
            return 0
        try:
            backend = self.backend
            self._ready()
            fetch = _ALL if limit is None else limit + 1  # one more: are rows left?
            with backend.transaction() as cur:
                cur.execute(backend.sql(_DUE), (self._prefix, fetch))
                rows = [(str(row[0]), str(row[1])) for row in cur.fetchall()]
        except MemoryEngineError as exc:
            if self._readable:
                self._readable = False
                log.warning("could not read the undelivered cache invalidations (%s)", exc)
            return -1
        if not self._readable:
            self._readable = True
            log.warning("the undelivered cache invalidations can be read again")
        more = len(rows) - limit if limit is not None and len(rows) > limit else 0
        rows = rows[: len(rows) - more]
        for done, (namespace, token) in enumerate(rows):
            if not self._cache.send_invalidate(namespace):
                return len(rows) - done + more  # Redis does not answer: the rest wait
            try:
                with backend.transaction() as cur:
                    cur.execute(backend.sql(_DONE), (self._prefix, namespace, token))
            except MemoryEngineError:
                pass  # delivered again next time: one more drop of a fresh entry
        if rows:
            log.warning("delivered %d cache invalidation(s) kept during an outage", len(rows))
        return more

    def watch(self) -> None:
        """Deliver every `every` seconds from a background thread (started once)."""
        thread = self._thread
        if thread is not None and thread.is_alive():
            return
        with self._lock:
            if self._stop.is_set() or (self._thread is not None and self._thread.is_alive()):
                return
            self._thread = threading.Thread(
                target=self._run, name="ltm-cache-redeliver", daemon=True
            )
            self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            if not self._cache.backing_off():
                self.deliver(None)

    def stop(self) -> None:
        """Stop the background thread; `record` and `delivered` still work until `close`
        (what the engine's own closing, after the cache's `flush`, still invalidates)."""
        with self._lock:
            self._stop.set()
            thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(5)
        self.settle()
        with self._queued:
            tidier = self._tidier
            self._queued.notify_all()  # it sees `_stop` and ends
        if tidier is not None:
            tidier.join(5)

    def close(self) -> None:
        """Stop, and close the journal's database when it is the journal's own: last, after
        everything that may still invalidate (Bailian's follower) has closed."""
        self.stop()
        with self._lock:
            self._closed = True
            backend = self._backend if self._owns_backend else None
        if backend is not None:
            backend.close()


def standalone_journal(
    cache: Sender, dsn: str, *, key_prefix: str, busy_timeout: float
) -> InvalidationJournal | None:
    """A journal in a database of its own, for a store that has none of ours (Bailian):
    `dsn` is a SQLite file, made (its directory too) when a first invalidation must be
    kept (so a process that never misses Redis makes nothing), or PostgreSQL (shared by
    every host, opened now). None when PostgreSQL cannot be opened (logged): undelivered
    invalidations then live in memory only."""
    from memory.backends import PostgresBackend, SQLiteBackend
    from memory.migrations import JOURNAL_MIGRATIONS, migrate
    from memory.outage import JOURNAL_DEGRADES

    backend: Backend | None = None
    opener: Callable[[], Backend] | None = None
    present: Callable[[], bool] | None = None
    if dsn.startswith("sqlite:///"):
        path = Path(dsn.removeprefix("sqlite:///"))
        opener, present = lambda: SQLiteBackend(path, busy_timeout=busy_timeout), path.exists
    else:
        try:
            if not dsn.startswith(("postgresql://", "postgres://")):
                raise ValueError("expected sqlite:/// or postgresql://")
            backend = PostgresBackend(dsn, degrades=JOURNAL_DEGRADES)  # its outage: not memory's
        except (MemoryEngineError, ValueError) as exc:
            log.error("cannot keep undelivered cache invalidations in %s (%s)", _where(dsn), exc)
            return None
    journal: InvalidationJournal
    migrated = False

    def ready() -> None:
        nonlocal migrated
        if not migrated:
            migrate(journal.backend, "cache-journal", JOURNAL_MIGRATIONS)
            migrated = True

    journal = InvalidationJournal(
        cache,
        backend,
        key_prefix=key_prefix,
        ready=ready,
        present=present,
        owns_backend=True,
        opener=opener,
        where=_where(dsn),
    )
    return journal


def _where(dsn: str) -> str:
    """The journal's database for the log: a SQLite file, or PostgreSQL (never its DSN)."""
    return dsn if dsn.startswith("sqlite:") else "PostgreSQL"
