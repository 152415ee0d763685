"""Answers of the Slack listeners other than `/travel-prefs` (test_command_answers.py) that
Slack will not show: a saved form's confirmation, the feedback thank-you, an approver's
note, a *Save trip* note. The person gets the answer another way, or is told why in their
language, and an answer Slack may already show is never posted twice. The real Bolt app
behind the real server; Slack is the fake Web API with its documented error answers, its
`response_url` steered to refuse (plain-text errors) or to take a POST and reset the
connection."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.messages import t
from bot.slack.views.approval import APPROVE_ACTION, REASON_ACTION, REASON_BLOCK
from tests.bot.conftest import BotFactory
from tests.bot.slack.test_approvals import APPROVER, REASON, button, click, reason_modal
from tests.bot.slack.test_command_answers import _shown
from tests.bot.slack.test_feedback import _click, _thumb
from tests.bot.slack.test_plans import RETURN, plan_call, save_message
from tests.bot.slack.test_plans import click as click_save
from tests.support.llm_server import ScriptedModel
from tests.support.slack_api import FakeSlackAPI
from tests.support.slack_harness import CHANNEL, BotHarness
from tests.support.slack_payloads import (
    click_payload,
    open_form,
    post_payload,
    settle,
    state_for,
    submit,
)

ALICE = "U0ALICE"


def _undelivered(bot: BotHarness, reason: str) -> float:
    return bot.core.metrics.value("slack_command_undelivered_total", reason=reason)


# -- the preferences form's confirmation (`Preferences.tell`) ---------------------------------


def _save_form(bot: BotHarness) -> None:
    form = open_form(bot, ALICE)
    assert submit(bot, form, ALICE, state_for(form, {"seat": "aisle"})).status_code == 200
    settle(bot)


def test_a_confirmation_slack_took_then_reset_is_not_sent_again_as_a_dm(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    slack.take_then_reset("chat.postEphemeral")
    _save_form(bot)
    [shown] = _shown(slack, ALICE)
    assert t("prefs_saved", "en") in shown
    assert slack.calls_to("chat.postMessage") == []


@pytest.mark.parametrize(("error", "reason"), [("msg_too_long", "failed"), ("ratelimited", "busy")])
def test_a_confirmation_no_way_takes_is_explained_in_the_persons_language(
    bot: BotHarness, slack: FakeSlackAPI, error: str, reason: str
) -> None:
    slack.add_user(ALICE, locale="zh-CN")
    slack.fail("chat.postEphemeral", "not_in_channel")
    slack.fail("chat.postMessage", error)
    _save_form(bot)
    assert _shown(slack, ALICE) == [t(f"slack_command_{reason}", "zh", code=error)]
    assert _undelivered(bot, reason) == 1


def test_a_confirmation_rate_limited_once_stays_ephemeral_after_the_wait(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    slack.rate_limit("chat.postEphemeral", times=1, retry_after=1)
    _save_form(bot)
    [shown] = _shown(slack, ALICE)
    assert "aisle" in shown
    assert [c.status for c in slack.calls_to("chat.postEphemeral")] == [429, 200]
    assert slack.calls_to("chat.postMessage") == []


# -- the feedback thank-you ---------------------------------------------------------------------


def _reason_clicked(bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI) -> None:
    """Alice's thumbs-down, then a reason clicked (the thank-you goes out)."""
    scripted_model.script("Here is your Chengdu trip.")
    sent = bot.dm(ALICE, "plan my trip to Chengdu")
    [answer] = bot.answers(sent)
    assert _click(bot, sent, answer, _thumb(answer, "negative")).status_code == 200
    [asked] = slack.wait_for("chat.postEphemeral", ok=True, timeout=10)
    [reasons] = [b for b in asked.args["blocks"] if b["type"] == "actions"]
    reason = reasons["elements"][0]
    clicked = {k: reason[k] for k in ("action_id", "value")} | {"type": "button"}
    assert _click(bot, sent, answer, clicked).status_code == 200
    settle(bot)


@pytest.mark.parametrize("error", ["expired_url", "used_url", "invalid_blocks"])
def test_a_refused_thank_you_comes_as_a_direct_message(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI, error: str
) -> None:
    slack.fail("response_url", error)
    _reason_clicked(bot, scripted_model, slack)
    thanks = t("feedback_tell_more", "en")
    assert _shown(slack, ALICE)[-1] == thanks
    [dm] = [c for c in slack.calls_to("chat.postMessage") if c.args.get("text") == thanks]
    assert dm.args["channel"] == ALICE


def test_a_thank_you_slack_took_then_reset_is_posted_once(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    slack.take_then_reset("response_url")
    _reason_clicked(bot, scripted_model, slack)
    thanks = t("feedback_tell_more", "en")
    assert [c.args["text"] for c in slack.response_calls] == [thanks]
    assert thanks not in _shown(slack, ALICE)[:-1]
    assert not [c for c in slack.calls_to("chat.postMessage") if c.args.get("text") == thanks]


@pytest.mark.parametrize("error", ["not_in_channel", "is_archived"])
def test_a_question_slack_refuses_in_the_thread_comes_through_the_response_url(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI, error: str
) -> None:
    slack.add_user(ALICE, locale="zh-CN")
    scripted_model.script("这是你的成都行程。")
    sent = bot.dm(ALICE, "帮我规划去成都的行程")
    [answer] = bot.answers(sent)
    slack.fail("chat.postEphemeral", error)
    assert _click(bot, sent, answer, _thumb(answer, "negative")).status_code == 200
    settle(bot)
    [asked] = slack.response_calls
    assert asked.ok and asked.args["text"] == t("feedback_ask", "zh")
    [reasons] = [b for b in asked.args["blocks"] if b["type"] == "actions"]
    assert len(reasons["elements"]) == 4  # the reasons to click came with it
    assert _shown(slack, ALICE) == [t("feedback_ask", "zh")]


# -- the approver's note ------------------------------------------------------------------------


def _approver_card(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> dict[str, Any]:
    """Alice's out-of-policy trip sent for approval: the card as the approver's click carries
    it (not kept by Slack: a redraw of it is refused with `message_not_found`)."""
    _, modal = reason_modal(bot, scripted_model, slack)
    reason = {REASON_BLOCK: {REASON_ACTION: {"type": "plain_text_input", "value": REASON}}}
    assert submit(bot, {**modal, "id": "V2"}, ALICE, reason).status_code == 200
    [card] = slack.wait_for("chat.postMessage", where=lambda c: c.args["channel"] == APPROVER)
    blocks = card.args["blocks"]
    blocks = json.loads(blocks) if isinstance(blocks, str) else blocks
    return {"ts": "1700000000.000100", "blocks": blocks, "text": card.args["text"]}


def test_an_approver_whose_card_slack_will_not_redraw_is_told_the_decision(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    card = _approver_card(bot, scripted_model, slack)
    click(bot, APPROVER, card, "D0APPROVER", APPROVE_ACTION)
    settle(bot)
    [update] = slack.calls_to("chat.update")
    assert not update.ok
    shown = _shown(slack, APPROVER)
    assert len(shown) == 2 and "Approved by <@U0APPROVER>" in shown[-1]  # after the card


def test_an_approvers_note_slack_took_then_reset_is_not_sent_again(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    card = _approver_card(bot, scripted_model, slack)
    slack.take_then_reset("chat.postEphemeral")
    click(bot, "U0BOB", card, "D0APPROVER", APPROVE_ACTION)  # not an approver: refused
    settle(bot)
    shown = _shown(slack, "U0BOB")
    assert len(shown) == 1 and "named approver" in shown[0]
    assert not [c for c in slack.calls_to("chat.postMessage") if c.args["channel"] == "U0BOB"]


def test_an_approvers_note_no_channel_and_no_dm_takes_goes_through_the_response_url(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    card = _approver_card(bot, scripted_model, slack)
    slack.fail("chat.postEphemeral", "channel_not_found")
    slack.fail("chat.postMessage", "cannot_dm_bot")
    payload = click_payload(
        bot,
        "U0BOB",
        APPROVE_ACTION,
        button(card, APPROVE_ACTION)["value"],
        response_url=slack.response_url(),
    )
    payload |= {"channel": {"id": CHANNEL, "name": "travel"}, "message": card}
    assert post_payload(bot, payload).status_code == 200
    settle(bot)
    [note] = slack.response_calls
    assert note.ok and "named approver" in note.args["text"]
    assert _shown(slack, "U0BOB") == [note.args["text"]]


# -- the *Save trip* note -----------------------------------------------------------------------


@pytest.mark.parametrize("error", ["channel_not_found", "not_in_channel"])
def test_a_save_trip_note_slack_refuses_in_the_channel_goes_through_the_response_url(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI, error: str
) -> None:
    scripted_model.script(plan_call(return_date=RETURN), "这是你的成都行程。")
    sent = bot.dm(ALICE, "规划一下上海到成都的行程")
    message = save_message(bot, sent)
    slack.fail("chat.postEphemeral", error)
    assert click_save(bot, "U0BOB", message, sent.channel).status_code == 200  # not hers
    settle(bot)
    [denied] = _shown(slack, "U0BOB")
    assert "只有出行人本人" in denied or "Only the traveller" in denied
    assert [c.args["text"] for c in slack.response_calls] == [denied]


def test_a_save_trip_note_slack_took_then_reset_is_not_sent_again(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    scripted_model.script(plan_call(return_date=RETURN), "这是你的成都行程。")
    sent = bot.dm(ALICE, "规划一下上海到成都的行程")
    message = save_message(bot, sent)
    slack.take_then_reset("chat.postEphemeral")
    assert click_save(bot, "U0BOB", message, sent.channel).status_code == 200
    settle(bot)
    assert len(_shown(slack, "U0BOB")) == 1
    assert slack.response_calls == []


# -- a refused request to plan for a colleague ----------------------------------------------


@pytest.mark.parametrize("error", ["not_in_channel", "is_archived"])
def test_a_refusal_slack_will_not_show_in_the_channel_comes_as_a_direct_message(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI, error: str
) -> None:
    bot = make_bot(travel_admin_user_ids="U0ADMIN")
    slack.fail("chat.postEphemeral", error)
    bot.mention("U0BOB", f"plan a trip for <@{ALICE}> from Shanghai to Chengdu on 2026-12-10")
    [refusal] = slack.wait_for("chat.postMessage", timeout=10)
    assert refusal.args["channel"] == "U0BOB" and "only travel admins" in refusal.args["text"]
    bot.drain()
    assert _shown(slack, "U0BOB") == [refusal.args["text"]]
    assert scripted_model.requests == []
