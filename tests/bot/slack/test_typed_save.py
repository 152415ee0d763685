"""Saving a planned trip by typing what its plan message offers beside the *Save trip*
button: `save trip CODE` / `保存行程 CODE` to the bot (a DM, or an @mention), or
`/travel-prefs save trip CODE`, the same words DingTalk accepts (`bot.flows.code_commands`).
The same rule as the button: the traveller, or a travel admin; an unknown or expired code
and someone else's trip are answered only to the writer, in their language. The real Bolt
app behind the real server, real Redis for the codes, the fake Slack Web API."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from bot.messages import t
from tests.bot.conftest import BotFactory
from tests.bot.slack.test_command_answers import _shown
from tests.bot.slack.test_plans import RETURN, _refuse_save_buttons, plan_call, save_message
from tests.support.llm_server import ScriptedModel
from tests.support.slack_api import FakeSlackAPI
from tests.support.slack_harness import CHANNEL, BotHarness

ALICE, BOB, ADMIN = "U0ALICE", "U0BOB", "U0ADMIN"
EN_CODE = re.compile(r"`save trip ([A-Z0-9]{8})`")
ZH_CODE = re.compile(r"`保存行程 ([A-Z0-9]{8})`")


def offered(message: dict[str, Any], pattern: re.Pattern[str]) -> str:
    """The code the plan message offers to type."""
    found = pattern.search(json.dumps(message["blocks"], ensure_ascii=False))
    assert found is not None, message["blocks"]
    return found.group(1)


def planned(bot: BotHarness, scripted_model: ScriptedModel, lang: str = "en") -> str:
    """Alice plans a trip in a DM; the code her plan message offers."""
    if lang == "zh":
        scripted_model.script(plan_call(return_date=RETURN), "这是你的成都行程。")
        sent = bot.dm(ALICE, "规划一下上海到成都的行程")
        return offered(save_message(bot, sent), ZH_CODE)
    scripted_model.script(plan_call("Shanghai", "Chengdu"), "Your Chengdu plan.")
    sent = bot.dm(ALICE, "plan my trip from Shanghai to Chengdu")
    return offered(save_message(bot, sent), EN_CODE)


def trips_of(bot: BotHarness, user: str) -> list[Any]:
    assert bot.core.trips is not None
    return bot.core.trips.list(bot.namespace(user))


def wait_saved(bot: BotHarness, user: str, count: int = 1) -> list[Any]:
    deadline = time.monotonic() + 10
    while len(trips := trips_of(bot, user)) < count:
        assert time.monotonic() < deadline, "the trip was never saved"
        time.sleep(0.05)
    return trips


def test_typing_save_trip_in_a_dm_saves_it_and_says_so_in_the_thread(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    code = planned(bot, scripted_model)
    asked = len(scripted_model.requests)
    sent = bot.dm(ALICE, f"save trip {code.lower()}.")  # any case, a full stop after it
    [trip] = wait_saved(bot, ALICE)
    assert trip.destination == "Chengdu"
    [shown] = bot.answers(sent)
    assert t("trip_saved", "en", user=f"<@{ALICE}>") in json.dumps(shown["blocks"])
    assert len(scripted_model.requests) == asked  # a command, never asked of the model

    again = bot.dm(ALICE, f"save trip {code}")  # saving twice saves once
    [twice] = bot.answers(again)
    assert t("trip_already_saved", "en") in twice["text"]
    assert len(trips_of(bot, ALICE)) == 1


def test_the_chinese_command_saves_and_answers_in_chinese(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    code = planned(bot, scripted_model, "zh")
    sent = bot.dm(ALICE, f"保存行程 {code}")
    wait_saved(bot, ALICE)
    [shown] = bot.answers(sent)
    assert t("trip_saved", "zh", user=f"<@{ALICE}>") in json.dumps(
        shown["blocks"], ensure_ascii=False
    )


def test_an_unknown_code_is_told_to_the_writer_only_and_saves_nothing(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    bot.mention(ALICE, "save trip ZZZZ2222")
    slack.wait_for("chat.postEphemeral", ok=True)
    assert _shown(slack, ALICE) == [t("trip_save_unknown", "en")]
    assert slack.posted(CHANNEL) == [] and trips_of(bot, ALICE) == []
    assert scripted_model.requests == []  # never a question for the assistant

    bot.dm(ALICE, "保存行程 ZZZZ2223")
    slack.wait_for("chat.postEphemeral", count=2, ok=True)
    assert _shown(slack, ALICE)[-1] == t("trip_save_unknown", "zh")


def test_someone_elses_trip_is_refused_to_them_only_and_an_admin_may_save_it(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    bot = make_bot(travel_admin_user_ids=ADMIN)
    code = planned(bot, scripted_model)
    bot.mention(BOB, f"save trip {code}")
    [denied] = slack.wait_for("chat.postEphemeral", ok=True)
    assert denied.args["user"] == BOB and denied.args["channel"] == CHANNEL
    assert denied.args["text"] == t("trip_save_not_allowed", "en")
    assert trips_of(bot, ALICE) == [] and slack.posted(CHANNEL) == []

    sent = bot.mention(ADMIN, f"save trip {code}")
    [trip] = wait_saved(bot, ALICE)
    assert trip.created_by == bot.namespace(ADMIN)
    [shown] = bot.answers(sent)  # in the admin's thread, for the channel to see
    assert t("trip_saved", "en", user=f"<@{ADMIN}>") in json.dumps(shown["blocks"])


def test_the_slash_command_saves_it_and_answers_only_the_writer(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    code = planned(bot, scripted_model, "zh")
    assert bot.command("/travel-prefs", f"save trip {code}").status_code == 200
    wait_saved(bot, ALICE)
    [answer] = slack.wait_for("response_url", ok=True)
    assert t("trip_saved", "zh", user=f"<@{ALICE}>") in answer.args["text"]
    assert slack.posted(CHANNEL) == []


def test_a_plan_whose_button_slack_refuses_says_what_to_type_and_that_saves_it(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    _refuse_save_buttons(slack, "invalid_blocks")
    scripted_model.script(plan_call("Shanghai", "Chengdu"), "Your Chengdu plan.")
    bot.dm(ALICE, "plan my trip from Shanghai to Chengdu")
    [note] = slack.wait_for("chat.postEphemeral", ok=True, timeout=10)
    found = EN_CODE.search(note.args["text"])
    assert found is not None, note.args["text"]
    bot.dm(ALICE, f"save trip {found.group(1)}")
    [trip] = wait_saved(bot, ALICE)
    assert trip.destination == "Chengdu"


def test_in_the_plans_channel_thread_the_command_saves_and_elsewhere_it_is_ignored(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    scripted_model.script(plan_call("Shanghai", "Chengdu"), "Your Chengdu plan.")
    sent = bot.mention(ALICE, "plan my trip from Shanghai to Chengdu")
    code = offered(save_message(bot, sent), EN_CODE)
    asked = len(scripted_model.requests)

    bot.channel_message(ALICE, f"save trip {code}", thread_ts=sent.thread_ts)
    wait_saved(bot, ALICE)
    assert len(scripted_model.requests) == asked  # a command, not a question

    # A thread the bot is not part of: not for it, whatever the words.
    elsewhere = "1700000000.000100"
    bot.channel_message(ALICE, f"save trip {code}", thread_ts=elsewhere)
    bot.drain()
    assert slack.posted(CHANNEL, elsewhere) == [] and slack.calls_to("chat.postEphemeral") == []
    assert len(scripted_model.requests) == asked
