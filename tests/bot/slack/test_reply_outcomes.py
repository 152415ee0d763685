"""Replies in a conversation that Slack will not post, under the Web API's one rate-limit
policy (`bot.slack.api.patiently`): a 429's `Retry-After` is waited out within a patience,
a wait longer than what is left is not, and a `Retry-After: 0` answered forever ends. What
Slack refused is told to the writer only, in their language, once, and never posted twice.
The real Bolt app behind the real server; Slack is the fake Web API with its documented
error answers."""

from __future__ import annotations

import itertools
import time

import pytest

from bot.flows.messengers import Sent
from bot.messages import t
from bot.slack.answers import post
from bot.slack.api import MAX_ATTEMPTS, web_client
from tests.bot.conftest import BotFactory
from tests.bot.slack.test_command_answers import _shown
from tests.bot.slack.test_plans import plan_call
from tests.support.llm_server import Fail, ScriptedModel
from tests.support.slack_api import FakeSlackAPI
from tests.support.slack_harness import BOT_TOKEN, CHANNEL, BotHarness

ALICE = "U0ALICE"


def _lost(bot: BotHarness, reason: str) -> float:
    return bot.core.metrics.value("slack_reply_undelivered_total", reason=reason)


def _posts_in(slack: FakeSlackAPI, channel: str) -> int:
    return len([c for c in slack.calls_to("chat.postMessage") if c.args.get("channel") == channel])


@pytest.mark.parametrize("error", ["not_in_channel", "channel_not_found", "is_archived"])
def test_an_answer_slack_will_not_post_in_the_channel_is_explained_to_the_writer_only(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI, error: str
) -> None:
    bot = make_bot(slack_streaming=False)
    scripted_model.script("Three hotels near the Bund: ...")
    slack.fail("chat.postMessage", error)
    bot.mention(ALICE, "hotels near the Bund?")
    slack.wait_for("chat.postEphemeral", ok=True)
    assert _shown(slack, ALICE) == [t("slack_reply_unreachable", "en", code=error)]
    [ephemeral] = slack.calls_to("chat.postEphemeral")
    assert ephemeral.args["channel"] == CHANNEL
    assert _posts_in(slack, CHANNEL) == 1  # refused once, not tried again
    assert _lost(bot, "unreachable") == 1


def test_an_answer_still_rate_limited_after_the_waits_is_told_in_chinese(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    bot = make_bot(slack_streaming=False)
    scripted_model.script("外滩附近有三家酒店：……")
    slack.rate_limit("chat.postMessage", times=MAX_ATTEMPTS, retry_after=1)
    sent = bot.dm(ALICE, "外滩附近有什么酒店？")
    slack.wait_for("chat.postEphemeral", ok=True, timeout=20)
    attempts = [c for c in slack.calls_to("chat.postMessage") if c.args["channel"] == sent.channel]
    assert len(attempts) == MAX_ATTEMPTS
    assert all(b.at - a.at >= 0.9 for a, b in itertools.pairwise(attempts))
    assert _shown(slack, ALICE) == [t("slack_reply_busy", "zh")]
    assert _lost(bot, "busy") == 1


def test_a_kind_reply_slack_refuses_reaches_the_writer_by_direct_message(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    scripted_model.script(Fail(400))  # the model refuses: the kind "tell your admin" reply
    slack.fail("chat.postMessage", "not_in_channel")
    slack.fail("chat.postEphemeral", "not_in_channel")
    bot.mention(ALICE, "any trains to Hangzhou tonight?")
    slack.wait_for("chat.postMessage", ok=True, where=lambda c: c.args["channel"] == ALICE)
    assert _shown(slack, ALICE) == [t("slack_reply_unreachable", "en", code="not_in_channel")]
    assert _posts_in(slack, CHANNEL) == 1


def test_a_plan_under_a_lost_answer_adds_no_second_notice(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    bot = make_bot(slack_streaming=False)
    scripted_model.script(plan_call(), "Your Chengdu plan: a morning flight.")
    slack.fail("chat.postMessage", "not_in_channel", times=3)
    bot.mention(ALICE, "plan my trip from Shanghai to Chengdu")
    slack.wait_for("chat.postEphemeral", ok=True, timeout=20)
    time.sleep(0.5)  # a plan message, had it been tried, would have followed by now
    assert _shown(slack, ALICE) == [t("slack_reply_unreachable", "en", code="not_in_channel")]
    assert _posts_in(slack, CHANNEL) == 1  # neither the answer again nor the plan


def test_a_rate_limit_longer_than_the_patience_is_not_waited(slack: FakeSlackAPI) -> None:
    client = web_client(token=BOT_TOKEN, base_url=slack.base_url)
    slack.rate_limit("chat.postMessage", times=1, retry_after=20)
    started = time.monotonic()
    tried = post(client, "C0TRIPS", "Your Chengdu plan", patience=5)
    assert time.monotonic() - started < 2
    assert (tried.sent, tried.error) == (Sent.NOT_DELIVERED, "ratelimited")
    assert len(slack.calls_to("chat.postMessage")) == 1


def test_a_retry_after_of_zero_answered_forever_ends(slack: FakeSlackAPI) -> None:
    client = web_client(token=BOT_TOKEN, base_url=slack.base_url)
    slack.rate_limit("chat.postMessage", times=1000, retry_after=0)
    tried = post(client, "C0TRIPS", "Your Chengdu plan")
    assert (tried.sent, tried.error) == (Sent.NOT_DELIVERED, "ratelimited")
    assert len(slack.calls_to("chat.postMessage")) == MAX_ATTEMPTS


def test_a_rate_limit_within_the_patience_is_waited_out_and_posted_once(
    slack: FakeSlackAPI,
) -> None:
    client = web_client(token=BOT_TOKEN, base_url=slack.base_url)
    slack.rate_limit("chat.postMessage", times=2, retry_after=1)
    tried = post(client, "C0TRIPS", "Your Chengdu plan", patience=5)
    assert tried.sent == Sent.DELIVERED
    assert [m["text"] for m in slack.posted("C0TRIPS")] == ["Your Chengdu plan"]
    first, *_, last = slack.calls_to("chat.postMessage")
    assert last.at - first.at >= 1.9
