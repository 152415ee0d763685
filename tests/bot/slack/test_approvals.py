"""Approvals in Slack through the real Bolt app and the fake Slack Web API: *Save trip* on an
out-of-policy plan opens the reason modal, the approver gets a message with blocks, a
stranger's click is refused, the approver's decides once, and the traveller is told in the
thread where they asked; trips, policies and approvals on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from bot import compose
from bot.slack.views.approval import (
    APPROVAL_REASON_CALLBACK,
    APPROVE_ACTION,
    REASON_ACTION,
    REASON_BLOCK,
)
from bot.slack.views.trip import SAVE_TRIP_ACTION
from tests.bot.conftest import BotFactory
from tests.bot.slack.test_plans import RETURN, plan_call, save_message
from tests.support.llm_server import ScriptedModel
from tests.support.slack_api import Call, FakeSlackAPI
from tests.support.slack_harness import BotHarness, Sent
from tests.support.slack_payloads import (
    click_payload,
    open_home,
    post_payload,
    published_home,
    submit,
    texts,
    wait_view,
)

ALICE, BOB, APPROVER = "U0ALICE", "U0BOB", "U0APPROVER"
# Every hotel is over this cap: the plan's leading hotel needs an approval.
STRICT = """\
grades: {default: L1}
hotel_cap_per_night: {L1: {tier1: 100, tier2: 100, other: 100}}
approvers: [U0APPROVER]
"""
REASON = "The client's office is next door"


def button(message: dict[str, Any], action_id: str) -> dict[str, Any]:
    return next(
        element
        for block in message["blocks"]
        if block["type"] == "actions"
        for element in block["elements"]
        if element["action_id"] == action_id
    )


def click(
    bot: BotHarness, user: str, message: dict[str, Any], channel: str, action_id: str
) -> None:
    """A click on a button of a message, as Slack sends it."""
    element = button(message, action_id)
    payload = click_payload(bot, user, action_id, element["value"])
    payload["container"] = {"type": "message", "message_ts": message["ts"], "channel_id": channel}
    payload["channel"] = {"id": channel, "name": "dm"}
    payload["message"] = message
    assert post_payload(bot, payload).status_code == 200


@pytest.mark.parametrize("store", ["sqlite", "postgresql"])
def test_the_approval_round_trip_in_slack(
    store: str,
    request: pytest.FixtureRequest,
    make_bot: BotFactory,
    scripted_model: ScriptedModel,
    slack: FakeSlackAPI,
) -> None:
    extra = {"trips_dsn": request.getfixturevalue("pg_schema_dsn")} if store != "sqlite" else {}
    bot = make_bot(**extra)
    assert bot.core.policy is not None and bot.core.trips is not None
    bot.core.policy.set(bot.team_id, STRICT, by="cli:ana")
    scripted_model.script(plan_call(return_date=RETURN), "这是你的成都行程。")
    sent = bot.dm(ALICE, "规划一下上海到成都的行程")
    message = save_message(bot, sent)

    click(bot, ALICE, message, sent.channel, SAVE_TRIP_ACTION)
    [modal] = wait_view(slack, "views.open", lambda v: v["callback_id"] == APPROVAL_REASON_CALLBACK)
    assert "超出差标" in json.dumps(modal["blocks"], ensure_ascii=False)
    [trip] = bot.core.trips.list(bot.namespace(ALICE))

    empty = {REASON_BLOCK: {REASON_ACTION: {"type": "plain_text_input", "value": " "}}}
    refused = submit(bot, {**modal, "id": "V1"}, ALICE, empty)
    assert refused.json()["response_action"] == "errors"  # the modal says why
    assert "请填写原因" in refused.json()["errors"][REASON_BLOCK]

    reason = {REASON_BLOCK: {REASON_ACTION: {"type": "plain_text_input", "value": REASON}}}
    assert submit(bot, {**modal, "id": "V2"}, ALICE, reason).status_code == 200
    [card] = slack.wait_for("chat.postMessage", where=lambda c: c.args["channel"] == APPROVER)
    blocks = card.args["blocks"]
    blocks = json.loads(blocks) if isinstance(blocks, str) else blocks
    text = json.dumps(blocks, ensure_ascii=False)
    assert REASON.replace("'", "&#39;") in text or REASON in text
    assert "超出差标" in text and "<@U0ALICE>" in text
    assert bot.core.trips.get(trip.id).state == "pending"  # type: ignore[union-attr]
    [asked] = slack.wait_for("chat.postMessage", where=lambda c: "已请" in str(c.args.get("text")))
    assert asked.args["channel"] == sent.channel  # told where she asked

    # The card as Slack keeps it in the approver's DM (a redraw of any other is refused).
    kept = slack.add_message("D0APPROVER", card.args["text"], user=slack.bot_user_id, blocks=blocks)
    approver_message = dict(kept)  # as the clicks carry it (the first redraw changes `kept`)
    click(bot, BOB, approver_message, "D0APPROVER", APPROVE_ACTION)
    [no] = slack.wait_for("chat.postEphemeral", where=lambda c: c.args["user"] == BOB)
    assert "named approver" in no.args["text"]  # in Bob's language
    assert bot.core.trips.get(trip.id).state == "pending"  # type: ignore[union-attr]

    click(bot, APPROVER, approver_message, "D0APPROVER", APPROVE_ACTION)
    [update] = slack.wait_for("chat.update", where=lambda c: c.args["channel"] == "D0APPROVER")
    assert "Approved by <@U0APPROVER>" in update.args["text"]  # the approver's language
    [told] = slack.wait_for("chat.postMessage", where=lambda c: "批准了" in str(c.args.get("text")))
    assert told.args["channel"] == sent.channel
    assert bot.core.trips.get(trip.id).state == "approved"  # type: ignore[union-attr]

    click(bot, APPROVER, approver_message, "D0APPROVER", APPROVE_ACTION)  # a double click
    slack.wait_for("chat.update", count=2, where=lambda c: c.args["channel"] == "D0APPROVER")
    [again] = slack.wait_for("chat.postEphemeral", where=lambda c: c.args["user"] == APPROVER)
    assert "decided already" in again.args["text"]
    told_alice = [c for c in slack.calls_to("chat.postMessage") if "批准了" in str(c.args)]
    assert len(told_alice) == 1  # told once
    # App Home says so too, with the cities in the words the plan was made in.
    assert open_home(bot, ALICE).status_code == 200
    home = texts(published_home(slack, ALICE))
    assert "上海 → 成都" in home and ("· approved" in home or "· 已批准" in home)
    audit = bot.core.policy.audit.entries(bot.team_id)
    assert [e.kind for e in audit].count("approved") == 1
    assert [e.actor for e in audit if e.kind == "decision_refused"] == [bot.namespace(BOB)]


def reason_modal(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> tuple[Sent, dict[str, Any]]:
    """Alice's out-of-policy plan under STRICT, *Save trip* clicked: (her DM, the reason modal)."""
    assert bot.core.policy is not None
    bot.core.policy.set(bot.team_id, STRICT, by="cli:ana")
    scripted_model.script(plan_call(return_date=RETURN), "这是你的成都行程。")
    sent = bot.dm(ALICE, "规划一下上海到成都的行程")
    click(bot, ALICE, save_message(bot, sent), sent.channel, SAVE_TRIP_ACTION)
    [modal] = wait_view(slack, "views.open", lambda v: v["callback_id"] == APPROVAL_REASON_CALLBACK)
    return sent, modal


def give_reason_until_unconfirmed(
    bot: BotHarness, slack: FakeSlackAPI, modal: dict[str, Any]
) -> Call:
    """Alice submits her reason; the post telling her Slack did not confirm the card."""
    reason = {REASON_BLOCK: {REASON_ACTION: {"type": "plain_text_input", "value": REASON}}}
    assert submit(bot, {**modal, "id": "V2"}, ALICE, reason).status_code == 200
    [told] = slack.wait_for(
        "chat.postMessage", where=lambda c: "平台未确认" in str(c.args.get("text"))
    )
    return told


def test_alice_is_told_when_slack_never_confirmed_the_approvers_card(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    """Slack takes the approver's message, then the connection resets: it is not posted
    again (chat.postMessage takes no idempotency key), and Alice is told that Slack did
    not confirm it reached the approver, not a plain 'asked'."""
    bot = make_bot()
    sent, modal = reason_modal(bot, scripted_model, slack)

    slack.take_then_reset("chat.postMessage")  # the first post: the approver's card
    told = give_reason_until_unconfirmed(bot, slack, modal)
    assert told.args["channel"] == sent.channel and "<@U0APPROVER>" in told.args["text"]
    cards = [c for c in slack.calls_to("chat.postMessage") if c.args["channel"] == APPROVER]
    assert len(cards) == 1  # sent once, never again
    assert bot.core.metrics.value("slack_approval_cards_total", outcome="unconfirmed") == 1


def test_an_answer_slack_may_have_posted_in_the_thread_is_not_sent_again_as_a_dm(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    """The approver's card and then Alice's answer in her thread are each taken by Slack and
    the connection resets: Alice's answer is in her thread once, not again in a DM."""
    bot = make_bot()
    sent, modal = reason_modal(bot, scripted_model, slack)

    slack.take_then_reset("chat.postMessage", times=2)  # the approver's card, Alice's answer
    told = give_reason_until_unconfirmed(bot, slack, modal)
    assert told.args["channel"] == sent.channel
    deadline = time.monotonic() + 1.0  # a copy would follow the reset within milliseconds
    while time.monotonic() < deadline:
        answers = [c for c in slack.calls_to("chat.postMessage") if "平台未确认" in str(c.args)]
        assert len(answers) == 1  # in her thread only
        time.sleep(0.02)


def test_an_expiry_slack_may_not_have_posted_in_the_thread_is_told_once_in_a_dm(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    """Nobody decides; the request expires. The clock's sweep tells Alice in her thread,
    Slack takes the post and resets the connection: no decider is there to pass it on, so
    Alice is told once more in a DM, saying why, what happened and what to do. Later sweeps
    tell her nothing more."""
    bot = make_bot(approval_ttl_days=0.00002)  # 1.7 s
    sent, modal = reason_modal(bot, scripted_model, slack)
    reason = {REASON_BLOCK: {REASON_ACTION: {"type": "plain_text_input", "value": REASON}}}
    assert submit(bot, {**modal, "id": "V2"}, ALICE, reason).status_code == 200
    slack.wait_for("chat.postMessage", where=lambda c: "已请" in str(c.args.get("text")))
    [trip] = bot.core.trips.list(bot.namespace(ALICE))  # type: ignore[union-attr]
    time.sleep(2.0)

    slack.take_then_reset("chat.postMessage")  # the expiry, in Alice's thread
    flows = compose.approval_flows(bot.core)
    assert flows.sweep() == 1
    assert flows.sweep() == 0 and flows.sweep() == 0
    told = [c for c in slack.calls_to("chat.postMessage") if "已过期" in str(c.args.get("text"))]
    assert [c.args["channel"] for c in told] == [sent.channel, ALICE]  # her thread, then a DM
    direct = str(told[1].args["text"])
    assert "无法确认" in direct and "重新保存行程" in direct and "符合差标" in direct
    assert bot.core.trips.get(trip.id).state == "expired"  # type: ignore[union-attr]
    metrics = bot.core.metrics
    assert metrics.value("slack_approval_told_total", outcome="unconfirmed") == 1
    assert metrics.value("slack_approval_expiry_direct_total", outcome="sent") == 1


def test_a_request_expired_by_a_late_click_is_told_at_once_and_only_once(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    """The approver clicks after the request's time is up: the click expires it (and says
    so) before any sweep could, and Alice is told in her thread at once, with what to do,
    before any sweep or loop runs; the sweeps after it (here, or in another process) tell
    her nothing more."""
    bot = make_bot(approval_ttl_days=0.00002)
    sent, modal = reason_modal(bot, scripted_model, slack)
    reason = {REASON_BLOCK: {REASON_ACTION: {"type": "plain_text_input", "value": REASON}}}
    assert submit(bot, {**modal, "id": "V2"}, ALICE, reason).status_code == 200
    [card] = slack.wait_for("chat.postMessage", where=lambda c: c.args["channel"] == APPROVER)
    blocks = card.args["blocks"]
    blocks = json.loads(blocks) if isinstance(blocks, str) else blocks
    time.sleep(2.0)

    late = {"ts": "1700000000.000100", "blocks": blocks, "text": card.args["text"]}
    click(bot, APPROVER, late, "D0APPROVER", APPROVE_ACTION)
    slack.wait_for("chat.update", where=lambda c: "Expired" in str(c.args.get("text")))
    assert [c.args["channel"] for c in expired_posts(slack)] == [sent.channel]  # no sweep yet
    assert flows_sweep(bot) == 0  # the click expired it already
    assert flows_sweep(bot) == 0
    told = expired_posts(slack)
    assert [c.args["channel"] for c in told] == [sent.channel]
    assert "重新保存行程" in str(told[0].args["text"])


def expired_posts(slack: FakeSlackAPI) -> list[Call]:
    """What Slack was asked to post saying an approval expired."""
    return [c for c in slack.calls_to("chat.postMessage") if "已过期" in str(c.args.get("text"))]


def flows_sweep(bot: BotHarness) -> int:
    """The clock's sweep in a process that serves Slack (`travel-bot serve` with
    `SCHEDULER_IN_WEB`), from a fresh `ApprovalFlows` as each process would build."""
    return compose.approval_flows(bot.core).sweep()
