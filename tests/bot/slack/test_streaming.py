"""Answers streamed into Slack as the model writes them, and posted once where they cannot be.

The real Bolt app behind the real HTTP server, signed events in; the scripted model
streams at a set token rate; the fake Slack Web API plays chat streaming and its errors.
Each test asserts what the person sees in the thread: the answer once, whole.
"""

from __future__ import annotations

import time
from typing import Any

from bot.messages import t
from bot.slack.streaming import MESSAGE_LIMIT, ready, safe_markdown
from tests.bot.conftest import BotFactory
from tests.support.llm_server import Reply, ScriptedModel, tokens
from tests.support.slack_api import Call, FakeSlackAPI
from tests.support.slack_harness import CHANNEL, BotHarness, Sent

ALICE = "U0ALICE"
ANSWER = (
    "Here is your **Chengdu** plan: the 08:05 flight from Hongqiao, a quiet room near "
    "Chunxi Road, and the 18:30 train back on Friday. I skipped the red-eye, as you asked."
)
STREAM_METHODS = ("chat.startStream", "chat.appendStream", "chat.stopStream")


def _stream_calls(slack: FakeSlackAPI) -> list[Call]:
    return [c for c in slack.calls if c.method in STREAM_METHODS]


def _shown_once(bot: BotHarness, sent: Sent) -> dict[str, Any]:
    """The one message the person sees in the thread, once everything is done."""
    bot.answers(sent)
    bot.drain()
    [message] = bot.slack.shown(sent.channel, sent.thread_ts)
    return message


def test_an_answer_appears_while_the_model_writes_it_and_ends_with_feedback(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    scripted_model.tokens_per_second = 25  # about 1.5 s for the whole answer
    scripted_model.script(ANSWER)
    sent = bot.dm(ALICE, "plan my trip to Chengdu")
    message = _shown_once(bot, sent)

    assert message["text"] == ANSWER  # Markdown: Slack renders the stream's Markdown
    assert message["thread_ts"] == sent.ts
    calls = _stream_calls(slack)
    assert calls[0].method == "chat.startStream" and calls[-1].method == "chat.stopStream"
    assert {c.method for c in calls[1:-1]} <= {"chat.appendStream"}
    assert all(c.ok for c in calls)
    # The answer was visible long before the model finished writing it.
    [timing] = scripted_model.timings
    assert calls[0].at < timing.done_at - 0.5
    assert calls[0].args["markdown_text"] == tokens(ANSWER)[0]
    # Throttled: a few appends, not one per token.
    assert 1 <= len(calls) - 2 < len(tokens(ANSWER)) // 3
    [feedback] = message["blocks"]
    assert feedback["type"] == "context_actions"
    assert slack.calls_to("chat.postMessage") == []
    slack.wait_for("reactions.remove")  # the progress reaction went away


def test_a_mention_in_a_channel_streams_to_the_person_who_asked(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    scripted_model.script("Happy to help with the offsite.")
    sent = bot.mention(ALICE, "can you help plan the offsite?")
    assert _shown_once(bot, sent)["text"] == "Happy to help with the offsite."
    started = slack.calls_to("chat.startStream")[0].args
    assert (started["channel"], started["thread_ts"]) == (CHANNEL, sent.ts)
    assert (started["recipient_team_id"], started["recipient_user_id"]) == (bot.team_id, ALICE)


def test_where_streaming_is_not_available_the_answer_is_posted_once(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    slack.forget("chat.startStream")  # e.g. a workspace or plan without it
    scripted_model.script(ANSWER, "Second answer.")
    sent = bot.dm(ALICE, "plan my trip to Chengdu")
    [message] = bot.answers(sent)
    assert "*Chengdu*" in message["text"] and "**" not in message["text"]  # mrkdwn
    assert [b["type"] for b in message["blocks"]] == ["section", "context_actions"]

    # The workspace is remembered: the next answer does not try again.
    again = bot.dm(ALICE, "and the hotel?")
    assert bot.reply_text(again) == "Second answer."
    bot.drain()
    assert len(slack.calls_to("chat.startStream")) == 1
    assert len(slack.shown(sent.channel, sent.thread_ts)) == 1


def test_a_stream_that_breaks_halfway_is_replaced_by_the_whole_answer(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    scripted_model.tokens_per_second = 25
    scripted_model.script(ANSWER)
    slack.fail("chat.appendStream", "streaming_state_conflict")
    sent = bot.dm(ALICE, "plan my trip to Chengdu")
    message = _shown_once(bot, sent)
    assert message["text"].startswith("Here is your *Chengdu* plan")
    assert message["text"].endswith("I skipped the red-eye, as you asked.")
    [deleted] = slack.calls_to("chat.delete")
    assert deleted.args["ts"] == slack.calls_to("chat.startStream")[0].answer["body"]["ts"]
    assert [c.method for c in _stream_calls(slack)] == ["chat.startStream", "chat.appendStream"]


def test_when_the_broken_stream_cannot_be_taken_back_only_the_rest_is_posted(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    scripted_model.tokens_per_second = 25
    scripted_model.script(ANSWER)
    slack.expire_streams(0.5)  # the stream ends halfway, as Slack's do after five minutes
    slack.fail("chat.delete", "cant_delete_message")
    sent = bot.dm(ALICE, "plan my trip to Chengdu")
    bot.answers(sent, count=2)
    bot.drain()
    shown = slack.shown(sent.channel, sent.thread_ts)
    assert len(shown) == 2  # the stream as far as it got, then the rest
    together = " ".join(m["text"] for m in shown)
    for phrase in ("Here is your", "08:05 flight", "quiet room", "as you asked."):
        assert together.count(phrase) == 1, phrase


def test_a_rate_limited_append_only_delays_the_text(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    scripted_model.tokens_per_second = 25
    scripted_model.script(ANSWER)
    slack.rate_limit("chat.appendStream", times=1, retry_after=0.5)
    sent = bot.dm(ALICE, "plan my trip to Chengdu")
    assert _shown_once(bot, sent)["text"] == ANSWER
    assert slack.calls_to("chat.delete") == [] and slack.calls_to("chat.postMessage") == []


def test_when_the_person_presses_stop_nothing_more_is_sent(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    scripted_model.tokens_per_second = 20
    scripted_model.script(ANSWER)
    sent = bot.dm(ALICE, "plan my trip to Chengdu")
    [started] = slack.wait_for("chat.startStream", ok=True, timeout=10)
    slack.stop_stream_by_user(str(started.answer["body"]["ts"]))
    bot.answers(sent)
    bot.drain()
    [message] = slack.shown(sent.channel, sent.thread_ts)
    assert ANSWER.startswith(message["text"]) and message["text"] != ANSWER
    assert slack.calls_to("chat.postMessage") == [] and slack.calls_to("chat.delete") == []


def test_a_model_failing_halfway_ends_the_shown_answer_with_the_reason(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    scripted_model.script(Reply("Your plan: first take the", cut_after=4))
    sent = bot.dm(ALICE, "plan my trip to Chengdu")
    message = _shown_once(bot, sent)
    assert message["text"] == "Your plan: first\n\n" + t("llm_unavailable", "en")
    assert slack.calls_to("chat.postMessage") == []


def test_the_answer_before_and_after_a_tool_call_is_one_message(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    scripted_model.script(
        Reply("Let me check what you like.", [("retrieve_from_memory", {"keywords": ["trip"]})]),
        "Nothing saved yet: tell me how you like to travel.",
    )
    sent = bot.dm(ALICE, "plan my trip")
    message = _shown_once(bot, sent)
    assert message["text"] == (
        "Let me check what you like.\n\nNothing saved yet: tell me how you like to travel."
    )


def test_streaming_can_be_turned_off(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    bot = make_bot(slack_streaming=False)
    scripted_model.script("Posted, not streamed.")
    started = time.monotonic()
    sent = bot.dm(ALICE, "hi")
    assert bot.reply_text(sent) == "Posted, not streamed."
    assert time.monotonic() - started < 15
    assert _stream_calls(slack) == []


def test_streamed_text_can_ping_nobody_even_when_markup_arrives_in_pieces() -> None:
    assert safe_markdown("Hi <!channel> and <!subteam^S1|@travel>") == "Hi @channel and @travel"
    assert safe_markdown("see [the list](!here) or [docs](https://x.org)") == (
        "see the list (!here) or [docs](https://x.org)"
    )
    assert safe_markdown("ask <@U0BOB> in <#C0TRIPS|trips>") == "ask <@U0BOB> in <#C0TRIPS|trips>"
    # What is sent now stops before markup that is not closed yet.
    for text, sendable in [
        ("Ping <!chan", "Ping "),
        ("See [the list](!cha", "See "),
        ("See [the list]", "See "),
        ("See [the list] now", "See [the list] now"),
        ("Done <@U0BOB> ok", "Done <@U0BOB> ok"),
        ("a < b, always", "a < b, always"),
        ("a <b", "a "),
    ]:
        assert text[: ready(text)] == sendable, text
    long_open = "x <" + "y" * 400
    assert ready(long_open) == len(long_open)  # never held back for ever


def test_an_answer_longer_than_a_message_goes_on_in_new_streamed_messages_in_order(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    days = [
        f"**Day {day}**: "
        + " ".join(f"meeting {day}.{n} near the hotel, then a walk;" for n in range(20))
        for day in range(1, 31)
    ]
    answer = "\n\n".join(days)
    assert len(answer) > 2 * MESSAGE_LIMIT
    scripted_model.script(answer)
    sent = bot.dm(ALICE, "a month of meetings in Chengdu, day by day")
    bot.answers(sent, count=3)
    bot.drain()
    shown = slack.shown(sent.channel, sent.thread_ts)
    assert len(shown) >= 3 and all(len(m["text"]) <= MESSAGE_LIMIT for m in shown)
    words = " ".join(m["text"] for m in shown).split()
    assert words == answer.split()  # the whole answer, once, in order (cut between words)
    starts = slack.calls_to("chat.startStream")
    assert len(starts) == len(shown) and all(c.ok for c in starts)
    assert all(c.args.get("markdown_text") for c in starts)  # every message starts with text
    assert slack.calls_to("chat.postMessage") == [] and slack.calls_to("chat.delete") == []
    assert shown[-1]["blocks"][0]["type"] == "context_actions"  # feedback under the end
