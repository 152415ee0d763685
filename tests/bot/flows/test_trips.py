"""Saving a planned trip: one payload and one permission rule, whatever the platform."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import pytest

from bot.conversation.reply import PlanPart
from bot.flows.actions import SAVE_TRIP, Action, Request
from bot.flows.trips import TripFlows, decode, encode
from bot.metrics import Metrics
from bot.planning.admins import NOBODY, AdminResolver, Admins
from bot.planning.plan import Candidate, PlannedTrip
from bot.planning.trips import TripStore
from bot.platform import Platform
from memory.backends import backend_from_dsn
from tests.support.platforms import DINGTALK, FEISHU, SLACK

SOON = date.today() + timedelta(days=3)
TRIP = PlannedTrip(
    origin="Shanghai",
    destination="Chengdu",
    start=SOON,
    end=SOON + timedelta(days=2),
    demo=True,
    candidates=(
        Candidate("outbound", "flight", "MU5401 07:30", 92, "morning, as preferred"),
        Candidate("outbound", "flight", "CA4512 23:10", 40, "red-eye, avoided"),
    ),
)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[TripStore]:
    trips = TripStore(backend_from_dsn(f"sqlite:///{tmp_path}/trips.db"))
    yield trips
    trips.close()


def part(platform: Platform, tenant: str, traveller: str, requester: str) -> PlanPart:
    return PlanPart(
        trip=TRIP,
        traveller=platform.key(tenant, traveller),
        traveller_user=traveller,
        requester=requester,
        lang="zh",
    )


def test_the_payload_carries_the_plan_and_reads_back_whatever_carries_it() -> None:
    plan = part(FEISHU, "tk", "ou_alice", "ou_admin")
    data = encode(plan)
    back = decode(data)
    assert back is not None
    assert (back.trip, back.trip.demo, back.trip.candidates) == (TRIP, True, TRIP.candidates)
    assert (back.traveller, back.traveller_user, back.requester, back.lang) == (
        "feishu:tk:ou_alice",
        "ou_alice",
        "ou_admin",
        "zh",
    )
    # A payload an older Slack button carries (no candidates, no user id) still reads.
    older = {k: v for k, v in data.items() if k not in ("c", "u")} | {"ns": "T1:U1"}
    found = decode(older)
    assert found is not None and found.traveller_user == "U1" and found.trip.candidates == ()
    for broken in (None, {}, {**data, "s": "soon"}, {**data, "c": [["x"]]}, {"o": "A"}):
        assert decode(broken) is None


@pytest.mark.parametrize("platform", [SLACK, FEISHU, DINGTALK], ids=lambda p: p.name)
def test_one_rule_the_traveller_or_a_travel_admin_of_the_same_workspace(
    platform: Platform, store: TripStore
) -> None:
    flows = TripFlows(trips=store, admins=AdminResolver(redis=None), metrics=Metrics())
    plan = part(platform, "W1", "alice", "boss")
    admins = Admins(named=frozenset({"boss"}))

    def may(tenant: str, user: str, admins: Admins = admins) -> bool:
        request = Request(platform, tenant, user, Action(SAVE_TRIP, encode(plan)), admins=admins)
        return flows.may_save(request, plan)

    assert may("W1", "alice")  # the traveller
    assert may("W1", "boss")  # a travel admin of the same workspace
    assert not may("W1", "bob")  # anyone else
    assert not may("W1", "boss", NOBODY)  # who is not an admin (any more)
    assert not may("W2", "boss")  # an admin of another workspace
    assert not may("W2", "alice")  # the same id in another workspace is someone else
    other = next(p for p in (SLACK, FEISHU, DINGTALK) if p is not platform)
    request = Request(other, "W1", "boss", Action(SAVE_TRIP, encode(plan)), admins=admins)
    assert not flows.may_save(request, plan)  # an admin on another platform


def test_saving_twice_saves_once_and_says_who_saved(store: TripStore) -> None:
    metrics = Metrics()
    flows = TripFlows(trips=store, admins=AdminResolver(redis=None), metrics=metrics)
    plan = part(DINGTALK, "corp", "alice", "alice")
    request = Request(DINGTALK, "corp", "alice", Action(SAVE_TRIP, encode(plan)), lang="en")
    first, again = flows.save(request), flows.save(request)
    assert first.text == "<@alice> 已保存此行程。" and first.replace  # the plan's language
    assert again.text != first.text and again.tone == "success"
    assert len(store.list("dingtalk:corp:alice")) == 1
    assert metrics.value("dingtalk_trip_saves_total", outcome="saved") == 1
    assert metrics.value("dingtalk_trip_saves_total", outcome="duplicate") == 1
    refused = flows.save(Request(DINGTALK, "corp", "bob", Action(SAVE_TRIP, encode(plan))))
    assert refused.tone == "error" and not refused.replace
    assert metrics.value("dingtalk_trip_saves_total", outcome="not_allowed") == 1
