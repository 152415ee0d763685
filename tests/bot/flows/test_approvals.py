"""Approvals where people talk: one flow in the core, drawn by each platform's widgets.

Every test runs the core's flows (`bot.flows`: save trip → reason → request → decision →
the traveller told) for Slack, Feishu, DingTalk and the toy platform, each drawn by the
channel's real widgets and clicked the way the platform sends a click back (a Slack
button's JSON value or the modal's private_metadata, a Feishu card's callback value and
form_value, a DingTalk `dtmd://` link's command read by its code parser, a Toy button),
on a real SQLite file and a real PostgreSQL schema. What the approver and the traveller
receive goes through a recording `Messenger` holding what the channel drew.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any
from urllib.parse import unquote

import pytest
import redis

from bot.cli.policy_people import line
from bot.conversation.reply import PlanPart
from bot.dingtalk.widgets import DingTalkWidgets
from bot.feishu.widgets import REASON_FIELD, FeishuWidgets
from bot.flows.actions import SAVE_TRIP, Action, Request
from bot.flows.approvals import ApprovalFlows, Messengers, Sent
from bot.flows.code_commands import code_action
from bot.flows.codes import PendingActions
from bot.flows.pipeline import Flows
from bot.flows.preferences import PreferenceFlows
from bot.flows.trips import TripFlows, encode
from bot.flows.views import Outcome, render
from bot.metrics import Metrics
from bot.planning.admins import AdminResolver, Admins
from bot.planning.plan import Candidate, PlannedTrip
from bot.platform import Platform
from bot.slack.views.approval import APPROVE_ACTION, REASON_ACTION, REASON_BLOCK, REJECT_ACTION
from bot.slack.views.widgets import SlackWidgets, read_value
from memory.errors import StoreUnavailable
from tests.bot.policy.conftest import EXAMPLE, Clock, Desk, DeskFactory
from tests.support.platforms import DINGTALK, FEISHU, SLACK
from tests.toy.incoming import PLATFORM as TOY
from tests.toy.widgets import ToyWidgets

PLATFORMS = [SLACK, FEISHU, DINGTALK, TOY]
START = date(2026, 12, 10)
HOTEL_BREAK = "超出差标：成都酒店上限 400/晚（L1），此酒店 580/晚"
TRIP = PlannedTrip(
    origin="Shanghai",
    destination="Chengdu",
    start=START,
    end=START + timedelta(days=2),
    candidates=(
        Candidate("outbound", "train", "G1974 08:00 二等座", 90, "morning", True),
        Candidate("hotel", "hotel", "Hanting Chengdu, CNY 380/night", 70, "ok", True),
        Candidate(
            "hotel", "hotel", "Atour Chengdu, CNY 580/night", 95, "near", False, (HOTEL_BREAK,)
        ),
    ),
)
REASON = "the client's office is next door"


@dataclass
class Drawn:
    """What a platform showed someone: the widget as drawn, to whom or where."""

    to: str
    drawn: Any


@dataclass
class Recorder:
    """A channel's messenger: it draws with the channel's widgets and keeps what it sent."""

    platform: Platform
    widgets: Any
    sent: list[Drawn] = field(default_factory=list)
    ends: dict[str, Sent] = field(default_factory=dict)  # a person's posts end so (not shown)

    def to_person(self, namespace: str, outcome: Outcome, *, key: str) -> Sent:
        end = self.ends.get(namespace, Sent.DELIVERED)
        if end is not Sent.NOT_DELIVERED:
            self.sent.append(Drawn(namespace, render(self.widgets, outcome.view)))
        return end

    def to_thread(self, where: Mapping[str, Any], outcome: Outcome, *, key: str) -> Sent:
        drawn = render(self.widgets, outcome.view)
        self.sent.append(Drawn(f"thread:{where['conversation']}/{where['thread']}", drawn))
        return Sent.DELIVERED


# -- how each platform's widget is clicked -----------------------------------------------------


def text_of(platform: Platform, drawn: Any) -> str:
    if platform is SLACK:
        return json.dumps({"text": drawn.text, "blocks": drawn.blocks}, ensure_ascii=False)
    if platform is DINGTALK:
        return drawn.title + "\n" + drawn.text
    return json.dumps(drawn, ensure_ascii=False)


def buttons(platform: Platform, drawn: Any, codes: PendingActions) -> dict[str, Action]:
    """The actions of a drawn widget's buttons, by what the platform sends back."""
    found: dict[str, Action] = {}
    if platform is SLACK:
        for block in drawn.blocks or []:
            for element in block.get("elements", []) if block["type"] == "actions" else []:
                data = read_value(element["value"])
                name = {APPROVE_ACTION: "approval.approve", REJECT_ACTION: "approval.reject"}
                found[element["action_id"]] = Action(
                    name.get(element["action_id"], SAVE_TRIP), data
                )
    elif platform is FEISHU:
        for value in _feishu_values(drawn):
            data = {k: v for k, v in value.items() if k not in ("a", "l")}
            found[value["a"]] = Action(value["a"], data)
    elif platform is DINGTALK:
        for button in drawn.buttons:
            command = unquote(button.url.split("content=", 1)[1])
            parsed = code_action(command, codes)
            assert parsed is not None, command
            found[parsed[0].name] = parsed[0]
    else:
        for button in drawn["buttons"]:
            found[button["action"]] = Action(button["action"], button["value"])
    return found


def _feishu_values(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        if node.get("tag") == "button":
            for behavior in node.get("behaviors", []):
                if behavior.get("type") == "callback":
                    yield behavior["value"]
        for child in node.values():
            yield from _feishu_values(child)
    elif isinstance(node, list):
        for child in node:
            yield from _feishu_values(child)


def answer_form(platform: Platform, drawn: Any, reason: str, codes: PendingActions) -> Action:
    """The reason form answered the platform's way."""
    if platform is SLACK:
        assert drawn.modal is not None and drawn.modal["type"] == "modal"
        block = next(b for b in drawn.modal["blocks"] if b.get("block_id") == REASON_BLOCK)
        assert block["element"]["action_id"] == REASON_ACTION
        data = json.loads(drawn.modal["private_metadata"])
        return Action("approval.reason", {**data, "reason": reason})
    if platform is FEISHU:
        [form] = [e for e in drawn["body"]["elements"] if e.get("tag") == "form"]
        assert any(e.get("name") == REASON_FIELD for e in form["elements"])
        [value] = list(_feishu_values(form))
        data = {k: v for k, v in value.items() if k not in ("a", "l")}
        return Action(value["a"], {**data, "reason": reason})  # form_value.reason
    if platform is DINGTALK:
        # No form: the message says what to reply; the reply is read by the code parser.
        command = drawn.text.split("**")[1]  # "理由 CODE" / "reason CODE"
        parsed = code_action(f"{command} {reason}", codes)
        assert parsed is not None
        return parsed[0]
    [submit] = drawn["buttons"]
    return Action(submit["action"], {**submit["value"], "reason": reason})


# -- the desk --------------------------------------------------------------------------------


@dataclass
class Office:
    platform: Platform
    desk: Desk
    flows: Flows
    messenger: Recorder
    codes: PendingActions
    metrics: Metrics
    clock: Clock

    @property
    def org(self) -> str:
        return self.platform.key("T1")

    def ns(self, user: str) -> str:
        return self.platform.key("T1", user)

    def ask(self, user: str, action: Action, *, admins: frozenset[str] = frozenset()) -> Outcome:
        where = {"conversation": "C1", "thread": "th-1", "kind": "dm", "user": user}
        return self.flows.handle(
            Request(
                self.platform,
                "T1",
                user,
                action,
                "zh",
                admins=Admins(named=admins),
                where=where,
            )
        )

    def draw(self, outcome: Outcome) -> Any:
        return render(self.messenger.widgets, outcome.view)


@pytest.fixture
def codes(redis_prefix: str) -> Iterator[PendingActions]:
    client = redis.Redis.from_url("redis://127.0.0.1:6379/0")
    yield PendingActions(client=client, key_prefix=redis_prefix, platform="dingtalk")
    client.close()


def open_office(
    platform: Platform, make_desk: DeskFactory, clock: Clock, codes: PendingActions
) -> Office:
    desk = make_desk()
    metrics = Metrics()
    widgets: Any = {
        "slack": SlackWidgets(),
        "feishu": FeishuWidgets(),
        "dingtalk": DingTalkWidgets(codes),
        "toy": ToyWidgets(),
    }[platform.name]
    messenger = Recorder(platform, widgets)
    messengers = Messengers(prefixes=[p.prefix for p in PLATFORMS])  # as `bot.compose`
    messengers.add(messenger)
    admins = AdminResolver(redis=None)
    approvals = ApprovalFlows(
        approvals=desk.approvals,
        policy=desk.book,
        trips=desk.trips,
        admins=admins,
        metrics=metrics,
        messengers=messengers,
    )
    trips = TripFlows(trips=desk.trips, admins=admins, metrics=metrics, approvals=approvals)
    preferences: Any = PreferenceFlows.__new__(PreferenceFlows)  # not used here
    flows = Flows(preferences=preferences, trips=trips, approvals=approvals)
    desk.book.set(platform.key("T1"), EXAMPLE, by="cli:ana")
    return Office(platform, desk, flows, messenger, codes, metrics, clock)


@pytest.fixture(params=PLATFORMS, ids=lambda p: p.name)
def office(
    request: pytest.FixtureRequest, make_desk: DeskFactory, clock: Clock, codes: PendingActions
) -> Office:
    platform: Platform = request.param
    return open_office(platform, make_desk, clock, codes)


def plan_part(office: Office) -> PlanPart:
    return PlanPart(
        trip=TRIP,
        traveller=office.ns("U0ALICE"),
        traveller_user="U0ALICE",
        requester="U0ALICE",
        lang="zh",
    )


def asked(office: Office) -> tuple[str, Any]:
    """Alice picks the out-of-policy hotel and gives her reason; (trip id, approver card)."""
    o = office
    view = o.flows.trips.plan_view(plan_part(o), o.platform)
    [(option, pick)] = view.picks  # *Save with …* the out-of-policy hotel
    assert option.startswith("Atour")
    drawn_plan = o.draw(Outcome(view))
    assert "Atour" in text_of(o.platform, drawn_plan)
    form = o.ask("U0ALICE", pick)
    assert type(form.view).__name__ == "ReasonForm"
    [trip] = o.desk.trips.list(o.ns("U0ALICE"))
    assert trip.state is None  # saved; nothing asked yet
    drawn_form = o.draw(form)
    assert HOTEL_BREAK in text_of(o.platform, drawn_form) or (
        o.platform is SLACK and HOTEL_BREAK in drawn_form.modal["blocks"][0]["text"]["text"]
    )
    empty = o.ask("U0ALICE", answer_form(o.platform, drawn_form, "  ", o.codes))
    assert empty.tone == "error" and "请填写原因" in empty.text  # nothing asked
    assert o.messenger.sent == []
    sent = o.ask("U0ALICE", answer_form(o.platform, drawn_form, REASON, o.codes))
    assert sent.tone == "success" and "U0APPROVER" in sent.text, sent.text
    [card] = o.messenger.sent
    assert card.to == o.ns("U0APPROVER")
    shown = text_of(o.platform, card.drawn)
    assert REASON in shown.replace("\\'", "'") or REASON.replace("'", "&#39;") in shown
    assert "Atour" in shown and "超出差标" in shown
    assert o.desk.trips.get(trip.id).state == "pending"  # type: ignore[union-attr]
    return trip.id, card.drawn


def test_the_round_trip_approver_decides_once_and_the_traveller_is_told_in_the_thread(
    office: Office,
) -> None:
    o = office
    trip_id, card = asked(o)
    actions = buttons(o.platform, card, o.codes)
    approve = next(a for a in actions.values() if a.name == "approval.approve")
    assert any(a.name == "approval.reject" for a in actions.values())

    stranger = o.ask("U0MALLORY", approve)
    assert stranger.tone == "error" and "审批人" in stranger.text
    traveller = o.ask("U0ALICE", approve)  # nobody approves their own exception
    assert traveller.tone == "error"
    assert o.desk.trips.get(trip_id).state == "pending"  # type: ignore[union-attr]

    decided = o.ask("U0APPROVER", approve)
    assert decided.replace and decided.tone == "success"
    redrawn = text_of(o.platform, o.draw(decided))
    assert "已批准" in redrawn and not buttons(o.platform, o.draw(decided), o.codes)
    assert o.desk.trips.get(trip_id).state == "approved"  # type: ignore[union-attr]
    told = o.messenger.sent[-1]
    assert told.to == "thread:C1/th-1"  # where alice asked
    assert "批准了" in text_of(o.platform, told.drawn)

    again = o.ask("U0APPROVER", approve)  # a double click
    reject = next(a for a in actions.values() if a.name == "approval.reject")
    admin = o.ask("U0BOSS", reject, admins=frozenset({"U0BOSS"}))  # a second decider, late
    for late in (again, admin):
        assert late.tone == "warning" and "已批准" in text_of(o.platform, o.draw(late))
    assert o.desk.trips.get(trip_id).state == "approved"  # type: ignore[union-attr]
    assert len(o.messenger.sent) == 2  # the card, and one notice to alice

    audit = o.desk.book.audit.entries(o.org)
    kinds = [e.kind for e in audit]
    assert kinds.count("approved") == 1 and "rejected" not in kinds
    assert kinds.count("decision_refused") == 2  # mallory, and alice herself
    [decision] = [e for e in audit if e.kind == "approved"]
    assert decision.actor == o.ns("U0APPROVER") and decision.trip_id == trip_id
    assert decision.detail["reason"] == REASON
    assert HOTEL_BREAK in json.dumps(decision.detail["breaks"], ensure_ascii=False)
    said = line(decision)  # as `travel-bot policy audit --org ORG` prints it
    assert f"by {o.ns('U0APPROVER')}" in said and f"for {o.ns('U0ALICE')}" in said
    assert f"rule: {HOTEL_BREAK}" in said and "reason: " in said and "Atour" in said
    refused = [e for e in audit if e.kind == "decision_refused"]
    assert {e.actor for e in refused} == {o.ns("U0MALLORY"), o.ns("U0ALICE")}
    name = o.platform.name
    assert o.metrics.value(f"{name}_approvals_total", outcome="refused") == 2


def test_two_approvers_at_once_one_outcome(office: Office) -> None:
    o = office
    trip_id, card = asked(o)
    actions = buttons(o.platform, card, o.codes)
    approve = next(a for a in actions.values() if a.name == "approval.approve")
    reject = next(a for a in actions.values() if a.name == "approval.reject")
    results: list[Outcome] = []
    barrier = threading.Barrier(4)

    def decide(user: str, action: Action) -> None:
        barrier.wait()
        results.append(o.ask(user, action, admins=frozenset({"U0BOSS", "U0CHIEF"})))

    runners = [
        threading.Thread(target=decide, args=args)
        for args in (
            ("U0APPROVER", approve),
            ("U0BOSS", reject),
            ("U0CHIEF", approve),
            ("U0APPROVER", reject),
        )
    ]
    for runner in runners:
        runner.start()
    for runner in runners:
        runner.join()
    decided = [r for r in results if not r.toast]  # the others: "decided already"
    assert len(results) == 4 and len(decided) == 1, [r.text for r in results]
    state = o.desk.trips.get(trip_id).state  # type: ignore[union-attr]
    assert state in ("approved", "rejected")
    told = [s for s in o.messenger.sent if s.to.startswith("thread:")]
    assert len(told) == 1  # alice is told once
    kinds = [e.kind for e in o.desk.book.audit.entries(o.org)]
    assert kinds.count("approved") + kinds.count("rejected") == 1


def test_a_request_expires_and_the_traveller_is_told(office: Office) -> None:
    o = office
    trip_id, card = asked(o)
    assert o.flows.approvals is not None
    assert o.flows.approvals.sweep() == 0  # not yet
    o.clock.advance(days=7, seconds=1)
    assert o.flows.approvals.sweep() == 1
    assert o.flows.approvals.sweep() == 0  # once
    assert o.desk.trips.get(trip_id).state == "expired"  # type: ignore[union-attr]
    told = o.messenger.sent[-1]
    assert told.to == "thread:C1/th-1" and "已过期" in text_of(o.platform, told.drawn)
    approve = next(
        a for a in buttons(o.platform, card, o.codes).values() if a.name == "approval.approve"
    )
    late = o.ask("U0APPROVER", approve)
    assert "过期" in text_of(o.platform, o.draw(late))
    assert o.desk.trips.get(trip_id).state == "expired"  # type: ignore[union-attr]
    [expired] = o.desk.book.audit.entries(o.org, kinds=["expired"])
    assert expired.actor == "system" and expired.trip_id == trip_id


def test_a_backlog_of_another_platform_never_hides_this_ones_expiries(
    office: Office, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Expiries nobody told on a platform this process does not serve, older than its own
    and filling a whole batch (one here, 500 in production), never keep its own traveller
    from being told: only the platforms it serves are read."""
    o = office
    other = FEISHU if o.platform is not FEISHU else SLACK
    stranger = other.key("T9", "U0STRANGER")
    foreign, _ = o.desk.approvals.request(
        trip_id=o.desk.trip(stranger).id,
        trip="Beijing -> Xi'an",
        traveller=stranger,
        requester=stranger,
        choice="a hotel",
        breaks=[],
        reason="the client's office is next door",
        approvers=[other.key("T9", "U0BOSS")],
        policy_version=1,
    )
    o.clock.advance(days=1)
    asked(o)
    batch = o.desk.approvals.untold
    monkeypatch.setattr(o.desk.approvals, "untold", lambda **kw: batch(**kw, limit=1))
    o.clock.advance(days=7, seconds=1)
    assert o.flows.approvals is not None and o.flows.approvals.sweep() == 2
    told = o.messenger.sent[-1]
    assert told.to == "thread:C1/th-1" and "已过期" in text_of(o.platform, told.drawn)
    assert [r.id for r in batch()] == [foreign.id]  # left for a process serving its platform


def test_a_clock_serving_no_platform_expires_and_leaves_the_telling(
    office: Office, caplog: pytest.LogCaptureFixture
) -> None:
    """The clock process (no platform) expires and reads nothing to tell; a serving
    process whose telling fails still reports what it expired, and logs the telling's
    failure as such, not as the expiry's."""
    o = office
    trip_id, _card = asked(o)
    flows = o.flows.approvals
    assert flows is not None and flows.approvals is not None
    clock = ApprovalFlows(
        approvals=flows.approvals,
        policy=None,
        trips=None,
        admins=None,
        metrics=Metrics(),
        messengers=Messengers(),
    )
    o.clock.advance(days=7, seconds=1)
    untold = flows.approvals.untold

    def broken(**kw: Any) -> Any:
        raise StoreUnavailable("down")

    flows.approvals.untold = broken  # type: ignore[method-assign]
    assert clock.sweep() == 1  # the clock never asked what to tell
    [asked_again] = [o.desk.trips.get(trip_id)]
    assert asked_again is not None and asked_again.state == "expired"
    o.clock.advance(days=7, seconds=1)
    assert flows.sweep() == 0  # the serving process: its telling failed, nothing raised
    assert "telling travellers of expired approvals failed" in caplog.text
    flows.approvals.untold = untold  # type: ignore[method-assign]
    assert flows.sweep() == 0
    told = o.messenger.sent[-1]
    assert told.to == "thread:C1/th-1" and "已过期" in text_of(o.platform, told.drawn)


def test_an_in_policy_save_asks_nothing_and_a_second_ask_asks_nobody_twice(
    office: Office,
) -> None:
    o = office
    view = o.flows.trips.plan_view(plan_part(o), o.platform)
    assert view.save is not None
    saved = o.ask("U0ALICE", view.save)  # the leading options are all in policy
    assert type(saved.view).__name__ == "PlanView" and saved.tone == "success"
    assert o.desk.trips.list(o.ns("U0ALICE"))[0].state is None
    [(_, pick)] = view.picks
    form = o.draw(o.ask("U0ALICE", pick))
    first = o.ask("U0ALICE", answer_form(o.platform, form, REASON, o.codes))
    again = o.ask("U0ALICE", answer_form(o.platform, form, REASON + " (again)", o.codes))
    assert first.tone == "success" and "已在等待审批" in again.text
    assert len(o.messenger.sent) == 1  # the approver was asked once
    bob = o.ask("U0BOB", answer_form(o.platform, form, REASON, o.codes))
    assert bob.tone == "error"  # not alice's, not an admin


def test_save_payload_without_candidates_still_knows_the_exception() -> None:
    """Slack's button drops the candidates ("c"): the exceptions ("q") travel alone."""
    part = PlanPart(
        trip=TRIP, traveller="T1:U0ALICE", traveller_user="U0ALICE", requester="U0ALICE", lang="en"
    )
    payload = {k: v for k, v in encode(part).items() if k != "c"}
    [row] = payload["q"]
    assert row[2].startswith("Atour") and row[3] == [HOTEL_BREAK] and row[1] is False


def test_an_admins_plan_for_a_colleague_asks_approval_for_the_colleague(office: Office) -> None:
    """An admin's plan is saved at once; *Save with …* still asks, for the colleague."""
    o = office
    part = PlanPart(
        trip=TRIP,
        traveller=o.ns("U0ALICE"),
        traveller_user="U0ALICE",
        requester="U0BOSS",
        lang="zh",
        saved=True,
    )
    view = o.flows.trips.plan_view(part, o.platform)
    assert view.save is None and view.saved  # saved already: no *Save trip*
    [(option, pick)] = view.picks
    assert option.startswith("Atour")
    admins = frozenset({"U0BOSS"})
    form = o.draw(o.ask("U0BOSS", pick, admins=admins))
    sent = o.ask("U0BOSS", answer_form(o.platform, form, REASON, o.codes), admins=admins)
    assert sent.tone == "success"
    [card] = o.messenger.sent
    assert card.to == o.ns("U0APPROVER") and "U0ALICE" in text_of(o.platform, card.drawn)
    [trip] = o.desk.trips.list(o.ns("U0ALICE"))
    assert trip.state == "pending"
    approve = next(
        a for a in buttons(o.platform, card.drawn, o.codes).values() if a.name == "approval.approve"
    )
    asked_by = o.ask("U0BOSS", approve, admins=admins)  # who asked never decides
    assert asked_by.tone == "error"


def test_a_mixed_outcome_names_who_was_asked_who_was_not_and_who_is_unconfirmed(
    office: Office,
) -> None:
    """Three approvers: one card arrives, one is refused, one may have arrived. Alice reads
    all three, and the unconfirmed one is not among those she is told were asked."""
    o = office
    policy = EXAMPLE.replace("approvers: [U0APPROVER]", "approvers: [U0ANNA, U0BEN, U0CAI]")
    o.desk.book.set(o.org, policy, by="cli:ana")
    o.messenger.ends = {o.ns("U0BEN"): Sent.NOT_DELIVERED, o.ns("U0CAI"): Sent.UNCONFIRMED}
    view = o.flows.trips.plan_view(plan_part(o), o.platform)
    [(_, pick)] = view.picks
    form = o.draw(o.ask("U0ALICE", pick))
    sent = o.ask("U0ALICE", answer_form(o.platform, form, REASON, o.codes))
    assert sent.tone == "warning", sent.text
    asked_part, rest = sent.text.split("；", 1)
    assert "U0ANNA" in asked_part and "U0CAI" not in asked_part and "U0BEN" not in asked_part
    assert "未能发送给" in rest and "U0BEN" in rest
    assert "平台也未确认" in rest and "U0CAI" in rest
    assert {d.to for d in o.messenger.sent} == {o.ns("U0ANNA"), o.ns("U0CAI")}
