"""The approval core on a real SQLite file and a real PostgreSQL schema: a request puts
its trip in `pending`; exactly one decision stands whatever races it (approvers at once,
double clicks, replays); only a named approver or a travel admin of the organisation
decides; requests expire; every decision and refusal is in the audit log."""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.policy import approvals as approvals_module
from bot.policy.approvals import CLAIM_TTL, ApprovalRequest, Decision, InvalidRequest
from bot.policy.loading import load_policy
from bot.policy.rules import Allowance, Named
from tests.bot.policy.conftest import EXAMPLE, ORG, Clock, Desk, DeskFactory

ALICE = f"{ORG}:U0ALICE"
APPROVER = f"{ORG}:U0APPROVER"
ADMIN = f"{ORG}:U0ADMIN"
CHENGDU = Named("Chengdu", "成都", ("chengdu",))


def ask(
    desk: Desk, traveller: str = ALICE, reason: str = "the client's office is next door"
) -> ApprovalRequest:
    desk.book.set(ORG, EXAMPLE, by="cli:ana")
    trip = desk.trip(traveller)
    breaks = Allowance(load_policy(EXAMPLE), "L1").hotel(CHENGDU, 580)
    request, created = desk.approvals.request(
        trip_id=trip.id,
        trip="Shanghai -> Chengdu, 2026-12-10..2026-12-12",
        traveller=traveller,
        requester=traveller,
        choice="Atour Hotel Chengdu, breakfast included, CNY 580/night",
        breaks=breaks,
        reason=reason,
        approvers=desk.book.approvers(traveller),
        policy_version=1,
    )
    assert created
    return request


def test_a_request_keeps_the_rule_and_reason_and_puts_the_trip_in_pending(desk: Desk) -> None:
    request = ask(desk)
    assert request.state == "pending" and request.approvers == (APPROVER,)
    assert (request.expires_at - request.created_at).days == 7
    assert desk.trips.get(request.trip_id).state == "pending"  # type: ignore[union-attr]
    assert desk.approvals.get(request.id) == request
    [audited] = desk.book.audit.entries(ORG, kinds=["approval_requested"])
    assert audited.detail["reason"] == "the client's office is next door"
    assert audited.detail["breaks"][0]["rule"] == "hotel_cap"


def test_asking_again_while_pending_creates_nothing(desk: Desk) -> None:
    request = ask(desk)
    again, created = desk.approvals.request(
        trip_id=request.trip_id,
        trip=request.trip,
        traveller=ALICE,
        requester=ALICE,
        choice=request.choice,
        breaks=request.breaks,
        reason="replayed",
        approvers=(),
        policy_version=1,
    )
    assert not created and again == request
    assert len(desk.approvals.for_trip(request.trip_id)) == 1


@pytest.mark.parametrize(
    ("reason", "code"),
    [
        ("  ", "reason_empty"),
        ("x" * 501, "reason_too_long"),
        ("call me on 13800138000 to confirm", "reason_private"),
        ("my passport E12345678 is needed there", "reason_private"),
        # A link is read first (as instructions, which a reason may hold): the phone after it
        # is still found, as chat finds it.
        ("details at https://x.example/trip, call me on 13800138000", "reason_private"),
    ],
)
def test_a_reason_must_say_something_and_nothing_private(
    desk: Desk, reason: str, code: str
) -> None:
    with pytest.raises(InvalidRequest) as caught:
        ask(desk, reason=reason)
    assert caught.value.code == code
    assert desk.book.audit.entries(ORG, kinds=["approval_requested"]) == []


def test_an_amount_in_a_reason_is_the_companys_business(desk: Desk) -> None:
    request = ask(desk, reason="the 400 hotels are 40 minutes away; this one is 580 and next door")
    assert "580" in request.reason


def test_the_named_approver_decides_once_and_the_trip_follows(desk: Desk) -> None:
    request = ask(desk)
    decision = desk.approvals.decide(
        request.id, decider=APPROVER, approve=True, is_admin=False, note="ok"
    )
    assert decision.outcome == "approved" and decision.decided
    assert decision.request is not None and decision.request.decided_by == APPROVER
    assert desk.trips.get(request.trip_id).state == "approved"  # type: ignore[union-attr]
    # A double click, and a replay of the other button: one outcome stands.
    again = desk.approvals.decide(request.id, decider=APPROVER, approve=True, is_admin=False)
    replay = desk.approvals.decide(request.id, decider=APPROVER, approve=False, is_admin=False)
    assert again.outcome == replay.outcome == "already_decided"
    assert replay.request is not None and replay.request.state == "approved"
    assert desk.trips.get(request.trip_id).state == "approved"  # type: ignore[union-attr]
    decisions = desk.book.audit.entries(ORG, kinds=["approved", "rejected"])
    assert [(e.kind, e.actor, e.detail["note"]) for e in decisions] == [
        ("approved", APPROVER, "ok")
    ]


def test_two_deciders_at_once_one_decision(make_desk: DeskFactory) -> None:
    """Six deciders on six connections (approve and reject mixed) press at the same time."""
    request = ask(make_desk())
    desks = [make_desk() for _ in range(6)]
    start = threading.Barrier(len(desks))
    results: list[Decision] = []
    lock = threading.Lock()

    def press(i: int) -> None:
        decider = APPROVER if i % 2 == 0 else ADMIN
        start.wait()
        found = desks[i].approvals.decide(
            request.id, decider=decider, approve=i % 2 == 0, is_admin=i % 2 == 1
        )
        with lock:
            results.append(found)

    threads = [threading.Thread(target=press, args=(i,)) for i in range(len(desks))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    outcomes = sorted(r.outcome for r in results)
    assert len(results) == 6
    assert outcomes.count("already_decided") == 5
    [winner] = [r for r in results if r.decided]
    final = desks[0].approvals.get(request.id)
    assert final is not None and final.state == winner.outcome
    assert {r.request.state for r in results if r.request} == {winner.outcome}
    assert desks[0].trips.get(request.trip_id).state == winner.outcome  # type: ignore[union-attr]
    assert len(desks[0].book.audit.entries(ORG, kinds=["approved", "rejected"])) == 1


def test_only_an_approver_or_a_travel_admin_of_the_organisation_decides(desk: Desk) -> None:
    request = ask(desk)
    tries = [
        (f"{ORG}:U0COLLEAGUE", False, "not_an_approver"),
        ("T0OTHER:U0APPROVER", False, "other_organisation"),
        ("T0OTHER:U0ADMIN", True, "other_organisation"),  # an admin elsewhere
        (ALICE, True, "own_request"),  # even a travel admin never approves their own trip
    ]
    for decider, admin, why in tries:
        refused = desk.approvals.decide(request.id, decider=decider, approve=True, is_admin=admin)
        assert (refused.outcome, refused.why) == ("refused", why)
    assert desk.approvals.get(request.id).state == "pending"  # type: ignore[union-attr]
    logged = desk.book.audit.entries(ORG, kinds=["decision_refused"])
    assert [(e.actor, e.detail["why"]) for e in logged] == [(d, w) for d, _, w in tries]
    rejected = desk.approvals.decide(request.id, decider=ADMIN, approve=False, is_admin=True)
    assert rejected.outcome == "rejected"
    assert desk.trips.get(request.trip_id).state == "rejected"  # type: ignore[union-attr]
    assert (
        desk.approvals.decide("no-such-request", decider=ADMIN, approve=True, is_admin=True).outcome
        == "unknown"
    )


def test_a_request_expires_after_its_days(desk: Desk, clock: Clock) -> None:
    request = ask(desk)
    other = ask(desk, traveller=f"{ORG}:U0BOB")
    clock.advance(days=6, hours=23)
    assert desk.approvals.expire_due() == []
    clock.advance(hours=2)
    late = desk.approvals.decide(request.id, decider=APPROVER, approve=True, is_admin=False)
    assert (
        late.outcome == "expired"
        and late.request is not None
        and late.request.decided_by == "system"
    )
    assert desk.trips.get(request.trip_id).state == "expired"  # type: ignore[union-attr]
    [swept] = desk.approvals.expire_due()  # the other one, which nobody clicked
    assert swept.id == other.id and swept.state == "expired"
    assert desk.approvals.expire_due() == []
    assert desk.approvals.pending(ORG) == []
    expired = desk.book.audit.entries(ORG, kinds=["expired"])
    assert sorted(e.request_id or "" for e in expired) == sorted([request.id, other.id])


def test_each_expired_request_is_told_once_however_it_expired(
    make_desk: DeskFactory, clock: Clock
) -> None:
    """Expired by a late click or by the sweep, each request waits to be told; of two
    processes sweeping at once, one takes each telling, and then nobody tells it again."""
    desk, other_process = make_desk(), make_desk()
    clicked, swept = ask(desk), ask(desk, traveller=f"{ORG}:U0BOB")
    decided = ask(desk, traveller=f"{ORG}:U0CAROL")
    made = desk.approvals.decide(decided.id, decider=APPROVER, approve=True, is_admin=False)
    assert made.claim is not None  # the decider's process tells it at once, as the flow does
    assert desk.approvals.untold() == [] and not other_process.approvals.claim_telling(decided.id)
    assert desk.approvals.mark_told(decided.id, "sent", claim=made.claim) == "sent"
    clock.advance(days=7, seconds=1)
    desk.approvals.decide(clicked.id, decider=APPROVER, approve=True, is_admin=False)
    desk.approvals.expire_due()
    untold = [r.id for r in other_process.approvals.untold()]
    assert sorted(untold) == sorted([clicked.id, swept.id])  # the decided one was told then
    claims = {r.id: desk.approvals.claim_telling(r.id) for r in desk.approvals.untold()}
    others = [r.id for r in (clicked, swept) if other_process.approvals.claim_telling(r.id)]
    assert sorted(i for i, c in claims.items() if c) == sorted(untold) and others == []
    assert desk.approvals.mark_told(clicked.id, "sent", claim=str(claims[clicked.id])) == "sent"
    assert desk.approvals.untold() == [] and not desk.approvals.claim_telling(clicked.id)


def test_a_telling_whose_process_died_mid_send_is_taken_again_by_one(
    make_desk: DeskFactory, clock: Clock
) -> None:
    """A process that claimed a telling and died before saying what became of it does not
    leave the traveller unheard: once the claim is older than `CLAIM_TTL` one process (of
    two at once) takes it again; a fresh claim or a told one is not taken."""
    desk, other_process = make_desk(), make_desk()
    died, told = ask(desk), ask(desk, traveller=f"{ORG}:U0BOB")
    clock.advance(days=7, seconds=1)
    desk.approvals.expire_due()
    assert desk.approvals.claim_telling(died.id)
    claim = desk.approvals.claim_telling(told.id)
    assert claim is not None
    desk.approvals.mark_told(told.id, "sent", claim=claim)  # `died`'s process ends mid-send
    clock.advance(seconds=CLAIM_TTL.total_seconds() - 1)
    assert other_process.approvals.untold() == []
    assert not other_process.approvals.claim_telling(died.id)
    clock.advance(seconds=2)
    assert [r.id for r in other_process.approvals.untold()] == [died.id]
    takers = [d.approvals.claim_telling(died.id) is not None for d in (other_process, desk)]
    assert takers == [True, False]
    assert desk.approvals.untold() == [] and not desk.approvals.claim_telling(told.id)


def test_a_late_outcome_of_a_process_thought_dead_changes_nothing(
    make_desk: DeskFactory, clock: Clock
) -> None:
    """A process claims a telling and stalls past `CLAIM_TTL`; another takes the claim,
    tells the traveller and records it. When the stalled one wakes and records a failure
    to try again, nothing changes: the telling stays done, so the traveller is never
    told a second time, however long the loop goes on."""
    stalled, taker = make_desk(), make_desk()
    request = ask(stalled)
    clock.advance(days=7, seconds=1)
    stalled.approvals.expire_due()
    old = stalled.approvals.claim_telling(request.id)
    assert old is not None
    clock.advance(seconds=CLAIM_TTL.total_seconds() + 1)
    new = taker.approvals.claim_telling(request.id)
    assert new is not None and new != old
    assert taker.approvals.mark_told(request.id, "sent", claim=new) == "sent"
    assert stalled.approvals.mark_told(request.id, "retry", claim=old) is None  # too late
    assert stalled.approvals.mark_told(request.id, "unreachable", claim=old) is None
    clock.advance(days=1)
    assert stalled.approvals.untold() == [] and taker.approvals.untold() == []
    assert stalled.approvals.claim_telling(request.id) is None


def test_a_telling_that_failed_is_tried_again_later_and_only_so_often(
    make_desk: DeskFactory, clock: Clock
) -> None:
    """A try the platform failed (`retry`) is not tried again at once; it is due after
    one minute, then two, four...; kept in the database, so another process (a restart)
    takes it up; after the last try it is `failed` and never due again."""
    desk, restarted = make_desk(), make_desk()
    request = ask(desk)
    clock.advance(days=7, seconds=1)
    desk.approvals.expire_due()
    waits = []
    for process in (desk, restarted, desk, restarted):
        claim = process.approvals.claim_telling(request.id)
        assert claim is not None
        assert process.approvals.mark_told(request.id, "retry", claim=claim) == "retry"
        waited = 0
        for _ in range(100):  # at most 50 minutes: a telling never due again fails here
            if restarted.approvals.untold():
                break
            clock.advance(seconds=30)
            waited += 30
        waits.append(waited)
    assert waits == [60, 120, 240, 480]
    claim = desk.approvals.claim_telling(request.id)
    assert claim is not None  # the fifth try, the last of five
    assert desk.approvals.mark_told(request.id, "retry", claim=claim) == "failed"
    clock.advance(days=1)
    assert desk.approvals.untold() == [] and desk.approvals.claim_telling(request.id) is None


# SQLite only: PostgreSQL plans by its statistics, which a tiny test table says little of.
@pytest.mark.parametrize("dsn", ["sqlite"], indirect=True)
def test_the_untold_query_searches_its_index_on_sqlite(
    desk: Desk, dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The serving loop asks each minute: whatever platforms it serves, SQLite answers from
    the `(state, told, decided_at)` index, never by reading every expired request (an OR
    on `told` would make it pick the expiry index instead)."""
    seen: list[tuple[str, tuple[object, ...]]] = []
    real = approvals_module.select

    def spy(backend: Any, cur: Any, where: str, params: Any) -> list[ApprovalRequest]:
        seen.append((where, tuple(params)))
        return real(backend, cur, where, params)

    monkeypatch.setattr(approvals_module, "select", spy)
    for owners in ({}, {"starting": ["p:"]}, {"starting": ["p:"], "or_none_of": ["p:", "q:"]}):
        desk.approvals.untold(**owners)  # type: ignore[arg-type]
    with sqlite3.connect(dsn.removeprefix("sqlite:///")) as db:
        for where, params in seen:
            query = f"SELECT id FROM approval_requests WHERE {where}".replace("%s", "?")
            plan = str(db.execute(f"EXPLAIN QUERY PLAN {query}", params).fetchall())
            assert "USING INDEX approval_requests_untold" in plan, plan


def test_a_rejected_or_expired_trip_is_not_warmed_for(desk: Desk, clock: Clock) -> None:
    request = ask(desk)
    pending = ask(desk, traveller=f"{ORG}:U0BOB")
    now = datetime(2026, 12, 8, 2, 0, tzinfo=UTC)  # the trips start in two days
    assert sorted(desk.trips.due(now, 72)) == [ALICE, f"{ORG}:U0BOB"]
    desk.approvals.decide(request.id, decider=APPROVER, approve=False, is_admin=False)
    assert list(desk.trips.due(now, 72)) == [f"{ORG}:U0BOB"]  # pending still warms
    clock.advance(days=8)
    desk.approvals.expire_due()
    assert desk.trips.get(pending.trip_id).state == "expired"  # type: ignore[union-attr]
    assert list(desk.trips.due(now, 72)) == []
