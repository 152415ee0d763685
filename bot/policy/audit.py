"""The audit log of travel policy: who did what, when, per organisation.

Every approval decision (and every refused attempt to decide), every request for one,
every policy and grade change, and every turn in which a travel admin's plan reads a
colleague's memory is one row of `policy_audit`, read back oldest first by
`travel-bot policy audit --org ORG`. Rows are only ever added. A decision's row is
written in the transaction that makes the decision, so the log never misses one and
never holds one that did not happen.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.policy.orgs import org_of
from bot.policy.schema import Tables
from memory.store import Backend, Cursor, utcnow

log = logging.getLogger(__name__)

POLICY_SET = "policy_set"
GRADE_SET = "grade_set"
REQUESTED = "approval_requested"
APPROVED = "approved"
REJECTED = "rejected"
EXPIRED = "expired"
REFUSED = "decision_refused"
MEMORY_READ = "memory_read"
KINDS = (POLICY_SET, GRADE_SET, REQUESTED, APPROVED, REJECTED, EXPIRED, REFUSED, MEMORY_READ)
DECISIONS = (APPROVED, REJECTED, EXPIRED)

_COLUMNS = "id, org, at, kind, actor, subject, trip_id, request_id, detail"


@dataclass(frozen=True, slots=True)
class AuditEntry:
    id: str
    org: str
    at: datetime
    kind: str
    actor: str  # a namespace, "cli:NAME" or "system"
    subject: str | None = None  # the traveller concerned
    trip_id: str | None = None
    request_id: str | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "org": self.org,
            "at": self.at.isoformat(),
            "kind": self.kind,
            "actor": self.actor,
            "subject": self.subject,
            "trip_id": self.trip_id,
            "request_id": self.request_id,
            "detail": dict(self.detail),
        }


class AuditLog:
    """Rows of `policy_audit` on a memory `Backend` (SQLite or PostgreSQL)."""

    def __init__(self, backend: Backend, *, clock: Callable[[], datetime] = utcnow) -> None:
        self.backend = backend
        self.clock = clock
        self._tables = Tables(backend)

    def record(
        self,
        org: str,
        kind: str,
        *,
        actor: str,
        subject: str | None = None,
        trip_id: str | None = None,
        request_id: str | None = None,
        detail: Mapping[str, Any] | None = None,
        cur: Cursor | None = None,
    ) -> AuditEntry:
        """Add a row; inside the caller's transaction when `cur` is given."""
        if kind not in KINDS:
            raise ValueError(f"unknown audit kind {kind!r}")
        entry = AuditEntry(
            id=uuid.uuid4().hex,
            org=org,
            at=self.clock(),
            kind=kind,
            actor=actor,
            subject=subject,
            trip_id=trip_id,
            request_id=request_id,
            detail=dict(detail or {}),
        )
        if cur is not None:
            self._insert(cur, entry)
            return entry
        self._tables.ready()
        with self.backend.transaction() as own:
            self._insert(own, entry)
        return entry

    def memory_read(self, *, reader: str, traveller: str, turn: str = "") -> bool:
        """Log that a travel admin's plan reads a colleague's memory; never raises (a
        failure is logged and the turn goes on). True when the row was written."""
        try:
            self.record(
                org_of(traveller),
                MEMORY_READ,
                actor=reader,
                subject=traveller,
                detail={"turn": turn} if turn else {},
            )
        except Exception as exc:
            log.warning("audit: a colleague's memory read was not logged (%s)", type(exc).__name__)
            return False
        return True

    def entries(
        self,
        org: str,
        *,
        since: datetime | None = None,
        kinds: Sequence[str] = (),
        limit: int | None = None,
    ) -> list[AuditEntry]:
        """The organisation's rows, oldest first (since a moment, of some kinds)."""
        self._tables.ready()
        where: list[str] = ["org = %s"]
        params: list[Any] = [org]
        if since is not None:
            where.append("at >= %s")
            params.append(self.backend.to_db_time(since))
        if kinds:
            where.append("kind IN (" + ", ".join("%s" for _ in kinds) + ")")
            params += list(kinds)
        tail = ""
        if limit is not None:
            tail = " LIMIT %s"
            params.append(limit)
        with self.backend.transaction() as cur:
            cur.execute(
                self.backend.sql(
                    f"SELECT {_COLUMNS} FROM policy_audit WHERE {' AND '.join(where)} "
                    f"ORDER BY at, id{tail}"
                ),
                tuple(params),
            )
            rows = cur.fetchall()
        return [self._entry(row) for row in rows]

    def _insert(self, cur: Cursor, entry: AuditEntry) -> None:
        cur.execute(
            self.backend.sql(
                f"INSERT INTO policy_audit ({_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
            ),
            (
                entry.id,
                entry.org,
                self.backend.to_db_time(entry.at),
                entry.kind,
                entry.actor,
                entry.subject,
                entry.trip_id,
                entry.request_id,
                json.dumps(dict(entry.detail), ensure_ascii=False),
            ),
        )

    def _entry(self, row: Sequence[Any]) -> AuditEntry:
        return AuditEntry(
            id=str(row[0]),
            org=str(row[1]),
            at=self.backend.from_db_time(row[2]),
            kind=str(row[3]),
            actor=str(row[4]),
            subject=row[5],
            trip_id=row[6],
            request_id=row[7],
            detail=json.loads(row[8]) if row[8] else {},
        )


__all__ = [
    "APPROVED",
    "DECISIONS",
    "EXPIRED",
    "GRADE_SET",
    "KINDS",
    "MEMORY_READ",
    "POLICY_SET",
    "REFUSED",
    "REJECTED",
    "REQUESTED",
    "AuditEntry",
    "AuditLog",
]
