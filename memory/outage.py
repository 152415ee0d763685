"""A database outage as an operator reads it in the log: one line when it starts, a
reminder at most every `remind_every` seconds while it lasts, one line when it ends.

The PostgreSQL pool retries its connection in the background and logs each failed
attempt as a two-line warning (about one a second while the server is down), which
floods the log. `PoolLog` keeps those records of one pool out of the log and hands the
most recent one's reason to `Outage`, so the first line of an outage still says why
(connection refused, authentication failed...), once, on one line.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from memory.errors import StoreUnavailable

log = logging.getLogger("memory.database")

POOL_LOGGER = "psycopg.pool"
DEGRADES = "preferences cannot be read or saved, replies go on without them and /readyz answers 503"
# What the outage of Bailian's cache journal degrades (`memory.redelivery`): not memory.
JOURNAL_DEGRADES = (
    "the cache journal cannot be read or written: invalidations Redis missed are kept in "
    "this process's memory only; preferences are still read and saved in Bailian"
)


def one_line(text: str) -> str:
    return " ".join(text.split())


def database_at(dsn: str) -> str:
    """host:port of PostgreSQL DSN `dsn`, for the log. A DSN psycopg cannot parse is
    `StoreUnavailable`, without psycopg's message: it quotes the DSN, password included."""
    from psycopg import Error
    from psycopg.conninfo import conninfo_to_dict

    try:
        info = conninfo_to_dict(dsn)
    except Error:
        raise StoreUnavailable("MEMORY_DSN is not a valid PostgreSQL connection string") from None
    return f"{info.get('host') or 'local socket'}:{info.get('port') or 5432}"


def why_unreachable(dsn: str) -> str:
    """Why a direct connection to `dsn` fails, on one line ("" when it does not): psycopg's
    connection errors name the host and port, never the password."""
    import psycopg

    try:
        psycopg.connect(dsn, connect_timeout=2).close()
    except psycopg.Error as exc:
        return one_line(f"{type(exc).__name__}: {exc}")
    return ""


class PoolLog(logging.Filter):
    """Drops pool `name`'s "error connecting" warnings, remembering the last reason."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.pool = name
        self.last_reason = ""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if (
            record.msg.startswith("error connecting in")
            and isinstance(args, tuple)
            and args
            and args[0] == self.pool
        ):
            self.last_reason = one_line(str(args[-1]))
            return False
        return True

    def attach(self) -> None:
        logging.getLogger(POOL_LOGGER).addFilter(self)

    def detach(self) -> None:
        logging.getLogger(POOL_LOGGER).removeFilter(self)


class Outage:
    """Tracks whether database `where` (host:port) is down, and logs the changes."""

    def __init__(
        self,
        where: str,
        *,
        remind_every: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        probe: Callable[[], str] | None = None,
        degrades: str = DEGRADES,
    ) -> None:
        self.where = where
        self.degrades = degrades  # what the outage means, for its first line
        self._probe = probe
        self.remind_every = remind_every
        self._clock = clock
        self._lock = threading.Lock()
        self._since: float | None = None
        self._reminded = 0.0
        self._failures = 0

    @property
    def down(self) -> bool:
        return self._since is not None

    @classmethod
    def of(cls, dsn: str, *, remind_every: float = 60.0, degrades: str = DEGRADES) -> Outage:
        """The outage tracker of PostgreSQL DSN `dsn` (`database_at`), which asks the server
        itself why when the pool only says it timed out."""
        return cls(
            database_at(dsn),
            remind_every=remind_every,
            probe=lambda: why_unreachable(dsn),
            degrades=degrades,
        )

    def failed(self, reason: str) -> None:
        """A call could not reach the database; `reason` is one line, never a password."""
        if self._since is None and self._probe is not None and reason.startswith("PoolTimeout"):
            # The pool's own attempt has not failed yet (a loaded machine): its timeout says
            # nothing of why, so the first line would hide the cause.
            reason = self._probe() or reason
        now = self._clock()
        with self._lock:
            self._failures += 1
            if self._since is None:
                self._since = self._reminded = now
                self._failures = 1
                log.error(
                    "database outage: PostgreSQL at %s unreachable (%s); %s; retrying",
                    self.where,
                    reason,
                    self.degrades,
                )
            elif now - self._reminded >= self.remind_every:
                self._reminded = now
                log.warning(
                    "database outage goes on: PostgreSQL at %s unreachable for %ds "
                    "(%d failed calls; last: %s)",
                    self.where,
                    now - self._since,
                    self._failures,
                    reason,
                )

    def succeeded(self) -> None:
        if self._since is None:
            return
        with self._lock:
            if self._since is None:
                return
            lasted = self._clock() - self._since
            failures, self._since = self._failures, None
        log.warning(
            "database outage over: PostgreSQL at %s reachable again after %ds (%d failed calls)",
            self.where,
            lasted,
            failures,
        )
