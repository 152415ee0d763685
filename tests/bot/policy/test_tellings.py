"""Settling a telling while another process writes: the outcome is recorded, so a
traveller told once is never told again (`bot.policy.tellings`). Real SQLite and
PostgreSQL; the other process is another pool of connections to the same database."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from bot.policy.tellings import Tellings
from memory.store import Backend, Cursor
from tests.bot.policy.conftest import Clock, DeskFactory
from tests.bot.policy.test_approvals import ask

BOB = "T0ACME:U0BOB"


class _Cursor:
    def __init__(self, cur: Cursor, after_read: Callable[[], None]) -> None:
        self._cur, self._after_read = cur, after_read

    def execute(self, sql: str, params: Any = ()) -> Any:
        done = self._cur.execute(sql, params)
        if sql.lstrip().upper().startswith("SELECT TELL_TRIES"):
            self._after_read()  # another process writes now
        return done

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cur, name)


class WrittenBetween:
    """A backend whose every read of a telling's tries is followed, at once, by a write
    from another process (as happens when two processes share the database)."""

    def __init__(self, backend: Backend, write: Callable[[], None]) -> None:
        self._backend, self._write = backend, write

    @contextmanager
    def transaction(self, namespace: str | None = None, *, patient: bool = False) -> Iterator[Any]:
        with self._backend.transaction(namespace, patient=patient) as cur:
            yield _Cursor(cur, self._write)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._backend, name)


def test_an_outcome_is_recorded_though_another_process_writes_meanwhile(
    make_desk: DeskFactory, clock: Clock
) -> None:
    desk, other = make_desk(), make_desk()
    request = ask(desk)
    clock.advance(days=7, seconds=1)
    desk.approvals.expire_due()
    written: list[str] = []

    def write() -> None:
        written.append(other.trip(BOB).id)

    tellings = Tellings(WrittenBetween(desk.trips.backend, write), clock=clock)  # type: ignore[arg-type]
    claim = desk.approvals.claim_telling(request.id)
    assert claim is not None
    assert tellings.settle(request.id, claim, "sent") == "sent"
    assert written  # the other process did write in between
    clock.advance(seconds=3600)  # long past the claim's time-out: never told again
    assert desk.approvals.untold() == [] and other.approvals.claim_telling(request.id) is None


def test_a_retry_recorded_meanwhile_counts_its_try(make_desk: DeskFactory, clock: Clock) -> None:
    desk, other = make_desk(), make_desk()
    request = ask(desk)
    clock.advance(days=7, seconds=1)
    desk.approvals.expire_due()
    tellings = Tellings(
        WrittenBetween(desk.trips.backend, lambda: other.trip(BOB) and None),  # type: ignore[arg-type]
        clock=clock,
        max_tries=2,
    )
    claim = desk.approvals.claim_telling(request.id)
    assert claim is not None and tellings.settle(request.id, claim, "retry") == "retry"
    clock.advance(seconds=61)
    claim = desk.approvals.claim_telling(request.id)
    assert claim is not None and tellings.settle(request.id, claim, "retry") == "failed"


def test_an_unsure_telling_is_tried_again_only_within_the_platforms_window(
    make_desk: DeskFactory, clock: Clock
) -> None:
    """Feishu drops a repeat of the same send for an hour: a try that may have arrived is
    tried again while the next try ends within the hour of the first, then stays
    unconfirmed; a later try that fails outright never records less than unconfirmed."""
    desk = make_desk()
    request = ask(desk)
    clock.advance(days=7, seconds=1)
    desk.approvals.expire_due()
    tellings, hour = desk.approvals.tellings, timedelta(hours=1)
    claim = desk.approvals.claim_telling(request.id)
    assert claim is not None
    assert tellings.settle(request.id, claim, "unconfirmed", resend_within=hour) == "retry"
    clock.advance(seconds=61)
    assert not tellings.unsure_past(request.id, hour)
    claim = desk.approvals.claim_telling(request.id)
    assert claim is not None
    assert tellings.settle(request.id, claim, "retry", resend_within=hour) == "retry"
    clock.advance(minutes=55)  # a try now could end past the hour of the first
    assert tellings.unsure_past(request.id, hour)
    claim = desk.approvals.claim_telling(request.id)
    assert claim is not None
    assert tellings.settle(request.id, claim, "retry", resend_within=hour) == "unconfirmed"
    assert desk.approvals.claim_telling(request.id) is None


def test_without_a_window_an_unsure_telling_is_never_tried_again(
    make_desk: DeskFactory, clock: Clock
) -> None:
    desk = make_desk()
    request = ask(desk)
    clock.advance(days=7, seconds=1)
    desk.approvals.expire_due()
    claim = desk.approvals.claim_telling(request.id)
    assert claim is not None
    assert desk.approvals.mark_told(request.id, "unconfirmed", claim=claim) == "unconfirmed"
    clock.advance(seconds=3600)
    assert desk.approvals.claim_telling(request.id) is None


def test_decisions_told_before_migration_8_are_not_told_again(
    make_desk: DeskFactory, clock: Clock
) -> None:
    """A database from before decisions' tellings were recorded: its decisions were told at
    the click and kept `told = ''`. Once upgraded, the loop does not tell them again; a
    request still pending then is told, and retried, as every decision is now."""
    desk = make_desk()
    decided, waiting = ask(desk), ask(desk, traveller=BOB)
    approver = "T0ACME:U0APPROVER"
    desk.approvals.decide(decided.id, decider=approver, approve=True, is_admin=False)
    backend = desk.trips.backend
    with backend.transaction() as cur:  # as the release before kept it
        cur.execute(
            backend.sql(
                "UPDATE approval_requests SET told = '', told_at = NULL, told_by = NULL "
                "WHERE id = %s"
            ),
            (decided.id,),
        )
        cur.execute(
            backend.sql("DELETE FROM schema_migrations WHERE component = %s AND version = %s"),
            ("policy", 8),
        )
    clock.advance(days=1)

    upgraded = make_desk()  # the new release starts: migration 8 runs
    assert upgraded.approvals.untold() == []
    assert upgraded.approvals.claim_telling(decided.id) is None
    made = upgraded.approvals.decide(waiting.id, decider=approver, approve=False, is_admin=False)
    assert made.outcome == "rejected" and made.claim is not None
    assert upgraded.approvals.mark_told(waiting.id, "retry", claim=made.claim) == "retry"
    clock.advance(seconds=61)
    assert [r.id for r in upgraded.approvals.untold()] == [waiting.id]

    # A process of the release before, still running beside the upgraded one, decides and
    # tells at the click, recording nothing: the loop does not tell it again.
    late = ask(upgraded, traveller="T0ACME:U0CAROL")
    upgraded.approvals.decide(late.id, decider=approver, approve=True, is_admin=False)
    with backend.transaction() as cur:
        cur.execute(
            backend.sql("UPDATE approval_requests SET told = '', told_by = NULL WHERE id = %s"),
            (late.id,),
        )
    clock.advance(days=1)
    assert [r.id for r in upgraded.approvals.untold()] == [waiting.id]
