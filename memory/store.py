"""The semantic store: facts with embeddings, per namespace, on SQLite or PostgreSQL.

Both backends share this module's SQL; `memory.backends` holds what differs (connections,
transactions, the per-namespace write lock, timestamps).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol, TypeVar

import numpy as np

from memory.embedding import Vector
from memory.types import MemoryItem

T = TypeVar("T")

_COLUMNS = (
    "id, namespace, text, lang, source, slot, value, polarity, created_at, invalid_at, "
    "superseded_by, invalid_reason, embedding, embedding_model, scope, contested_by"
)


@dataclass(slots=True)
class StoredItem:
    """A current fact as the engine works with it: the public item plus its vector."""

    item: MemoryItem
    embedding: Vector
    embedding_model: str


class Cursor(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ...) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def fetchone(self) -> Any: ...

    @property
    def rowcount(self) -> int: ...


class Backend(Protocol):
    """What a database backend provides to `Store`."""

    name: str

    def transaction(
        self, namespace: str | None = None, *, patient: bool = False, chore: bool = False
    ) -> AbstractContextManager[Cursor]:
        """A transaction; with a namespace, writers to it are serialised until commit.

        It fails (`StoreUnavailable`) rather than wait long for a lock or a server,
        unless `patient` (schema migrations). A `chore` (a cleanup off the request path)
        that fails reports no database outage: PostgreSQL is not marked down for it."""
        ...

    def sql(self, statement: str) -> str:
        """`statement` written with `%s` placeholders, in this backend's dialect."""
        ...

    def to_db_time(self, moment: datetime) -> Any: ...

    def from_db_time(self, value: Any) -> datetime: ...

    def blob(self, data: bytes) -> Any: ...

    def ping(self) -> bool: ...

    def close(self) -> None: ...


def utcnow() -> datetime:
    return datetime.now(UTC)


class Tx:
    """Operations inside one write transaction of one namespace."""

    def __init__(self, store: Store, cur: Cursor, namespace: str) -> None:
        self._store = store
        self._cur = cur
        self.namespace = namespace

    def current(self) -> list[StoredItem]:
        return self._store._select_current(self._cur, self.namespace)

    def insert(self, item: MemoryItem, embedding: Vector, embedding_model: str) -> None:
        b = self._store.backend
        self._cur.execute(
            b.sql(
                f"INSERT INTO memory_items ({_COLUMNS}) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
            ),
            (
                item.id,
                item.namespace,
                item.text,
                item.lang,
                item.source,
                item.slot,
                None if item.value is None else json.dumps(item.value, ensure_ascii=False),
                item.polarity,
                b.to_db_time(item.created_at),
                None,
                None,
                "",
                b.blob(np.asarray(embedding, dtype=np.float32).tobytes()),
                embedding_model,
                item.scope,
                item.contested_by,
            ),
        )

    def supersede(self, item_id: str, *, by: str | None, reason: str, at: datetime) -> None:
        b = self._store.backend
        self._cur.execute(
            b.sql(
                "UPDATE memory_items SET invalid_at = %s, superseded_by = %s, invalid_reason = %s "
                "WHERE id = %s AND namespace = %s AND invalid_at IS NULL"
            ),
            (b.to_db_time(at), by, reason, item_id, self.namespace),
        )

    def contest(self, item_id: str, *, by: str) -> None:
        """Mark a current fact as possibly replaced by the newer fact `by`; both stay current."""
        self._cur.execute(
            self._store.backend.sql(
                "UPDATE memory_items SET contested_by = %s "
                "WHERE id = %s AND namespace = %s AND invalid_at IS NULL"
            ),
            (by, item_id, self.namespace),
        )

    def set_embedding(self, item_id: str, embedding: Vector, embedding_model: str) -> None:
        b = self._store.backend
        self._cur.execute(
            b.sql(
                "UPDATE memory_items SET embedding = %s, embedding_model = %s "
                "WHERE id = %s AND namespace = %s"
            ),
            (
                b.blob(np.asarray(embedding, dtype=np.float32).tobytes()),
                embedding_model,
                item_id,
                self.namespace,
            ),
        )

    def forget(self, item_id: str | None = None) -> int:
        """Erase one fact (with the history it replaced) or every fact; returns how many."""
        sql, cur = self._store.backend.sql, self._cur
        if item_id is None:
            cur.execute(sql("DELETE FROM memory_items WHERE namespace = %s"), (self.namespace,))
            return int(cur.rowcount)
        # Forgetting a fact also erases the older versions it superseded:
        # "forget that I like window seats" must not leave the words in history.
        doomed = self._chain(item_id)
        for doomed_id in doomed:
            cur.execute(
                sql("DELETE FROM memory_items WHERE namespace = %s AND id = %s"),
                (self.namespace, doomed_id),
            )
        return len(doomed)

    def _chain(self, item_id: str) -> list[str]:
        sql, cur = self._store.backend.sql, self._cur
        cur.execute(
            sql("SELECT id FROM memory_items WHERE namespace = %s AND id = %s"),
            (self.namespace, item_id),
        )
        if cur.fetchone() is None:
            return []
        found = [item_id]
        frontier = [item_id]
        while frontier:
            cur.execute(
                sql("SELECT id FROM memory_items WHERE namespace = %s AND superseded_by = %s"),
                (self.namespace, frontier.pop()),
            )
            for (older,) in cur.fetchall():
                if older not in found:
                    found.append(older)
                    frontier.append(older)
        return found

    def execute(self, statement: str, params: Sequence[Any] = ()) -> None:
        """Another table's statement (`%s` placeholders) in this transaction: what must
        commit with the write or not at all (`memory.redelivery`)."""
        self._cur.execute(self._store.backend.sql(statement), params)


class Store:
    """Facts of every namespace in one database; every query is scoped by namespace."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    def _row_to_stored(self, row: Sequence[Any]) -> StoredItem:
        b = self.backend
        value = None if row[6] is None else json.loads(row[6])
        if isinstance(value, list):
            value = tuple(value)
        item = MemoryItem(
            id=row[0],
            namespace=row[1],
            text=row[2],
            lang=row[3],
            source=row[4],
            slot=row[5],
            value=value,
            polarity=row[7],
            created_at=b.from_db_time(row[8]),
            invalid_at=None if row[9] is None else b.from_db_time(row[9]),
            superseded_by=row[10],
            invalid_reason=row[11] or "",
            scope=row[14] or None,
            contested_by=row[15] or None,
        )
        embedding = np.frombuffer(bytes(row[12]), dtype=np.float32)
        return StoredItem(item=item, embedding=embedding, embedding_model=row[13])

    def _select_current(self, cur: Cursor, namespace: str) -> list[StoredItem]:
        cur.execute(
            self.backend.sql(
                f"SELECT {_COLUMNS} FROM memory_items "
                "WHERE namespace = %s AND invalid_at IS NULL ORDER BY created_at, id"
            ),
            (namespace,),
        )
        return [self._row_to_stored(row) for row in cur.fetchall()]

    def current(self, namespace: str) -> list[StoredItem]:
        """Current (not superseded) facts of a namespace, oldest first."""
        with self.backend.transaction() as cur:
            return self._select_current(cur, namespace)

    def history(self, namespace: str) -> list[MemoryItem]:
        """Every fact of a namespace, superseded ones included, oldest first."""
        with self.backend.transaction() as cur:
            cur.execute(
                self.backend.sql(
                    f"SELECT {_COLUMNS} FROM memory_items "
                    "WHERE namespace = %s ORDER BY created_at, id"
                ),
                (namespace,),
            )
            return [self._row_to_stored(row).item for row in cur.fetchall()]

    def write(self, namespace: str, work: Callable[[Tx], T]) -> T:
        """Run `work` in one transaction that holds the namespace's write lock."""
        with self.backend.transaction(namespace) as cur:
            return work(Tx(self, cur, namespace))

    def forget(self, namespace: str, item_id: str | None = None) -> int:
        """Erase one fact (with the history it replaced) or every fact of a namespace."""
        return self.write(namespace, lambda tx: tx.forget(item_id))

    def namespaces(self) -> Iterator[str]:
        """Every namespace with a fact (a scan: for the command line, never a reply)."""
        with self.backend.transaction(patient=True) as cur:
            cur.execute(self.backend.sql("SELECT DISTINCT namespace FROM memory_items"))
            rows = cur.fetchall()
        for (namespace,) in rows:
            yield namespace

    def ping(self) -> bool:
        return self.backend.ping()

    def close(self) -> None:
        self.backend.close()
