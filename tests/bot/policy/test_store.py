"""Policies and grades in the memory database (a real SQLite file and a real PostgreSQL
schema): versions kept with who and when, grades, and the in-process cache."""

from __future__ import annotations

import pytest

from bot.policy.loading import PolicyError
from bot.policy.store import PolicyBook
from memory.backends import backend_from_dsn
from tests.bot.policy.conftest import EXAMPLE, ORG, Desk, DeskFactory

ALICE = f"{ORG}:U0ALICE"


def test_every_version_is_kept_with_who_and_when(book: PolicyBook) -> None:
    assert book.current(ORG) is None and book.history(ORG) == []
    first = book.set(ORG, EXAMPLE, by="cli:ana")
    second = book.set(ORG, EXAMPLE.replace("tier2: 400", "tier2: 450"), by=f"{ORG}:U0ADMIN")
    assert (first.version, second.version) == (1, 2)
    assert book.current(ORG) == second  # the process that set it sees it at once
    assert book.current(ORG).policy.hotel_cap("L1", "tier2") == 450  # type: ignore[union-attr]
    history = book.history(ORG)
    assert [(v.version, v.set_by) for v in history] == [(1, "cli:ana"), (2, f"{ORG}:U0ADMIN")]
    assert history[0].text == EXAMPLE and history[0].set_at <= history[1].set_at
    assert book.version(ORG, 1).policy.hotel_cap("L1", "tier2") == 400  # type: ignore[union-attr]
    audit = book.audit.entries(ORG)
    assert [(e.kind, e.actor, e.detail["version"]) for e in audit] == [
        ("policy_set", "cli:ana", 1),
        ("policy_set", f"{ORG}:U0ADMIN", 2),
    ]


def test_a_wrong_policy_stores_nothing(book: PolicyBook) -> None:
    with pytest.raises(PolicyError):
        book.set(ORG, EXAMPLE.replace("tier1: 500", "tier1: -5"), by="cli:ana")
    assert book.history(ORG) == [] and book.audit.entries(ORG) == []


def test_one_organisations_policy_is_not_anothers(book: PolicyBook) -> None:
    book.set(ORG, EXAMPLE, by="cli:ana")
    assert book.current("T0OTHER") is None
    assert book.allowance("T0OTHER:U0ALICE") is None
    assert book.allowance(f"feishu:{ORG}:U0ALICE") is None  # same id, another platform


def test_grades_and_what_a_person_is_allowed(book: PolicyBook) -> None:
    assert book.allowance(ALICE) is None  # no policy: planning as before
    book.set(ORG, EXAMPLE, by="cli:ana")
    default = book.allowance(ALICE)
    assert default is not None and (default.grade, default.version) == ("L1", 1)
    book.set_people([(ALICE, "L3", "sales"), (f"{ORG}:U0BOB", "L1", None)], by="cli:ana")
    alice = book.allowance(ALICE)
    assert alice is not None and (alice.grade, alice.department) == ("L3", "sales")
    assert book.approvers(ALICE) == (f"{ORG}:U0APPROVER",)
    assert [(p.namespace, p.grade) for p in book.people(ORG)] == [
        (ALICE, "L3"),
        (f"{ORG}:U0BOB", "L1"),
    ]
    grades = [(e.subject, e.detail["grade"]) for e in book.audit.entries(ORG, kinds=["grade_set"])]
    assert grades == [(ALICE, "L3"), (f"{ORG}:U0BOB", "L1")]


def test_another_process_sees_a_new_version_within_the_cache_time(dsn: str) -> None:
    now = [0.0]
    web = PolicyBook(backend_from_dsn(dsn), cache_seconds=60, clock=lambda: now[0])
    cli = PolicyBook(backend_from_dsn(dsn), cache_seconds=60)
    try:
        assert web.allowance(ALICE) is None  # "no policy" is cached too
        cli.set(ORG, EXAMPLE, by="cli:ana")
        cli.set_people([(ALICE, "L3", None)], by="cli:ana")
        assert web.allowance(ALICE) is None
        now[0] += 61
        seen = web.allowance(ALICE)
        assert seen is not None and seen.grade == "L3"
    finally:
        web.close()
        cli.close()


def test_the_tables_live_beside_the_trips_in_one_database(make_desk: DeskFactory) -> None:
    first: Desk = make_desk()
    first.book.set(ORG, EXAMPLE, by="cli:ana")
    trip = first.trip(ALICE)
    again = make_desk()  # a new process on the same database
    assert again.book.current(ORG).version == 1  # type: ignore[union-attr]
    assert again.trips.get(trip.id) == trip
