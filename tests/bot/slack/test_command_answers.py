"""A `/travel-prefs` answer Slack will not show: the person gets the answer another way,
or is told why in their language, and an answer Slack may already show is never posted
twice. The real Bolt app behind the real server, signed slash commands; Slack is the fake
Web API, its `response_url` steered to refuse (its documented plain-text errors) or to
take a POST and reset the connection (a lost answer)."""

from __future__ import annotations

import pytest

from bot.conversation.incoming import IncomingMessage
from bot.flows.pipeline import Incoming
from bot.flows.views import Notice, Outcome
from bot.messages import t
from bot.slack.channel import SlackChannel
from bot.slack.incoming import PLATFORM
from tests.support.slack_api import FakeSlackAPI
from tests.support.slack_harness import CHANNEL, BotHarness
from tests.support.slack_payloads import settle

ALICE = "U0ALICE"
RED_EYE = "I never take red-eye flights"


def _shown(slack: FakeSlackAPI, user: str) -> list[str]:
    """What `user` was shown: ephemeral answers, DMs and ephemeral messages Slack took."""
    calls = [c for c in slack.response_calls if c.ok]
    calls += [
        c
        for c in slack.calls
        if c.ok
        and (
            (c.method == "chat.postMessage" and c.args.get("channel") == user)
            or (c.method == "chat.postEphemeral" and c.args.get("user") == user)
        )
    ]
    return [str(c.args.get("text") or "") for c in sorted(calls, key=lambda c: c.at)]


def _show(bot: BotHarness, slack: FakeSlackAPI) -> list[str]:
    bot.core.memory.record(bot.namespace(ALICE), [RED_EYE])
    bot.command("/travel-prefs", "show", user=ALICE)
    settle(bot)
    return _shown(slack, ALICE)


def _undelivered(bot: BotHarness, reason: str) -> float:
    return bot.core.metrics.value("slack_command_undelivered_total", reason=reason)


@pytest.mark.parametrize("error", ["expired_url", "used_url", "invalid_blocks"])
def test_a_refused_response_url_answers_in_a_direct_message(
    bot: BotHarness, slack: FakeSlackAPI, error: str
) -> None:
    slack.fail("response_url", error)
    [shown] = _show(bot, slack)
    assert RED_EYE in shown
    [dm] = [c for c in slack.calls_to("chat.postMessage") if c.ok]
    assert dm.args["channel"] == ALICE


def test_an_ephemeral_answer_lost_after_slack_took_it_is_not_posted_again(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    slack.take_then_reset("response_url")
    [shown] = _show(bot, slack)
    assert RED_EYE in shown
    assert len(slack.response_calls) == 1 and slack.calls_to("chat.postMessage") == []
    assert _undelivered(bot, "failed") == 0


def test_a_direct_message_lost_after_slack_took_it_is_not_posted_again(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    slack.fail("response_url", "expired_url")
    slack.take_then_reset("chat.postMessage")
    [shown] = _show(bot, slack)
    assert RED_EYE in shown
    assert len(slack.calls_to("chat.postMessage")) == 1
    assert slack.calls_to("chat.postEphemeral") == []


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        ("cannot_dm_bot", "unreachable"),
        ("user_disabled", "unreachable"),
        ("restricted_action", "unreachable"),
        ("channel_not_found", "unreachable"),
        ("ratelimited", "busy"),
        ("msg_too_long", "failed"),
    ],
)
def test_when_no_way_takes_the_answer_the_person_is_told_why(
    bot: BotHarness, slack: FakeSlackAPI, error: str, reason: str
) -> None:
    slack.fail("response_url", "expired_url", times=2)
    slack.fail("chat.postMessage", error)
    [shown] = _show(bot, slack)
    assert shown == t(f"slack_command_{reason}", "en", code=error)
    [ephemeral] = slack.calls_to("chat.postEphemeral")
    assert ephemeral.args["channel"] == CHANNEL
    assert _undelivered(bot, reason) == 1


def test_the_notice_is_in_the_persons_language_where_the_answer_failed(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    slack.add_user(ALICE, locale="zh-CN")
    slack.fail("response_url", "invalid_blocks")  # the answer, not the URL: a notice passes
    slack.fail("chat.postMessage", "msg_too_long")
    [shown] = _show(bot, slack)
    assert shown == t("slack_command_failed", "zh", code="msg_too_long")
    assert slack.calls_to("chat.postEphemeral") == []


def test_when_nothing_can_reach_the_person_it_is_counted(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    slack.fail("response_url", "expired_url", times=2)
    slack.fail("chat.postMessage", "cannot_dm_bot")
    slack.fail("chat.postEphemeral", "not_in_channel")
    assert _show(bot, slack) == []
    assert _undelivered(bot, "unreachable") == 1
    assert len(slack.calls_to("chat.postMessage")) == 1  # an unreachable DM is not tried again


def test_the_channels_own_private_answer_goes_where_they_wrote_else_by_dm(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    """`SlackChannel.show` (the pipeline's edge, for a typed command; Slack's slash
    commands answer above): only to the writer, ephemeral in the conversation they wrote
    in; when Slack refuses that, a direct message."""
    channel = bot.core.messengers.of(bot.namespace(ALICE))
    assert isinstance(channel, SlackChannel)
    msg = IncomingMessage(PLATFORM, bot.team_id, ALICE, CHANNEL, "1.0", "1.0", "hi", "mention")
    help_text = Notice("prefs_help", "zh")
    outcome = Outcome(help_text, text=help_text.text(), private=True)
    channel.show(Incoming(msg, lang="zh"), outcome)
    [ephemeral] = slack.calls_to("chat.postEphemeral")
    assert ephemeral.args["channel"] == CHANNEL and ephemeral.args["user"] == ALICE
    slack.fail("chat.postEphemeral", "not_in_channel")
    channel.show(Incoming(msg, lang="zh"), outcome)
    assert _shown(slack, ALICE) == [help_text.text()] * 2
    [dm] = slack.calls_to("chat.postMessage")
    assert dm.args["channel"] == ALICE
    assert slack.posted(CHANNEL) == []


def test_a_response_url_failing_on_slacks_side_is_not_answered_again_by_dm(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    """A 5xx from the `response_url`: Slack may have shown the answer, so no second copy."""
    slack.fail("response_url", "internal_error")  # the fake answers it with HTTP 500
    _show(bot, slack)
    assert [c.status for c in slack.response_calls] == [500]
    assert slack.calls_to("chat.postMessage") == []
    assert slack.calls_to("chat.postEphemeral") == []
    assert _undelivered(bot, "failed") == 0 and _undelivered(bot, "busy") == 0


def test_a_direct_message_rate_limited_once_is_delivered_after_the_wait(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    slack.fail("response_url", "expired_url")
    slack.rate_limit("chat.postMessage", times=1, retry_after=1)
    [shown] = _show(bot, slack)
    assert RED_EYE in shown
    assert [c.status for c in slack.calls_to("chat.postMessage")] == [429, 200]
    assert _undelivered(bot, "busy") == 0


def test_a_response_url_rate_limited_once_is_answered_there_after_the_wait(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    """The `response_url` waits out one 429 as a direct message does: the answer stays
    ephemeral, not moved to a direct message."""
    slack.rate_limit("response_url", times=1, retry_after=1)
    [shown] = _show(bot, slack)
    assert RED_EYE in shown
    assert [c.status for c in slack.response_calls] == [429, 200]
    assert slack.calls_to("chat.postMessage") == []
