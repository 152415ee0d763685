"""An approval request as data and as a row of `approval_requests`, and its reason.

`bot.policy.approvals` asks and decides; this module only holds what a request is, how
it is written and read back, and what a reason may say: not empty, at most
`MAX_REASON_CHARS`, and never private data (ID, card, account or phone numbers,
passwords), since it is kept and shown to the approver. Amounts may be in a reason: a
trip's price is the company's business, not a person's memory; so may wording the guard reads
as instructions (a reason argues with a person, the approver, and never reaches memory). The
verdict is memory's own (`memory.privacy.verdict`, with those two allowed), so a reason is
refused for private data exactly where chat would refuse the same words; and a link read
first no longer hides a phone number after it (`scan` names only the first thing found).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.policy.rules import Break
from memory.privacy import Category, verdict
from memory.store import Backend, Cursor

PENDING = "pending"
MAX_REASON_CHARS = 500
ALLOWED: tuple[Category, ...] = ("amount", "instructions")  # what a reason may say

COLUMNS = (
    "id, org, trip_id, trip, traveller, requester, choice, breaks, reason, approvers, "
    "policy_version, state, created_at, expires_at, decided_by, decided_at, note, reply_to"
)


class InvalidRequest(ValueError):
    """A request that cannot be made; `code` says why ("reason_empty", "reason_too_long",
    "reason_private", "other_organisation", "unknown_trip")."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class ApprovalRequest:
    id: str
    org: str
    trip_id: str
    trip: str  # the trip in words, as it was when asked
    traveller: str  # namespaces
    requester: str
    choice: str  # the option chosen, in words
    breaks: tuple[Break, ...]
    reason: str
    approvers: tuple[str, ...]  # namespaces of the named approvers
    policy_version: int
    state: str
    created_at: datetime
    expires_at: datetime
    decided_by: str | None = None
    decided_at: datetime | None = None
    note: str = ""
    # Where it was asked: the channel's address of the thread, and the asker's language
    # ("l"); the outcome is told there. JSON-friendly, the channel's own.
    reply_to: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "org": self.org,
            "trip_id": self.trip_id,
            "trip": self.trip,
            "traveller": self.traveller,
            "requester": self.requester,
            "choice": self.choice,
            "breaks": [b.to_json() for b in self.breaks],
            "reason": self.reason,
            "approvers": list(self.approvers),
            "policy_version": self.policy_version,
            "state": self.state,
            "created_at": self.created_at.isoformat(),
            "expires_at": self.expires_at.isoformat(),
            "decided_by": self.decided_by,
            "decided_at": self.decided_at.isoformat() if self.decided_at else None,
            "note": self.note,
            "reply_to": dict(self.reply_to),
        }


def check_reason(reason: str) -> str:
    """The reason, tidied; `InvalidRequest` when it is empty, too long or private."""
    text = " ".join(str(reason or "").split())
    if not text:
        raise InvalidRequest("reason_empty", "an out-of-policy choice needs a reason")
    if len(text) > MAX_REASON_CHARS:
        raise InvalidRequest(
            "reason_too_long", f"a reason is at most {MAX_REASON_CHARS} characters"
        )
    category = verdict(text, allow=ALLOWED)
    if category is not None:
        raise InvalidRequest("reason_private", f"a reason may not carry private data ({category})")
    return text


def insert(backend: Backend, cur: Cursor, r: ApprovalRequest) -> None:
    t = backend.to_db_time
    cur.execute(
        backend.sql(
            f"INSERT INTO approval_requests ({COLUMNS}) VALUES "
            "(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
        ),
        (
            *(r.id, r.org, r.trip_id, r.trip, r.traveller, r.requester, r.choice),
            json.dumps([b.to_json() for b in r.breaks], ensure_ascii=False),
            *(r.reason, json.dumps(list(r.approvers)), r.policy_version, r.state),
            *(t(r.created_at), t(r.expires_at), None, None, r.note),
            json.dumps(dict(r.reply_to), ensure_ascii=False),
        ),
    )


def select(
    backend: Backend, cur: Cursor, where: str, params: tuple[Any, ...]
) -> list[ApprovalRequest]:
    """The requests `where` (SQL with `%s` placeholders) selects."""
    cur.execute(backend.sql(f"SELECT {COLUMNS} FROM approval_requests WHERE {where}"), params)
    return [_request(backend, row) for row in cur.fetchall()]


def _request(backend: Backend, row: Any) -> ApprovalRequest:
    when = backend.from_db_time
    return ApprovalRequest(
        id=str(row[0]),
        org=str(row[1]),
        trip_id=str(row[2]),
        trip=str(row[3]),
        traveller=str(row[4]),
        requester=str(row[5]),
        choice=str(row[6]),
        breaks=tuple(Break.from_json(item) for item in json.loads(row[7])),
        reason=str(row[8]),
        approvers=tuple(str(a) for a in json.loads(row[9])),
        policy_version=int(row[10]),
        state=str(row[11]),
        created_at=when(row[12]),
        expires_at=when(row[13]),
        decided_by=row[14],
        decided_at=when(row[15]) if row[15] else None,
        note=str(row[16] or ""),
        reply_to=_mapping(row[17]),
    )


def _mapping(text: Any) -> dict[str, Any]:
    try:
        found = json.loads(text or "{}")
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


__all__ = [
    "ALLOWED",
    "COLUMNS",
    "MAX_REASON_CHARS",
    "PENDING",
    "ApprovalRequest",
    "InvalidRequest",
    "check_reason",
    "insert",
    "select",
]
