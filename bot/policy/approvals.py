"""Approval requests for out-of-policy trips: asked once, decided exactly once.

    approvals = Approvals(backend, trips=trip_store, audit=audit, ttl_days=7)
    request, created = approvals.request(trip_id=..., trip="Shanghai -> Chengdu, ...",
        traveller=ns, requester=ns, choice="Atour Hotel, CNY 580/night", breaks=[...],
        reason="client site next door", approvers=book.approvers(ns), policy_version=3)
    decision = approvals.decide(request.id, decider=ns, approve=True, is_admin=False)

A request is `pending` until decided (`approved` / `rejected`) or until it expires
(`expired`, after `APPROVAL_TTL_DAYS`). Who may decide: a named approver (the policy's
approvers for the traveller's department or grade, as they were when asked) or a travel
admin of the same organisation; never the traveller or whoever asked, and never anyone
of another organisation. A refused attempt is logged in the audit.

One decision only: the decision is a conditional UPDATE (`... WHERE state = 'pending'
AND expires_at > now`), so of two approvers at once, a double click or a replayed
request exactly one changes the row; the others get `already_decided` with the outcome
that stands. The trip's state (`bot.planning.trips`) and the audit row change in the
same transaction. Nothing here knows a chat platform: the flows that show the request
and its buttons call `request` and `decide`.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal, Protocol

from bot.policy.audit import APPROVED, EXPIRED, REFUSED, REJECTED, REQUESTED, AuditLog
from bot.policy.orgs import org_of
from bot.policy.requests import (
    MAX_REASON_CHARS,
    PENDING,
    ApprovalRequest,
    InvalidRequest,
    check_reason,
    insert,
    select,
)
from bot.policy.rules import Break
from bot.policy.schema import Tables
from bot.policy.tellings import CLAIM_TTL, NO_RESEND, Tellings
from memory.store import Backend, Cursor, utcnow

STATES = (PENDING, APPROVED, REJECTED, EXPIRED)
SYSTEM = "system"
Outcome = Literal["approved", "rejected", "already_decided", "expired", "refused", "unknown"]
Refusal = Literal["other_organisation", "own_request", "not_an_approver"]


class TripStates(Protocol):
    """Where a trip's state is kept (`bot.planning.trips.TripStore` is one)."""

    def prepare(self) -> None:
        """Make sure the trips table (with its state) exists."""
        ...

    def set_state(self, cur: Cursor, trip_id: str, state: str | None) -> bool:
        """Set the trip's state inside the caller's transaction; False: no such trip."""
        ...


@dataclass(frozen=True, slots=True)
class Decision:
    """What one attempt to decide did: `approved`/`rejected` (this attempt decided),
    `already_decided` or `expired` (it changed nothing, `request` says what stands),
    `refused` (not theirs to decide: `why`), `unknown` (no such request). `claim`: the
    telling of the decision to its traveller, taken by the deciding UPDATE itself (to
    settle with `mark_told`), so no loop tells it while the decider's process does."""

    outcome: Outcome
    request: ApprovalRequest | None
    why: Refusal | None = None
    claim: str | None = None

    @property
    def decided(self) -> bool:
        return self.outcome in ("approved", "rejected")


class Approvals:
    """Approval requests on a memory `Backend`, beside the trips they are for."""

    def __init__(
        self,
        backend: Backend,
        *,
        trips: TripStates,
        audit: AuditLog | None = None,
        ttl_days: float = 7,
        clock: Callable[[], datetime] = utcnow,
        tell_tries: int = 5,
        tell_retry_seconds: float = 60.0,
    ) -> None:
        """`tell_tries`, `tell_retry_seconds`: how often telling a traveller an outcome
        (a decision or an expiry) is tried when the platform fails for a passing reason,
        and the first wait between tries (`bot.policy.tellings`)."""
        self.backend = backend
        self.trips = trips
        self.audit = audit if audit is not None else AuditLog(backend, clock=clock)
        self.ttl = timedelta(days=ttl_days)
        self.clock = clock
        self._tables = Tables(backend)
        self.tellings = Tellings(
            backend, clock=clock, max_tries=tell_tries, retry_seconds=tell_retry_seconds
        )

    def _ready(self) -> None:
        self.trips.prepare()
        self._tables.ready()

    # -- asking ------------------------------------------------------------------------

    def request(
        self,
        *,
        trip_id: str,
        trip: str,
        traveller: str,
        requester: str,
        choice: str,
        breaks: Sequence[Break],
        reason: str,
        approvers: Sequence[str],
        policy_version: int,
        reply_to: Mapping[str, Any] | None = None,
    ) -> tuple[ApprovalRequest, bool]:
        """Ask for approval; `(request, created)`. While one is pending for the trip, asking
        again (a double click, a replay) returns it and creates nothing. `reply_to`: where
        it was asked (the channel's address of the thread), to tell the outcome there."""
        reason = check_reason(reason)
        org = org_of(traveller)
        if not org or org_of(requester) != org:
            raise InvalidRequest(
                "other_organisation", "the requester is not of the traveller's organisation"
            )
        self._ready()
        now = self.clock()
        request = ApprovalRequest(
            id=uuid.uuid4().hex,
            org=org,
            trip_id=trip_id,
            trip=trip,
            traveller=traveller,
            requester=requester,
            choice=choice,
            breaks=tuple(breaks),
            reason=reason,
            approvers=tuple(dict.fromkeys(approvers)),
            policy_version=policy_version,
            state=PENDING,
            created_at=now,
            expires_at=now + self.ttl,
            reply_to=dict(reply_to or {}),
        )
        with self.backend.transaction(f"approval-trip:{trip_id}") as cur:
            existing = select(self.backend, cur, "trip_id = %s AND state = %s", (trip_id, PENDING))
            if existing:
                return existing[0], False
            if not self.trips.set_state(cur, trip_id, PENDING):
                raise InvalidRequest("unknown_trip", f"no saved trip {trip_id}")
            insert(self.backend, cur, request)
            self.audit.record(org, REQUESTED, actor=requester, cur=cur, **self._about(request))
        return request, True

    # -- deciding ----------------------------------------------------------------------

    def refusal(self, request: ApprovalRequest, decider: str, *, is_admin: bool) -> Refusal | None:
        """Why `decider` may not decide `request`, or None when they may. `is_admin`:
        the decider is a travel admin (the channel asks its admin resolver)."""
        if org_of(decider) != request.org:
            return "other_organisation"
        if decider in (request.traveller, request.requester):
            return "own_request"
        if decider in request.approvers or is_admin:
            return None
        return "not_an_approver"

    def decide(
        self,
        request_id: str,
        *,
        decider: str,
        approve: bool,
        is_admin: bool,
        note: str = "",
        lang: str = "",
    ) -> Decision:
        """Approve or reject, once (see the module docstring); `lang`, the decider's, is
        kept in `reply_to` ("dl"): they are asked in it to pass on an outcome never told."""
        found = self.get(request_id)
        if found is None:
            return Decision("unknown", None)
        why = self.refusal(found, decider, is_admin=is_admin)
        if why is not None:
            detail = {"why": why, "wanted": APPROVED if approve else REJECTED}
            self.audit.record(
                found.org,
                REFUSED,
                actor=decider,
                subject=found.traveller,
                trip_id=found.trip_id,
                request_id=found.id,
                detail=detail,
            )
            return Decision("refused", found, why)
        state = APPROVED if approve else REJECTED
        now = self.clock()
        claim = uuid.uuid4().hex
        reply_to = {**found.reply_to, "dl": lang} if lang else dict(found.reply_to)
        # No lock of our own: the conditional UPDATE, the transaction's first statement,
        # is what lets exactly one of several deciders through; it claims the decision's
        # telling too (`bot.policy.tellings`).
        with self.backend.transaction() as cur:
            cur.execute(
                self.backend.sql(
                    "UPDATE approval_requests SET state = %s, decided_by = %s, decided_at = %s, "
                    "note = %s, told = 'telling', told_at = %s, told_by = %s, reply_to = %s "
                    "WHERE id = %s AND state = %s AND expires_at > %s"
                ),
                (
                    state,
                    decider,
                    self._t(now),
                    note.strip()[:MAX_REASON_CHARS],
                    self._t(now),
                    claim,
                    json.dumps(reply_to, ensure_ascii=False),
                    request_id,
                    PENDING,
                    self._t(now),
                ),
            )
            decided = cur.rowcount == 1
            if decided:
                self._settle(cur, found, state, actor=decider, note=note)
            elif self._expire(cur, request_id, now):
                self._settle(cur, found, EXPIRED, actor=SYSTEM)
            [current] = select(self.backend, cur, "id = %s", (request_id,))
        if decided:
            return Decision("approved" if approve else "rejected", current, claim=claim)
        return Decision("expired" if current.state == EXPIRED else "already_decided", current)

    def expire_due(self, *, limit: int = 500) -> list[ApprovalRequest]:
        """Expire the pending requests whose time is up; the ones this call expired."""
        self._ready()
        now = self.clock()
        with self.backend.transaction() as cur:
            due = select(
                self.backend,
                cur,
                "state = %s AND expires_at <= %s ORDER BY expires_at LIMIT %s",
                (PENDING, self._t(now), limit),
            )
        expired = []
        for request in due:
            with self.backend.transaction() as cur:
                if self._expire(cur, request.id, now):
                    self._settle(cur, request, EXPIRED, actor=SYSTEM)
                    expired.append(select(self.backend, cur, "id = %s", (request.id,))[0])
        return expired

    def untold(
        self,
        *,
        starting: Sequence[str] | None = None,
        or_none_of: Sequence[str] | None = None,
        limit: int = 500,
    ) -> list[ApprovalRequest]:
        """Settled requests whose telling is due, the oldest outcome first: expired ones
        never claimed (however they expired), tellings claimed more than `CLAIM_TTL` ago
        (their process died mid-send: a decision's is claimed by its deciding UPDATE) and
        tries to repeat whose time has come (`bot.policy.tellings`). Only travellers whose
        namespace starts with one of `starting`, or (`or_none_of` given) with none of
        `or_none_of`: the platforms the caller serves, so another platform's backlog never
        hides its own (neither given: every traveller)."""
        self._ready()
        owners, params = _owners(starting, or_none_of)
        if owners is None:
            return []
        untold, now = self.tellings.untold()
        # A decision nobody claimed (`told = ''`) was made by a release that told it at
        # the click and recorded nothing (one still running beside this one): never again.
        claimed = "(state = %s OR told <> '')"
        with self.backend.transaction() as cur:
            return select(
                self.backend,
                cur,
                f"state IN (%s, %s, %s) AND {claimed} AND {untold}{owners} "
                "ORDER BY decided_at LIMIT %s",
                (EXPIRED, APPROVED, REJECTED, EXPIRED, *now, *params, limit),
            )

    def claim_telling(self, request_id: str) -> str | None:
        """Take the telling of a settled request's traveller: the claim (to record its end
        with); None when another sweep took it first. A claim older than `CLAIM_TTL` (its
        process died before `mark_told`) is taken again, by one taker only: a traveller may
        then, rarely, hear twice, which beats never hearing."""
        self._ready()
        return self.tellings.claim(request_id)

    def mark_told(
        self, request_id: str, outcome: str, *, claim: str, resend_within: timedelta = NO_RESEND
    ) -> str | None:
        """What became of telling the traveller (`sent`, `unconfirmed`, `unreachable`,
        `failed`; `retry`: tried again later), recorded only while `claim` holds; what was
        recorded (None: the claim was taken back, the taker's outcome stands).
        `resend_within`: the platform drops a repeated send that long (`Tellings.settle`)."""
        return self.tellings.settle(request_id, claim, outcome, resend_within=resend_within)

    def _expire(self, cur: Cursor, request_id: str, now: datetime) -> bool:
        cur.execute(
            self.backend.sql(
                "UPDATE approval_requests SET state = %s, decided_by = %s, decided_at = %s "
                "WHERE id = %s AND state = %s AND expires_at <= %s"
            ),
            (EXPIRED, SYSTEM, self._t(now), request_id, PENDING, self._t(now)),
        )
        return bool(cur.rowcount == 1)

    def _settle(
        self, cur: Cursor, request: ApprovalRequest, state: str, *, actor: str, note: str = ""
    ) -> None:
        """The decision's trip state and audit row, in the deciding transaction."""
        self.trips.set_state(cur, request.trip_id, state)
        about = self._about(request)
        if note.strip():
            about["detail"]["note"] = note.strip()[:MAX_REASON_CHARS]
        self.audit.record(request.org, state, actor=actor, cur=cur, **about)

    # -- reading -----------------------------------------------------------------------

    def get(self, request_id: str) -> ApprovalRequest | None:
        self._ready()
        with self.backend.transaction() as cur:
            found = select(self.backend, cur, "id = %s", (request_id,))
        return found[0] if found else None

    def for_trip(self, trip_id: str) -> list[ApprovalRequest]:
        """Every request for the trip, oldest first."""
        self._ready()
        with self.backend.transaction() as cur:
            return select(self.backend, cur, "trip_id = %s ORDER BY created_at", (trip_id,))

    def pending(self, org: str) -> list[ApprovalRequest]:
        self._ready()
        with self.backend.transaction() as cur:
            return select(
                self.backend, cur, "org = %s AND state = %s ORDER BY created_at", (org, PENDING)
            )

    # -- rows --------------------------------------------------------------------------

    def _t(self, moment: datetime) -> Any:
        return self.backend.to_db_time(moment)

    @staticmethod
    def _about(request: ApprovalRequest) -> dict[str, Any]:
        return {
            "subject": request.traveller,
            "trip_id": request.trip_id,
            "request_id": request.id,
            "detail": {
                "trip": request.trip,
                "choice": request.choice,
                "breaks": [b.to_json() for b in request.breaks],
                "reason": request.reason,
                "policy_version": request.policy_version,
            },
        }


def _owners(
    starting: Sequence[str] | None, or_none_of: Sequence[str] | None
) -> tuple[str | None, list[str]]:
    """The SQL (after an AND) and parameters of `untold`'s namespaces; None: none."""
    if starting is None and or_none_of is None:
        return "", []
    starts = [f"substr(traveller, 1, {len(p)}) = %s" for p in starting or ()]
    params = list(starting or ())
    if or_none_of is not None:
        none = " OR ".join(f"substr(traveller, 1, {len(p)}) = %s" for p in or_none_of)
        starts.append(f"NOT ({none})" if none else "1 = 1")
        params += list(or_none_of)
    return (f" AND ({' OR '.join(starts)})" if starts else None), params


__all__ = [
    "CLAIM_TTL",
    "PENDING",
    "STATES",
    "ApprovalRequest",
    "Approvals",
    "Decision",
    "InvalidRequest",
    "TripStates",
]
