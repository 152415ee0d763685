"""A trip saved by typing what its plan message offers (`save trip CODE`, or
`/travel-prefs save trip CODE`) leaves that message as a click on *Save trip* would: drawn
again without the button or the line that says what to type, with who saved it. When
Slack will not update it, the trip is saved all the same and the command's answer is the
only one. The real Bolt app behind the real server, real Redis for the codes, the fake
Slack Web API."""

from __future__ import annotations

import json
import time
from typing import Any

import redis

from bot.messages import t
from bot.slack.plan_message import PLAN_AT
from tests.bot.slack.test_plans import plan_call, save_message
from tests.bot.slack.test_typed_reason import blocks_of
from tests.bot.slack.test_typed_save import ALICE, EN_CODE, offered, trips_of, wait_saved
from tests.support.llm_server import ScriptedModel
from tests.support.slack_api import FakeSlackAPI
from tests.support.slack_harness import BotHarness


def plan_in_a_dm(bot: BotHarness, scripted_model: ScriptedModel) -> tuple[dict[str, Any], str]:
    """Alice plans a trip in a DM: her plan message (as first posted), and its code."""
    scripted_model.script(plan_call("Shanghai", "Chengdu"), "Your Chengdu plan.")
    sent = bot.dm(ALICE, "plan my trip from Shanghai to Chengdu")
    message = save_message(bot, sent)
    assert any(block["type"] == "actions" for block in message["blocks"])
    code = offered(message, EN_CODE)
    _wait_placed(bot, code)
    return message, code


def _wait_placed(bot: BotHarness, code: str) -> None:
    """Until the plan message's place is kept with its code: that happens once Slack
    answered the post, a moment after the message shows (a person reading it and typing
    takes longer; a test does not)."""
    client = redis.Redis.from_url(bot.settings.redis_url)
    key = f"{bot.settings.redis_key_prefix}slack:action:{code.upper()}"
    deadline = time.monotonic() + 5
    try:
        while PLAN_AT not in json.loads(client.get(key) or "{}"):
            assert time.monotonic() < deadline, "the plan message's place was never kept"
            time.sleep(0.02)
    finally:
        client.close()


def test_a_typed_save_draws_the_plan_message_again_without_its_button(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    message, code = plan_in_a_dm(bot, scripted_model)
    sent = bot.dm(ALICE, f"save trip {code}")
    wait_saved(bot, ALICE)
    saved = t("trip_saved", "en", user=f"<@{ALICE}>")
    [update] = slack.wait_for("chat.update", where=lambda c: c.args["ts"] == message["ts"])
    assert saved in update.args["text"]
    shown = json.dumps(blocks_of(update))
    assert not any(block["type"] == "actions" for block in blocks_of(update))  # no button
    assert code not in shown and "save trip" not in shown  # nor what to type
    assert "Chengdu" in shown  # still the plan
    [now] = [m for m in slack.posted(update.args["channel"]) if m["ts"] == message["ts"]]
    assert saved in json.dumps(now["blocks"])  # what Alice sees there now
    [answer] = bot.answers(sent)
    assert saved in json.dumps(answer["blocks"])  # and the command's own answer


def test_when_slack_will_not_update_the_plan_message_the_save_stands_and_is_said_once(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    message, code = plan_in_a_dm(bot, scripted_model)
    slack.fail("chat.update", "message_not_found")
    sent = bot.dm(ALICE, f"save trip {code}")
    [trip] = wait_saved(bot, ALICE)
    assert trip.destination == "Chengdu"
    slack.wait_for("chat.update", where=lambda c: c.args["ts"] == message["ts"])
    bot.drain()
    [answer] = bot.answers(sent)
    assert t("trip_saved", "en", user=f"<@{ALICE}>") in json.dumps(answer["blocks"])
    assert len(slack.posted(sent.channel, sent.thread_ts)) == 1  # no second word of it
    assert slack.calls_to("chat.postEphemeral") == []
    assert len(slack.calls_to("chat.update")) == 1  # tried once, not again


def test_a_save_by_slash_command_draws_the_plan_message_again_too(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    message, code = plan_in_a_dm(bot, scripted_model)
    assert bot.command("/travel-prefs", f"save trip {code}").status_code == 200
    wait_saved(bot, ALICE)
    [answer] = slack.wait_for("response_url", ok=True)
    saved = t("trip_saved", "en", user=f"<@{ALICE}>")
    assert saved in answer.args["text"]
    [update] = slack.wait_for("chat.update", where=lambda c: c.args["ts"] == message["ts"])
    assert saved in update.args["text"]
    assert not any(block["type"] == "actions" for block in blocks_of(update))
    assert len(trips_of(bot, ALICE)) == 1


def test_saving_a_saved_trip_again_says_so_in_a_line_and_leaves_the_plan_message_alone(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    """Alice types the save a second time (and then by slash command): she reads that the
    trip was saved already, in one line, not the whole plan again; the plan message keeps
    saying who saved it, never redrawn to 'already saved'."""
    message, code = plan_in_a_dm(bot, scripted_model)
    bot.dm(ALICE, f"save trip {code}")
    wait_saved(bot, ALICE)
    saved = t("trip_saved", "en", user=f"<@{ALICE}>")
    [update] = slack.wait_for("chat.update", where=lambda c: c.args["ts"] == message["ts"])

    again = bot.dm(ALICE, f"save trip {code}")
    [answer] = bot.answers(again)
    assert answer["text"] == t("trip_already_saved", "en")
    assert "Chengdu" not in json.dumps(answer.get("blocks") or [])  # not the plan again
    assert bot.command("/travel-prefs", f"save trip {code}").status_code == 200
    [said] = slack.wait_for("response_url", ok=True)
    assert said.args["text"] == t("trip_already_saved", "en")
    assert "Chengdu" not in json.dumps(said.args.get("blocks") or [])
    bot.drain()
    time.sleep(0.3)  # a redraw would follow its answer within it
    assert len(slack.calls_to("chat.update")) == 1  # the first save's redraw only
    [now] = [m for m in slack.posted(update.args["channel"]) if m["ts"] == message["ts"]]
    shown = json.dumps(now["blocks"])
    assert saved in shown and t("trip_already_saved", "en") not in shown
    assert len(trips_of(bot, ALICE)) == 1


def test_saving_a_saved_trip_again_in_chinese_is_answered_in_chinese(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    """Alice's plan is in English; she types the save again in Chinese: the one line
    that says it was saved already is in Chinese, the language she typed in."""
    message, code = plan_in_a_dm(bot, scripted_model)
    bot.dm(ALICE, f"save trip {code}")
    wait_saved(bot, ALICE)
    slack.wait_for("chat.update", where=lambda c: c.args["ts"] == message["ts"])

    again = bot.dm(ALICE, f"保存行程 {code}")
    [answer] = bot.answers(again)
    assert answer["text"] == t("trip_already_saved", "zh")
    assert len(trips_of(bot, ALICE)) == 1
