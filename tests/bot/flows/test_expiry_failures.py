"""An expiry's telling that breaks off between its claim and its outcome is settled all
the same, and never keeps the other travellers of the tick untold (`bot.flows.tellings`):
real PostgreSQL and SQLite, the toy platform's messenger recording what it was sent."""

from __future__ import annotations

import json
from typing import Any

import psycopg
import pytest

from bot.flows.actions import APPROVE, Action, Request
from bot.flows.approvals import ApprovalFlows, Messengers, Sent
from bot.messages import t
from bot.metrics import Metrics
from bot.planning.admins import AdminResolver
from bot.policy.requests import ApprovalRequest
from memory.backends import PostgresBackend
from memory.errors import StoreUnavailable
from tests.bot.flows.test_approvals import Office, open_office
from tests.bot.flows.test_approvals import codes as codes
from tests.bot.policy.conftest import Clock, DeskFactory
from tests.support.services import PG_ADMIN_DSN
from tests.toy.incoming import PLATFORM as TOY


@pytest.fixture
def office(make_desk: DeskFactory, clock: Clock, codes: Any) -> Office:
    return open_office(TOY, make_desk, clock, codes)


def ask(o: Office, user: str) -> ApprovalRequest:
    """`user`'s request, asked one-to-one (no thread)."""
    traveller = o.ns(user)
    request, _ = o.desk.approvals.request(
        trip_id=o.desk.trip(traveller).id,
        trip=f"Shanghai -> Chengdu ({user})",
        traveller=traveller,
        requester=traveller,
        choice="a hotel",
        breaks=[],
        reason="the client's office is next door",
        approvers=[o.ns("U0APPROVER")],
        policy_version=1,
    )
    return request


def told_to(o: Office, user: str) -> int:
    return sum(1 for d in o.messenger.sent if d.to == o.ns(user))


def expire_with(o: Office, tell: Any) -> int:
    """Expire everything due; tell the travellers through `tell` (the flows' own, wrapped)."""
    flows = o.flows.approvals
    assert flows is not None and flows.approvals is not None
    o.clock.advance(days=7, seconds=1)
    flows.approvals.expire_due()
    real = flows.tell
    flows.tell = tell(real)  # type: ignore[method-assign]
    try:
        return flows.tell_expired()
    finally:
        flows.tell = real  # type: ignore[method-assign]


def test_a_telling_broken_off_before_its_post_is_tried_again_and_the_others_are_told(
    office: Office,
) -> None:
    o = office
    alice, _ = ask(o, "U0ALICE"), ask(o, "U0BOB")

    def breaking(real: Any) -> Any:
        def tell(asked: ApprovalRequest) -> Sent:
            if asked.id == alice.id:
                raise RuntimeError("drawing the notice failed")
            return real(asked)

        return tell

    expire_with(o, breaking)
    assert told_to(o, "U0BOB") == 1 and told_to(o, "U0ALICE") == 0
    flows = o.flows.approvals
    assert flows is not None and flows.approvals is not None
    assert [r.id for r in flows.approvals.untold()] == []  # settled `retry`: not at once
    o.clock.advance(seconds=61)
    assert flows.tell_expired() == 1
    assert told_to(o, "U0ALICE") == 1 and told_to(o, "U0BOB") == 1


def test_a_store_failure_settling_one_telling_leaves_the_others_told(
    office: Office, monkeypatch: pytest.MonkeyPatch
) -> None:
    o = office
    alice, _ = ask(o, "U0ALICE"), ask(o, "U0BOB")
    flows = o.flows.approvals
    assert flows is not None and flows.approvals is not None
    settle = flows.approvals.mark_told

    def mark_told(request_id: str, outcome: str, **kw: Any) -> str | None:
        if request_id == alice.id:
            raise StoreUnavailable("the database went away")
        return settle(request_id, outcome, **kw)

    monkeypatch.setattr(flows.approvals, "mark_told", mark_told)
    monkeypatch.setattr("bot.flows.tellings.SETTLE_WAITS", (0.01, 0.01, 0.01))
    expire_with(o, lambda real: real)
    assert told_to(o, "U0ALICE") == 1 and told_to(o, "U0BOB") == 1


def test_a_store_failing_for_a_moment_after_the_post_never_tells_the_traveller_twice(
    office: Office, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice's post went out; recording it failed twice (SQLite locked, say): recorded on
    a later try in-process, so her claim never lapses and she is never told again."""
    o = office
    ask(o, "U0ALICE")
    flows = o.flows.approvals
    assert flows is not None and flows.approvals is not None
    settle = flows.approvals.mark_told
    failures = [StoreUnavailable("database is locked")] * 2

    def mark_told(request_id: str, outcome: str, **kw: Any) -> str | None:
        if failures:
            raise failures.pop()
        return settle(request_id, outcome, **kw)

    monkeypatch.setattr(flows.approvals, "mark_told", mark_told)
    monkeypatch.setattr("bot.flows.tellings.SETTLE_WAITS", (0.01, 0.01, 0.01))
    assert expire_with(o, lambda real: real) == 1
    assert told_to(o, "U0ALICE") == 1 and failures == []
    o.clock.advance(seconds=3600)  # long past a lapsed claim's five minutes
    assert flows.tell_expired() == 0
    assert told_to(o, "U0ALICE") == 1
    metric = f"{TOY.name}_approval_expiry_told_total"
    assert o.metrics.value(metric, outcome="sent") == 1


@pytest.mark.parametrize("dsn", ["postgresql"], indirect=True)
def test_postgresql_dropping_its_connections_after_the_post_never_tells_the_traveller_twice(
    office: Office,
) -> None:
    """Alice's post went out, then the server dropped the pool's connections: recording it
    fails for real and PostgreSQL refuses every call for its `retry_after` after that.
    The tries again outlast that window, so it is recorded in-process, her claim never
    lapses and she is never told again."""
    o = office
    backend = o.desk.approvals.backend
    assert isinstance(backend, PostgresBackend)  # the refusal window is PostgreSQL's
    ask(o, "U0ALICE")
    flows = o.flows.approvals
    assert flows is not None

    def dropping(real: Any) -> Any:
        def tell(asked: ApprovalRequest) -> Sent:
            told = real(asked)
            idle = [conn.info.backend_pid for conn in backend._pool._pool]
            with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as admin:
                for pid in idle:
                    admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            return told

        return tell

    assert expire_with(o, dropping) == 1
    assert told_to(o, "U0ALICE") == 1
    o.clock.advance(seconds=3600)  # long past a lapsed claim's five minutes
    assert flows.tell_expired() == 0
    assert told_to(o, "U0ALICE") == 1
    metric = f"{TOY.name}_approval_expiry_told_total"
    assert o.metrics.value(metric, outcome="sent") == 1


def clicked_elsewhere(o: Office, messengers: Messengers) -> ApprovalFlows:
    """The office's approvals as a process with these messengers handles a click."""
    flows = o.flows.approvals
    assert flows is not None and flows.approvals is not None
    return ApprovalFlows(
        approvals=flows.approvals,
        policy=o.desk.book,
        trips=o.desk.trips,
        admins=AdminResolver(redis=None),
        metrics=Metrics(),
        messengers=messengers,
    )


def test_a_decision_taken_where_the_travellers_platform_is_not_served_says_it_will_be_told(
    office: Office,
) -> None:
    """The click is handled by a process that serves no chat platform of Alice's: the
    approver reads that she will be told (not 'please let them know'), and a process
    that serves her platform tells her once the lapsed claim is due."""
    o = office
    alice = ask(o, "U0ALICE")
    flows = o.flows.approvals
    assert flows is not None and flows.approvals is not None
    elsewhere = clicked_elsewhere(o, Messengers(prefixes=[TOY.prefix]))  # none registered
    click = Request(TOY, "T1", "U0APPROVER", Action(APPROVE, {"id": alice.id}), "en")
    decided = elsewhere.decide(click)
    assert t("approval_traveller_retrying", "en") in (decided.toast or "")
    assert t("approval_traveller_not_delivered", "en") not in decided.text
    assert told_to(o, "U0ALICE") == 0

    o.clock.advance(seconds=301)  # the claim's five minutes
    assert flows.tell_expired() == 1 and told_to(o, "U0ALICE") == 1
    o.clock.advance(seconds=3600)
    assert flows.tell_expired() == 0 and told_to(o, "U0ALICE") == 1


def test_a_decision_whose_travellers_platform_no_process_serves_asks_the_approver(
    office: Office,
) -> None:
    """The click is handled where Alice's platform is served by no process of the
    deployment (its credentials are not set): nobody will ever tell her, so the approver
    reads 'please let them know', not a promise to keep trying that ends in a log."""
    o = office
    alice = ask(o, "U0ALICE")
    flows = o.flows.approvals
    assert flows is not None and flows.approvals is not None
    elsewhere = clicked_elsewhere(
        o, Messengers(prefixes=[TOY.prefix], served=())
    )  # nobody serves TOY
    click = Request(TOY, "T1", "U0APPROVER", Action(APPROVE, {"id": alice.id}), "zh")
    decided = elsewhere.decide(click)
    assert decided.toast == t("approval_traveller_not_delivered", "zh")
    assert t("approval_traveller_retrying", "zh") not in decided.text
    assert told_to(o, "U0ALICE") == 0


@pytest.mark.parametrize(
    ("later", "key"),
    [
        (Sent.UNREACHABLE, "approval_decider_tell"),
        (Sent.UNCONFIRMED, "approval_decider_unconfirmed"),
    ],
)
def test_an_approver_told_it_would_be_told_is_asked_in_their_language_when_it_was_not(
    office: Office, later: Sent, key: str
) -> None:
    """The approver clicked in Chinese; Alice's first post failed (the card: 'I will keep
    trying'), the next was refused for good (or may have arrived): the approver reads,
    in Chinese, one-to-one, that she was not told (or that it is unconfirmed), and
    nothing else is sent to anyone after."""
    o = office
    alice = ask(o, "U0ALICE")
    flows = o.flows.approvals
    assert flows is not None
    o.messenger.ends[o.ns("U0ALICE")] = Sent.NOT_DELIVERED
    click = Request(TOY, "T1", "U0APPROVER", Action(APPROVE, {"id": alice.id}), "zh")
    decided = o.flows.handle(click)
    assert decided.toast == t("approval_traveller_retrying", "zh")
    before = len(o.messenger.sent)

    o.messenger.ends[o.ns("U0ALICE")] = later
    o.clock.advance(seconds=61)
    assert flows.tell_expired() == 1
    to_approver = [d for d in o.messenger.sent[before:] if d.to == o.ns("U0APPROVER")]
    words = {
        "traveller": TOY.mention("U0ALICE"),
        "trip": alice.trip,
        "choice": alice.choice,
        "state": t("trip_state_approved", "zh"),
    }
    [asked] = to_approver
    assert t(key, "zh", **words) in json.dumps(asked.drawn, ensure_ascii=False)
    sent = len(o.messenger.sent)
    o.clock.advance(seconds=7200)
    assert flows.tell_expired() == 0 and len(o.messenger.sent) == sent
