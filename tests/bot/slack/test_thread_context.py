"""A first @mention partway through a thread brings the thread's earlier messages along."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest

from tests.bot.conftest import BotFactory
from tests.support.llm_server import ScriptedModel
from tests.support.slack_api import FakeSlackAPI
from tests.support.slack_harness import CHANNEL, BotHarness, new_ts

ALICE, BOB, CAROL = "U0ALICE", "U0BOB", "U0CAROL"
CONFERENCE = "Team conference in Chengdu, May 12-14. Who is coming?"


def _history(request: dict[str, Any]) -> list[tuple[str, str]]:
    """The user and assistant messages the model was sent, in order."""
    return [
        (str(m["role"]), str(m["content"]))
        for m in request["messages"]
        if m.get("role") in ("user", "assistant")
    ]


def _thread(slack: FakeSlackAPI) -> str:
    """Seed Carol's message in the channel; returns its ts (the thread)."""
    return str(slack.add_message(CHANNEL, CONFERENCE, user=CAROL, ts=new_ts())["ts"])


def _reply(slack: FakeSlackAPI, thread_ts: str, text: str, user: str, **extra: Any) -> str:
    return str(
        slack.add_message(CHANNEL, text, user=user, ts=new_ts(), thread_ts=thread_ts, **extra)["ts"]
    )


def test_the_model_sees_what_the_thread_said_before_the_bot_was_mentioned(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    thread = _thread(slack)
    _reply(
        slack, thread, "I'm in, arriving the evening before &amp; staying near the venue.", ALICE
    )
    _reply(slack, thread, "Noted, happy to help.", slack.bot_user_id, bot_id=slack.bot_id)
    _reply(slack, thread, "Cheap fares to CTU!", "U0ADBOT", bot_id="B0ADS", subtype="bot_message")
    _reply(slack, thread, "<@U0DAVE> has joined the channel", "U0DAVE", subtype="channel_join")
    mention_ts = _reply(slack, thread, f"<@{slack.bot_user_id}> plan this for me", BOB)
    _reply(slack, thread, "Posted while the bot was thinking", CAROL)
    scripted_model.script("Here is a plan for Chengdu.", "Same hotel, booked for you too.")

    sent = bot.mention(BOB, "plan this for me", thread_ts=thread, ts=mention_ts)

    assert bot.reply_text(sent) == "Here is a plan for Chengdu."
    assert _history(scripted_model.requests[0]) == [
        ("user", f"<@{CAROL}>: {CONFERENCE}"),
        ("user", f"<@{ALICE}>: I'm in, arriving the evening before & staying near the venue."),
        ("assistant", "Noted, happy to help."),
        ("user", "plan this for me"),
    ]
    [call] = slack.calls_to("conversations.replies")
    assert (call.args["channel"], call.args["ts"]) == (CHANNEL, thread)

    # The bot is now part of the thread: a follow-up reads its history from Redis.
    follow_up = bot.mention(ALICE, "book me the same hotel", thread_ts=thread)
    assert bot.answers(follow_up, count=2)[-1]["text"] == "Same hotel, booked for you too."
    assert _history(scripted_model.requests[1]) == [
        ("user", f"<@{CAROL}>: {CONFERENCE}"),
        ("user", "I'm in, arriving the evening before & staying near the venue."),
        ("assistant", "Noted, happy to help."),
        ("user", f"<@{BOB}>: plan this for me"),
        ("assistant", "Here is a plan for Chengdu."),
        ("user", "book me the same hotel"),
    ]
    assert len(slack.calls_to("conversations.replies")) == 1


def test_a_long_thread_is_cut_to_its_opening_and_latest_messages(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    bot = make_bot(thread_history_turns=4, slack_max_message_chars=150)
    thread = str(slack.add_message(CHANNEL, "Chengdu " * 100, user=CAROL, ts=new_ts())["ts"])
    for n in range(6):
        _reply(slack, thread, f"reply {n}", ALICE)

    sent = bot.mention(BOB, "what do we know so far?", thread_ts=thread)

    bot.answers(sent)
    history = _history(scripted_model.requests[0])
    # Two turns of four are left for this message and its answer.
    assert history == [
        ("user", f"<@{CAROL}>: " + ("Chengdu " * 100)[:150]),
        ("user", f"<@{ALICE}>: reply 5"),
        ("user", "what do we know so far?"),
    ]


def _refuse(slack: FakeSlackAPI) -> None:
    slack.fail("conversations.replies", "missing_scope")


def _rate_limit(slack: FakeSlackAPI) -> None:
    slack.rate_limit("conversations.replies", retry_after=30)


@pytest.mark.parametrize("trouble", [_refuse, _rate_limit], ids=["missing_scope", "429"])
def test_slack_refusing_the_thread_still_gets_a_normal_answer(
    bot: BotHarness,
    scripted_model: ScriptedModel,
    slack: FakeSlackAPI,
    caplog: pytest.LogCaptureFixture,
    trouble: Callable[[FakeSlackAPI], None],
) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    thread = _thread(slack)
    trouble(slack)
    scripted_model.script("Here is a plan for Chengdu.")

    sent = bot.mention(BOB, "plan this for me", thread_ts=thread)

    assert bot.reply_text(sent) == "Here is a plan for Chengdu."
    slack.wait_for("conversations.replies")
    assert _history(scripted_model.requests[0]) == [("user", "plan this for me")]
    assert "conversations.replies" in caplog.text
    assert CONFERENCE not in caplog.text


def test_a_top_level_mention_does_not_read_the_channel(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    _thread(slack)
    scripted_model.script("Chengdu in May is lovely.")

    sent = bot.mention(BOB, "plan a trip to Chengdu")

    assert bot.reply_text(sent) == "Chengdu in May is lovely."
    assert _history(scripted_model.requests[0]) == [("user", "plan a trip to Chengdu")]
    assert slack.calls_to("conversations.replies") == []
