"""A thread's SQLite connection (`memory.backends.SQLiteBackend`)."""

from __future__ import annotations

import sqlite3
import weakref


class ThreadConnection:
    """A thread's SQLite connection; closed when the thread ends (its locals are freed).

    `busy` while its thread is in a transaction: `close()` of the backend then leaves it
    to that thread to close at the transaction's end (`doomed`), since closing a
    connection another thread is using can crash the process.
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.busy = False
        self.doomed = False
        self._finalizer = weakref.finalize(self, conn.close)

    def close(self) -> None:
        self._finalizer()
