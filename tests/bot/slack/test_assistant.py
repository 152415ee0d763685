"""Slack's assistant pane end to end: the greeting, the status while the agent works, the
thread's title and the channel open beside it; with Redis and without it (Redis only
remembers, the event says which threads are the pane's), one status call per step."""

from __future__ import annotations

import time
from datetime import date, timedelta
from typing import Any

from bot.messages import t
from bot.slack.assistant import AssistantThreads
from tests.bot.conftest import BotFactory
from tests.support.llm_server import ScriptedModel
from tests.support.slack_api import FakeSlackAPI
from tests.support.slack_harness import BotHarness, Sent

ALICE = "U0ALICE"
DEPART = (date.today() + timedelta(days=30)).isoformat()


def _retrieve() -> list[Any]:
    return [("retrieve_from_memory", {"keywords": ["trip"]})]


def _prompts(slack: FakeSlackAPI) -> list[str]:
    [call] = slack.wait_for("assistant.threads.setSuggestedPrompts", ok=True)
    return [prompt["title"] for prompt in call.args["prompts"]]


def _context(bot: BotHarness, thread: Sent, channel: str) -> None:
    """Wait until the thread's context names `channel` (the event is handled on its own)."""
    threads = AssistantThreads(client=bot.core.redis, key_prefix=bot.settings.redis_key_prefix)
    deadline = time.monotonic() + 10
    while (threads.context(bot.team_id, thread.channel, thread.ts) or {}).get(
        "channel_id"
    ) != channel:
        assert time.monotonic() < deadline, "the thread's context never arrived"
        time.sleep(0.02)


def test_a_new_thread_is_greeted_with_prompts_in_the_persons_language(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    slack.add_user(ALICE, locale="zh-CN")
    thread = bot.assistant_thread(ALICE)
    [greeting] = bot.answers(thread)
    assert greeting["text"] == t("assistant_greeting", "zh")
    assert _prompts(slack) == ["规划我的下一次出差", "你记得我哪些出行偏好？", "出差只坐高铁一等座"]

    # Slack delivers the event again: nobody is greeted twice.
    bot.assistant_thread(ALICE, thread_ts=thread.ts, event_id=thread.event_id)
    bot.drain()
    assert len(slack.calls_to("chat.postMessage")) == 1


def test_the_prompts_speak_english_to_an_english_speaker(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    thread = bot.assistant_thread("U0BOB")
    bot.answers(thread)
    assert _prompts(slack) == [
        "Plan my next trip",
        "What do you remember about me?",
        "I never take red-eye flights",
    ]
    [call] = slack.calls_to("assistant.threads.setSuggestedPrompts")
    assert call.args["thread_ts"] == thread.ts


def test_the_status_says_what_the_agent_does_and_the_thread_gets_a_title(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    thread = bot.assistant_thread(ALICE)
    bot.answers(thread)
    scripted_model.script(_retrieve(), "Nothing remembered yet: where to?")
    sent = bot.dm(ALICE, "What do you remember about me?", thread_ts=thread.ts)
    answer = bot.answers(sent, count=2)[-1]
    assert answer["text"] == "Nothing remembered yet: where to?"

    scripted_model.script("Chengdu it is.")
    follow_up = bot.dm(ALICE, "Then Chengdu, next month", thread_ts=thread.ts)
    bot.answers(follow_up, count=3)
    bot.drain()
    statuses = slack.statuses(thread.channel, thread.ts)
    # One call per step; none to clear: the answer's message removes the status.
    assert statuses == [t("working", "en"), t("status_recalling", "en"), t("working", "en")]
    assert slack.status_of(thread.channel, thread.ts) == ""
    assert slack.calls_to("reactions.add") == []  # the status replaces the reaction here
    [title] = slack.calls_to("assistant.threads.setTitle")  # once, after the first question
    assert title.args["title"] == "What do you remember about me?"
    assert title.args["thread_ts"] == thread.ts


def test_statuses_follow_the_persons_language(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    thread = bot.assistant_thread(ALICE)
    bot.answers(thread)
    scripted_model.script(
        [("record_to_memory", {"thinking": "偏好", "content": ["出差只坐高铁一等座"]})],
        "记住了。",
    )
    sent = bot.dm(ALICE, "出差只坐高铁一等座", thread_ts=thread.ts)
    bot.answers(sent, count=2)
    bot.drain()
    statuses = slack.statuses(thread.channel, thread.ts)
    assert statuses[:2] == ["正在处理…", "正在记下你的出行偏好…"]


def test_the_channel_open_beside_the_pane_is_known_to_the_agent(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    thread = bot.assistant_thread(ALICE, viewing="C0LOBBY")
    bot.answers(thread)
    bot.assistant_thread(ALICE, viewing="C0OFFSITE", changed=True, thread_ts=thread.ts)
    _context(bot, thread, "C0OFFSITE")
    scripted_model.script("Let's plan the offsite.")
    sent = bot.dm(ALICE, "plan a trip for this channel's offsite", thread_ts=thread.ts)
    bot.answers(sent, count=2)
    system = scripted_model.last_request["messages"][0]["content"]
    assert "<#C0OFFSITE|c0offsite>" in system and "C0LOBBY" not in system

    # An ordinary DM thread knows of no channel.
    scripted_model.script("Sure.")
    plain = bot.dm(ALICE, "plan a trip for this channel's offsite")
    bot.answers(plain)
    assert "Slack channel" not in scripted_model.last_request["messages"][0]["content"]


def test_a_plan_titles_the_thread_with_its_route(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    thread = bot.assistant_thread(ALICE)
    bot.answers(thread)
    args = {"origin": "Shanghai", "destination": "Chengdu", "depart_date": DEPART}
    scripted_model.script([("plan_itinerary", args)], "Your Chengdu plan.")
    sent = bot.dm(ALICE, "Plan my next trip", thread_ts=thread.ts)
    bot.answers(sent, count=3)  # the greeting, the answer, the plan
    bot.drain()
    [title] = slack.calls_to("assistant.threads.setTitle")
    assert title.args["title"] == f"Trip: Shanghai → Chengdu, {DEPART}"


def test_a_planning_turn_sets_each_status_once_and_never_clears_one_a_reply_cleared(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    thread = bot.assistant_thread(ALICE)
    bot.answers(thread)
    args = {"origin": "Shanghai", "destination": "Chengdu", "depart_date": DEPART}
    scripted_model.script(_retrieve(), [("plan_itinerary", args)], "Your Chengdu plan.")
    sent = bot.dm(ALICE, "Plan my next trip", thread_ts=thread.ts)
    bot.answers(sent, count=3)
    bot.drain()
    statuses = slack.statuses(thread.channel, thread.ts)
    assert statuses[:3] == [
        t("working", "en"),
        t("status_recalling", "en"),
        t("status_planning", "en"),
    ]
    assert len(statuses) == 4 and statuses[3].startswith("Scoring ")  # was 5, with a clear
    assert "" not in statuses and len(set(statuses)) == len(statuses)
    assert slack.status_of(thread.channel, thread.ts) == ""  # the answer removed it
    assert slack.calls_to("reactions.add") == []


def test_without_redis_an_assistant_thread_gets_its_status_title_and_context(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    bot = make_bot(redis_url="")
    assert bot.core.redis is None
    thread = bot.assistant_thread(ALICE, viewing="C0OFFSITE")
    bot.answers(thread)
    scripted_model.script(_retrieve(), "Let's plan the offsite.")
    sent = bot.dm(ALICE, "plan a trip for this channel's offsite", thread_ts=thread.ts)
    bot.answers(sent, count=2)
    bot.drain()
    statuses = slack.statuses(thread.channel, thread.ts)
    assert statuses == [t("working", "en"), t("status_recalling", "en")]
    assert slack.status_of(thread.channel, thread.ts) == ""
    assert slack.calls_to("reactions.add") == []  # the status, not the reaction
    [title] = slack.calls_to("assistant.threads.setTitle")
    assert title.args["title"] == "plan a trip for this channel's offsite"
    system = scripted_model.last_request["messages"][0]["content"]
    assert "<#C0OFFSITE|c0offsite>" in system  # the channel beside the pane, kept in-process


def test_where_slack_refuses_a_status_the_reaction_shows_progress_instead(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    sent = bot.dm(ALICE, "hello")  # a direct message outside the pane
    scripted_model.script("Hi!", "Sure.")
    bot.answers(sent)
    slack.fail("assistant.threads.setStatus", "not_allowed", times=10)  # no pane in this app
    follow_up = bot.dm(ALICE, "and a follow-up in the thread", thread_ts=sent.ts)
    bot.answers(follow_up, count=2)
    bot.drain()
    [refused] = slack.calls_to("assistant.threads.setStatus")  # tried once, never again
    assert not refused.ok
    slack.wait_for("reactions.add", ok=True)
    slack.wait_for("reactions.remove", ok=True)
    assert slack.reactions(follow_up.channel, follow_up.ts) == set()
