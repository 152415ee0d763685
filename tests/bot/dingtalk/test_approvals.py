"""Approvals in DingTalk through the robot's HTTP callback and the fake OpenAPI: no form,
so *Save trip* on an out-of-policy plan asks for the reason as a reply in the chat; the
approver gets an ActionCard whose buttons send `approve CODE` / `reject CODE`; a
stranger's tap is refused, the approver's decides once, and the traveller is told in
their chat; trips and approvals on SQLite and PostgreSQL."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from tests.bot.dingtalk.test_plans import RETURN, command_of, plan_call
from tests.support.dingtalk_api import FakeDingTalkAPI, Sent
from tests.support.dingtalk_harness import CORP, HTTPRobot
from tests.support.llm_server import ScriptedModel

ALICE, BOB, APPROVER = "staff-alice", "staff-bob", "staff-approver"
STRICT = """\
grades: {default: L1}
hotel_cap_per_night: {L1: {tier1: 100, tier2: 100, other: 100}}
approvers: [staff-approver]
"""
REASON = "The client's office is next door"


def wait(dingtalk: FakeDingTalkAPI, where: Callable[[Sent], bool], timeout: float = 15) -> Sent:
    deadline = time.monotonic() + timeout
    while True:
        found = [s for s in dingtalk.sent if where(s)]
        if found or time.monotonic() > deadline:
            assert found, [(s.users, s.title, s.text[:80]) for s in dingtalk.sent]
            return found[-1]
        time.sleep(0.02)


@pytest.mark.parametrize("store", ["sqlite", "postgresql"])
def test_the_approval_round_trip_in_dingtalk(
    store: str,
    request: pytest.FixtureRequest,
    make_robot: Callable[..., HTTPRobot],
    scripted_model: ScriptedModel,
    dingtalk: FakeDingTalkAPI,
) -> None:
    extra = {"trips_dsn": request.getfixturevalue("pg_schema_dsn")} if store != "sqlite" else {}
    robot = make_robot(**extra)
    assert robot.core.policy is not None and robot.core.trips is not None
    robot.core.policy.set(f"dingtalk:{CORP}", STRICT, by="cli:ana")
    scripted_model.script(
        plan_call("Shanghai", "Chengdu", return_date=RETURN), "Your Chengdu plan."
    )
    robot.send("plan my trip from Shanghai to Chengdu")
    _, card = robot.answers(2)
    save = command_of(card.buttons[0][1])
    assert save.startswith("save trip ")

    robot.send(save)
    asked_why = wait(dingtalk, lambda s: "Reply in this chat" in s.text)
    assert "outside the travel policy" in asked_why.text
    reply = asked_why.text.split("**")[-2]  # "reason CODE"
    assert reply.startswith("reason ")
    [trip] = robot.core.trips.list(robot.namespace(ALICE))

    robot.send(reply)  # the code, no reason
    wait(dingtalk, lambda s: s.text.startswith("Please give a reason."))
    robot.send(f"{reply} {REASON}")
    wait(dingtalk, lambda s: "Asked @staff-approver" in s.text)
    approval = wait(dingtalk, lambda s: s.users == (APPROVER,))
    assert approval.kind == "actionCard" and REASON in approval.text
    assert "outside" not in approval.title and "Chengdu" in approval.title
    assert robot.core.trips.get(trip.id).state == "pending"  # type: ignore[union-attr]
    approve, reject = (command_of(url) for url in approval.button_urls)
    assert approve.startswith("approve ") and reject.startswith("reject ")

    robot.send(approve, staff_id=BOB)  # a stranger's tap
    wait(dingtalk, lambda s: "named approver" in s.text)
    assert robot.core.trips.get(trip.id).state == "pending"  # type: ignore[union-attr]

    robot.send(approve, staff_id=APPROVER)
    wait(dingtalk, lambda s: "Approved by @staff-approver" in s.text)
    told = wait(dingtalk, lambda s: "approved Shanghai" in s.text)
    assert told.users == (ALICE,)  # in Alice's own chat with the robot
    assert robot.core.trips.get(trip.id).state == "approved"  # type: ignore[union-attr]

    robot.send(reject, staff_id=APPROVER)  # changed their mind: one decision only
    deadline = time.monotonic() + 15
    while len([s for s in dingtalk.sent if "Approved by" in s.text]) < 2:  # what stands
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert robot.core.trips.get(trip.id).state == "approved"  # type: ignore[union-attr]
    assert len([s for s in dingtalk.sent if "approved Shanghai" in s.text]) == 1
    audit = robot.core.policy.audit.entries(f"dingtalk:{CORP}")
    assert [e.kind for e in audit].count("approved") == 1 and "rejected" not in str(audit)
    assert [e.actor for e in audit if e.kind == "decision_refused"] == [robot.namespace(BOB)]


def _ask(robot: HTTPRobot, scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI) -> str:
    """Alice plans, saves an out-of-policy trip and is asked why: the reply to send."""
    robot.core.policy.set(f"dingtalk:{CORP}", STRICT, by="cli:ana")  # type: ignore[union-attr]
    scripted_model.script(
        plan_call("Shanghai", "Chengdu", return_date=RETURN), "Your Chengdu plan."
    )
    robot.send("plan my trip from Shanghai to Chengdu")
    _, card = robot.answers(2)
    robot.send(command_of(card.buttons[0][1]))
    asked_why = wait(dingtalk, lambda s: "Reply in this chat" in s.text)
    return asked_why.text.split("**")[-2]  # "reason CODE"


@pytest.mark.parametrize(
    ("fault", "alice_reads"),
    [
        ("reset", "did not confirm that @staff-approver received it"),
        ("refused", "could not be sent to @staff-approver"),
    ],
)
def test_alice_is_told_the_truth_about_the_approvers_card(
    make_robot: Callable[..., HTTPRobot],
    scripted_model: ScriptedModel,
    dingtalk: FakeDingTalkAPI,
    fault: str,
    alice_reads: str,
) -> None:
    """The card to the approver is taken and the connection reset (it may be there: not
    sent again, 'unconfirmed'), or refused (it is not there): Alice is told which, never
    a plain 'Asked', and the approver has at most the one card."""
    robot = make_robot()
    reply = _ask(robot, scripted_model, dingtalk)
    if fault == "reset":
        dingtalk.take_then_fail("otm", "reset")
    else:
        dingtalk.fail("otm", status=400)
    robot.send(f"{reply} {REASON}")
    told = wait(dingtalk, lambda s: alice_reads in s.text)
    assert told.users != (APPROVER,)
    time.sleep(0.3)
    cards = [s for s in dingtalk.sent if s.users == (APPROVER,)]
    assert len(cards) == (1 if fault == "reset" else 0)
    outcome = "unconfirmed" if fault == "reset" else "failed"
    assert robot.core.metrics.value("dingtalk_approval_cards_total", outcome=outcome) == 1


def test_the_approver_is_told_when_alice_may_not_have_heard(
    make_robot: Callable[..., HTTPRobot], scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    """The outcome to Alice is taken and the connection reset: it is not sent again, and
    the approver's card says the traveller may not have been told."""
    robot = make_robot()
    reply = _ask(robot, scripted_model, dingtalk)
    robot.send(f"{reply} {REASON}")
    approval = wait(dingtalk, lambda s: s.users == (APPROVER,))
    approve = command_of(approval.button_urls[0])
    dingtalk.take_then_fail("otm", "reset")
    robot.send(approve, staff_id=APPROVER)
    decided = wait(dingtalk, lambda s: "Approved by @staff-approver" in s.text)
    assert "did not confirm that the traveller was told" in decided.text
    time.sleep(0.3)
    assert len([s for s in dingtalk.sent if "approved Shanghai" in s.text]) == 1
    metrics = robot.core.metrics
    assert metrics.value("dingtalk_approval_told_total", outcome="unconfirmed") == 1
