"""A typed `save trip CODE` of an out-of-policy plan in Slack: no click, so no modal can
open; the writer is asked why in a message only they see, whose *Give a reason* opens the
reason modal the *Save trip* button opens, or they send `reason CODE why` / `理由 CODE 为什么`
(the words DingTalk takes). Either way the approver is asked once, exactly as from the
button, and the plan's own *Save trip* button afterwards says the trip is saved already.
The real Bolt app behind the real server, real Redis and SQLite, the fake Slack Web API."""

from __future__ import annotations

import json
import re
from typing import Any

from bot.messages import t
from bot.slack.views.approval import (
    APPROVAL_REASON_CALLBACK,
    APPROVE_ACTION,
    REASON_ACTION,
    REASON_BLOCK,
    REASON_OPEN_ACTION,
    REJECT_ACTION,
)
from bot.slack.views.trip import SAVE_TRIP_ACTION
from tests.bot.slack.test_approvals import APPROVER, REASON, STRICT, button, click
from tests.bot.slack.test_plans import RETURN, plan_call, save_message
from tests.bot.slack.test_typed_save import ALICE, EN_CODE, ZH_CODE, offered, trips_of, wait_saved
from tests.support.llm_server import ScriptedModel
from tests.support.slack_api import Call, FakeSlackAPI
from tests.support.slack_harness import CHANNEL, BotHarness, Sent
from tests.support.slack_payloads import click_payload, post_payload, submit, wait_view

ZH_REASON = re.compile(r"`(理由 [A-Z0-9]{8})`")
EN_REASON = re.compile(r"`(reason [A-Z0-9]{8})`")


def strict_plan(bot: BotHarness, scripted_model: ScriptedModel, lang: str) -> tuple[Sent, str]:
    """Alice's plan in a DM under a policy that every hotel breaks: (her DM, the code
    her plan message offers to type)."""
    assert bot.core.policy is not None
    bot.core.policy.set(bot.team_id, STRICT, by="cli:ana")
    if lang == "zh":
        scripted_model.script(plan_call(return_date=RETURN), "这是你的成都行程。")
        sent = bot.dm(ALICE, "规划一下上海到成都的行程")
        return sent, offered(save_message(bot, sent), ZH_CODE)
    scripted_model.script(plan_call("Shanghai", "Chengdu"), "Your Chengdu plan.")
    sent = bot.dm(ALICE, "plan my trip from Shanghai to Chengdu")
    return sent, offered(save_message(bot, sent), EN_CODE)


def blocks_of(call: Call) -> list[dict[str, Any]]:
    blocks = call.args.get("blocks") or []
    return json.loads(blocks) if isinstance(blocks, str) else list(blocks)


def asked_privately(slack: FakeSlackAPI, count: int = 1) -> Call:
    """The latest message only Alice sees (ephemeral) once `count` arrived."""
    calls = slack.wait_for(
        "chat.postEphemeral", count=count, ok=True, where=lambda c: c.args["user"] == ALICE
    )
    return calls[-1]


def give_a_reason(bot: BotHarness, call: Call, response_url: str | None = None) -> None:
    """Alice clicks *Give a reason* on the ephemeral message `call` posted."""
    value = button({"blocks": blocks_of(call)}, REASON_OPEN_ACTION)["value"]
    payload = click_payload(bot, ALICE, REASON_OPEN_ACTION, value, response_url=response_url)
    channel = call.args["channel"]
    payload["container"] = {
        "type": "message",
        "message_ts": "1700000000.000001",
        "channel_id": channel,
        "is_ephemeral": True,
    }
    payload["channel"] = {"id": channel, "name": "directmessage"}
    assert post_payload(bot, payload).status_code == 200


def cards(slack: FakeSlackAPI) -> list[Call]:
    """The approval requests the approver was sent."""
    return [c for c in slack.calls_to("chat.postMessage") if c.args["channel"] == APPROVER]


def test_a_typed_save_asks_why_with_a_button_that_opens_the_reason_form_in_chinese(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    _, code = strict_plan(bot, scripted_model, "zh")
    typed = bot.dm(ALICE, f"保存行程 {code}")
    [trip] = wait_saved(bot, ALICE)

    asked = asked_privately(slack)
    shown = json.dumps(blocks_of(asked), ensure_ascii=False)
    assert "超出差标" in shown and t("slack_reason_button", "zh") in shown
    assert ZH_REASON.search(shown) is not None  # and what to send instead, privately:
    assert "单聊" in shown and "`/travel-prefs 理由 " in shown and "@我" not in shown
    assert asked.args["channel"] == typed.channel and cards(slack) == []

    question = slack.response_url("question")  # the ephemeral question's, in the click
    give_a_reason(bot, asked, question)
    [modal] = wait_view(slack, "views.open", lambda v: v["callback_id"] == APPROVAL_REASON_CALLBACK)
    assert "超出差标" in json.dumps(modal["blocks"], ensure_ascii=False)
    reason = {REASON_BLOCK: {REASON_ACTION: {"type": "plain_text_input", "value": REASON}}}
    assert submit(bot, {**modal, "id": "V1"}, ALICE, reason).status_code == 200

    [card] = slack.wait_for("chat.postMessage", where=lambda c: c.args["channel"] == APPROVER)
    text = json.dumps(blocks_of(card), ensure_ascii=False)
    assert "超出差标" in text and "<@U0ALICE>" in text
    assert REASON in text or REASON.replace("'", "&#39;") in text
    [told] = slack.wait_for("chat.postMessage", where=lambda c: "已请" in str(c.args["text"]))
    assert told.args["channel"] == typed.channel  # told where she saved it
    assert bot.core.trips is not None
    assert bot.core.trips.get(trip.id).state == "pending"  # type: ignore[union-attr]
    [replaced] = slack.wait_for("response_url", where=lambda c: c.args.get("replace_original"))
    assert "已请" in replaced.args["text"]  # the question answered: no stale button left
    assert "blocks" not in replaced.args

    # The form again (a second click, a second submit): nobody is asked twice.
    give_a_reason(bot, asked)
    wait_view(slack, "views.open", lambda v: v["callback_id"] == APPROVAL_REASON_CALLBACK, count=2)
    assert submit(bot, {**modal, "id": "V2"}, ALICE, reason).status_code == 200
    pending = t("approval_already_pending", "zh", trip="")
    slack.wait_for("chat.postMessage", where=lambda c: pending in str(c.args["text"]))
    assert len(cards(slack)) == 1


def test_a_typed_reason_in_english_asks_the_approver_once(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    _, code = strict_plan(bot, scripted_model, "en")
    bot.dm(ALICE, f"save trip {code}")
    wait_saved(bot, ALICE)
    asked = asked_privately(slack)
    shown = json.dumps(blocks_of(asked))
    assert "outside the travel policy" in shown and t("slack_reason_button", "en") in shown
    found = EN_REASON.search(shown)
    assert found is not None, shown
    model_asked = len(scripted_model.requests)

    typed = bot.dm(ALICE, f"{found.group(1)} {REASON}.")
    [card] = slack.wait_for("chat.postMessage", where=lambda c: c.args["channel"] == APPROVER)
    assert "next door" in card.args["text"] and "<@U0ALICE>" in card.args["text"]
    [told] = bot.answers(typed)  # in the thread of her reason, for her to see
    assert "Asked <@U0APPROVER>" in told["text"]

    bot.dm(ALICE, f"{found.group(1)} {REASON}")  # sent twice: asked once
    twice = asked_privately(slack, count=2)
    assert "already waiting for approval" in twice.args["text"]
    assert len(cards(slack)) == 1
    assert len(scripted_model.requests) == model_asked  # commands, never the model's


def test_a_reason_refused_is_asked_again_and_nobody_is_asked(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    _, code = strict_plan(bot, scripted_model, "zh")
    bot.dm(ALICE, f"保存行程 {code}")
    wait_saved(bot, ALICE)
    found = ZH_REASON.search(json.dumps(blocks_of(asked_privately(slack)), ensure_ascii=False))
    assert found is not None

    bot.dm(ALICE, found.group(1))  # the code alone: no reason given
    again = asked_privately(slack, count=2)
    shown = json.dumps(blocks_of(again), ensure_ascii=False)
    assert t("approval_reason_empty", "zh") in shown
    assert t("slack_reason_button", "zh") in shown  # and still a way to answer

    bot.dm(ALICE, f"{found.group(1)} 请打 13812345678 联系我")  # a phone number
    refused = asked_privately(slack, count=3)
    assert t("approval_reason_private", "zh") in refused.args["text"]
    bot.drain()
    assert cards(slack) == []


def test_the_plans_save_button_after_a_typed_save_says_it_is_saved_already(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    sent, code = strict_plan(bot, scripted_model, "en")
    plan = save_message(bot, sent)
    bot.dm(ALICE, f"save trip {code}")
    wait_saved(bot, ALICE)
    found = EN_REASON.search(json.dumps(blocks_of(asked_privately(slack))))
    assert found is not None
    bot.dm(ALICE, f"{found.group(1)} {REASON}")
    slack.wait_for("chat.postMessage", where=lambda c: c.args["channel"] == APPROVER)

    click(bot, ALICE, plan, sent.channel, SAVE_TRIP_ACTION)
    [redrawn] = slack.wait_for("chat.update", where=lambda c: c.args["ts"] == plan["ts"])
    assert t("trip_already_saved", "en") in redrawn.args["text"]
    assert not any(b["type"] == "actions" for b in blocks_of(redrawn))  # no button left
    bot.drain()
    assert len(trips_of(bot, ALICE)) == 1 and len(cards(slack)) == 1
    assert slack.calls_to("views.open") == []  # nothing asked again


def test_a_give_a_reason_button_whose_code_is_gone_says_so_to_the_clicker(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    payload = click_payload(bot, ALICE, REASON_OPEN_ACTION, "reason ZZZZ2222")
    payload["channel"] = {"id": "D0ALICE", "name": "directmessage"}
    assert post_payload(bot, payload).status_code == 200
    [told] = slack.wait_for("chat.postEphemeral", ok=True)
    assert told.args["text"] == t("approval_unknown", "en")
    assert slack.calls_to("views.open") == []


def test_the_slash_command_opens_the_form_at_once_and_takes_a_typed_reason(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    _, code = strict_plan(bot, scripted_model, "en")
    assert bot.command("/travel-prefs", f"save trip {code}").status_code == 200
    [modal] = wait_view(slack, "views.open", lambda v: v["callback_id"] == APPROVAL_REASON_CALLBACK)
    assert "outside the travel policy" in json.dumps(modal["blocks"])  # a click's trigger

    bot.dm(ALICE, f"save trip {code}")  # typed to the bot: asked in a message instead
    found = EN_REASON.search(json.dumps(blocks_of(asked_privately(slack))))
    assert found is not None
    assert bot.command("/travel-prefs", f"{found.group(1)} {REASON}").status_code == 200
    [card] = slack.wait_for("chat.postMessage", where=lambda c: c.args["channel"] == APPROVER)
    assert "next door" in card.args["text"]
    slack.wait_for("response_url", where=lambda c: "Asked <@U0APPROVER>" in c.args["text"])
    assert len(trips_of(bot, ALICE)) == 1 and len(cards(slack)) == 1


def decide_card(bot: BotHarness, slack: FakeSlackAPI, action_id: str) -> None:
    """The approver clicks `action_id` on the card they were sent (as Slack keeps it)."""
    [card] = slack.wait_for("chat.postMessage", where=lambda c: c.args["channel"] == APPROVER)
    kept = slack.add_message("D0APPROVER", card.args["text"], user=slack.bot_user_id)
    kept = {**kept, "blocks": blocks_of(card)}
    click(bot, APPROVER, kept, "D0APPROVER", action_id)


ASKED = "Asked <@U0APPROVER>"
DM_OF_ALICE = (ALICE, "D0ALICE")  # a message to a user's id is posted in their DM


def in_channel(slack: FakeSlackAPI) -> list[Call]:
    return [c for c in slack.calls_to("chat.postMessage") if c.args["channel"] == CHANNEL]


def test_a_slash_command_save_and_its_reason_are_told_to_the_traveller_alone(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    """Only Alice saw `/travel-prefs save trip CODE`: the channel it was typed in never
    hears of her trip, its reason or its approval; she is told in her DM."""
    _, code = strict_plan(bot, scripted_model, "en")
    assert bot.command("/travel-prefs", f"save trip {code}").status_code == 200
    [modal] = wait_view(slack, "views.open", lambda v: v["callback_id"] == APPROVAL_REASON_CALLBACK)
    reason = {REASON_BLOCK: {REASON_ACTION: {"type": "plain_text_input", "value": REASON}}}
    assert submit(bot, {**modal, "id": "V1"}, ALICE, reason).status_code == 200
    slack.wait_for(
        "chat.postMessage",
        where=lambda c: c.args["channel"] in DM_OF_ALICE and ASKED in c.args["text"],
    )
    decide_card(bot, slack, APPROVE_ACTION)
    slack.wait_for(
        "chat.postMessage",
        where=lambda c: c.args["channel"] in DM_OF_ALICE and "approved" in c.args["text"],
    )
    bot.drain()
    assert in_channel(slack) == []


def test_a_slash_command_reason_is_rejected_in_the_travellers_dm(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    _, code = strict_plan(bot, scripted_model, "en")
    slack.fail("views.open", "expired_trigger_id")  # no form: what to type instead
    assert bot.command("/travel-prefs", f"save trip {code}").status_code == 200
    [asked] = slack.wait_for("response_url", where=lambda c: EN_REASON.search(json.dumps(c.args)))
    found = EN_REASON.search(json.dumps(asked.args))
    assert found is not None
    assert bot.command("/travel-prefs", f"{found.group(1)} {REASON}").status_code == 200
    decide_card(bot, slack, REJECT_ACTION)
    slack.wait_for(
        "chat.postMessage",
        where=lambda c: c.args["channel"] in DM_OF_ALICE and "rejected" in c.args["text"],
    )
    bot.drain()
    assert in_channel(slack) == []


def test_a_reason_nobody_could_be_asked_for_leaves_the_question_to_try_again(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    """The policy names no approver by the time Alice's reason is in: she is told so,
    and the question with its *Give a reason* button stays for when someone is named."""
    _, code = strict_plan(bot, scripted_model, "en")
    bot.dm(ALICE, f"save trip {code}")
    asked = asked_privately(slack)
    assert bot.core.policy is not None
    bot.core.policy.set(bot.team_id, STRICT.replace("approvers: [U0APPROVER]\n", ""), by="cli:ana")
    give_a_reason(bot, asked, slack.response_url("question"))
    [modal] = wait_view(slack, "views.open", lambda v: v["callback_id"] == APPROVAL_REASON_CALLBACK)
    reason = {REASON_BLOCK: {REASON_ACTION: {"type": "plain_text_input", "value": REASON}}}
    assert submit(bot, {**modal, "id": "V1"}, ALICE, reason).status_code == 200
    no_approver = t("approval_no_approver", "en")
    slack.wait_for("chat.postMessage", where=lambda c: no_approver in str(c.args.get("text")))
    bot.drain()
    assert [c for c in slack.response_calls if c.args.get("replace_original")] == []
    assert cards(slack) == []
