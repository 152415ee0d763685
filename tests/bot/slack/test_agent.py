"""Slack's Agent messaging experience and the work shown with the answer, end to end.

The real Bolt app behind the real HTTP server, signed events in, the scripted model
answering, the fake Slack Web API playing agent sessions and chat streaming with the
chunk shapes Slack documents. Each test asserts what the person sees: the session's
status and title, the steps in the streamed message, the preferences the answer used,
and a stop button that really stops.
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from bot.messages import t
from tests.support.llm_server import Reply, ScriptedModel
from tests.support.slack_api import Call, FakeSlackAPI
from tests.support.slack_harness import BotHarness, Sent

ALICE = "U0ALICE"
# When a preference was said, in the person's time zone (the fake's users live in LA).
TODAY = datetime.now(ZoneInfo("America/Los_Angeles")).date().isoformat()


def _retrieve() -> Reply:
    return Reply(None, [("retrieve_from_memory", {"keywords": ["flight", "Chengdu"]})])


def _streamed(bot: BotHarness, sent: Sent) -> dict[str, object]:
    bot.answers(sent)
    bot.drain()
    [message] = bot.slack.shown(sent.channel, sent.thread_ts)
    return message


def _session_settled(slack: FakeSlackAPI, sent: Sent, statuses: int = 2) -> list[str]:
    deadline = time.monotonic() + 10
    while len(found := slack.session_statuses(sent.channel, sent.thread_ts)) < statuses:
        assert time.monotonic() < deadline, f"session statuses: {found}"
        time.sleep(0.02)
    return found


def test_a_turn_opens_its_session_processing_then_active_titled_after_the_question(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    scripted_model.script("Chengdu it is.")
    sent = bot.dm(ALICE, "Plan my Chengdu trip next month")
    assert bot.reply_text(sent) == "Chengdu it is."
    assert _session_settled(slack, sent) == ["processing", "active"]
    session = slack.session(sent.channel, sent.thread_ts)
    assert session is not None
    assert session["title"] == "Plan my Chengdu trip next month"
    assert session["initiator"] == ALICE and session["status"] == "active"
    [opened] = [
        c for c in slack.calls_to("agents.sessions.setStatus") if c.args["status"] == "processing"
    ]
    first_stream = slack.calls_to("chat.startStream")[0]
    assert opened.at < first_stream.at  # processing before the answer shows


def test_apps_still_on_the_assistant_pane_keep_working_and_are_asked_once(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    slack.forget("agents.sessions.setStatus")  # not an agent: Slack knows no such session
    scripted_model.script("First answer.", "Second answer.")
    first = bot.dm(ALICE, "hello")
    assert bot.reply_text(first) == "First answer."
    second = bot.dm(ALICE, "and again")
    assert bot.reply_text(second) == "Second answer."
    bot.drain()
    assert len(slack.calls_to("agents.sessions.setStatus")) == 1  # then left alone a while
    assert slack.session(first.channel, first.thread_ts) is None


def test_the_steps_are_tasks_in_the_stream_and_the_preferences_used_the_last_one(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    bot.core.memory.record(bot.namespace(ALICE), ["I never take red-eye flights"])
    scripted_model.script(_retrieve(), "No red-eyes: the 08:05 flight it is.")
    sent = bot.dm(ALICE, "plan my trip to Chengdu")
    message = _streamed(bot, sent)
    assert message["text"] == "No red-eyes: the 08:05 flight it is."
    assert message["plan"] == "How I worked on it"
    tasks = message["tasks"]
    assert isinstance(tasks, dict)
    assert list(tasks.values()) == [
        {"id": "step1", "title": "Recalling your travel preferences", "status": "complete"},
        {
            "id": "prefs_used",
            "title": "Preferences I used (1)",
            "status": "complete",
            "output": f"I never take red-eye flights — said on {TODAY}",
        },
    ]
    # The step showed while the agent worked: it started the stream, before any text.
    first = slack.calls_to("chat.startStream")[0].args
    assert "markdown_text" not in first
    kinds = [chunk["type"] for chunk in first["chunks"]]
    assert kinds == ["plan_update", "task_update"]
    assert first["chunks"][1]["status"] == "in_progress"


def test_the_work_is_said_in_the_persons_language(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    bot.core.memory.record(bot.namespace(ALICE), ["出差只坐高铁一等座"])
    scripted_model.script(_retrieve(), "好的，给你安排高铁一等座。")
    sent = bot.dm(ALICE, "帮我规划下周去成都的行程")
    message = _streamed(bot, sent)
    assert message["plan"] == "我是怎么做的"
    tasks = list(message["tasks"].values())  # type: ignore[attr-defined]
    assert tasks[0]["title"] == "正在回忆你的出行偏好"
    assert tasks[-1]["title"] == "用到的偏好（1条）"
    assert tasks[-1]["output"] == f"出差只坐高铁一等座 — {TODAY} 说的"


def test_where_the_answer_cannot_stream_the_work_is_a_line_under_it(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    slack.forget("chat.startStream")
    bot.core.memory.record(bot.namespace(ALICE), ["I prefer aisle seats"])
    scripted_model.script(_retrieve(), "An aisle seat, as you like.")
    sent = bot.dm(ALICE, "book me a seat to Chengdu")
    [message] = bot.answers(sent)
    assert [b["type"] for b in message["blocks"]] == ["section", "context", "context_actions"]
    line = message["blocks"][1]["elements"][0]["text"]
    assert (
        line == f"Recalling your travel preferences · Used: I prefer aisle seats (said on {TODAY})"
    )


def test_a_task_slack_refuses_never_costs_the_answer(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    """A workspace that takes no task chunks: the answer streams as text alone."""

    def no_chunks(call: Call) -> dict[str, Any]:
        if call.args.get("chunks"):
            return {"ok": False, "error": "invalid_chunks"}
        return slack._m_chat_startStream(call.args)

    slack.handle("chat.startStream", no_chunks)
    scripted_model.script(_retrieve(), "Here it is.")
    sent = bot.dm(ALICE, "plan my trip")
    message = _streamed(bot, sent)
    assert message["text"] == "Here it is." and "tasks" not in message
    refused = [c for c in slack.calls_to("chat.startStream") if c.args.get("chunks")]
    assert len(refused) == 1  # asked once, then text only
    assert slack.calls_to("chat.postMessage") == []


def test_the_stop_button_stops_the_turn_for_real(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    """Stopped while the model writes: its stream ends where it is, nothing it was about
    to save is saved, no answer follows, the thread is told, the session is active."""
    scripted_model.tokens_per_second = 15
    noting = "Noted: you never take red-eye flights, and I will plan around that from now on."
    scripted_model.script(
        Reply(
            noting,
            [
                (
                    "record_to_memory",
                    {"thinking": "a preference", "content": ["I never take red-eye flights"]},
                )
            ],
        ),
        "Saved, and here is your plan.",
    )
    sent = bot.dm(ALICE, "I never take red-eyes; plan Chengdu")
    [started] = slack.wait_for("chat.startStream", ok=True, timeout=10)
    stream_ts = str(started.answer["body"]["ts"])
    slack.stop_stream_by_user(stream_ts)  # Slack stops the streams, then tells the app
    event = {
        "type": "agent_session_stopped",
        "channel": sent.channel,
        "thread_ts": sent.thread_ts,
        "streaming_message_ts": [stream_ts],
        "user": ALICE,
        "event_ts": "1783536983.783769",
    }
    response, _ = bot.event(event)
    assert response.status_code == 200
    shown = bot.answers(sent, count=2)
    bot.drain()
    time.sleep(0.3)
    shown = slack.shown(sent.channel, sent.thread_ts)
    assert len(shown) == 2
    assert noting.startswith(str(shown[0]["text"])) and shown[0]["text"] != noting
    assert shown[1]["text"] == t("turn_stopped", "en")
    assert len(scripted_model.requests) == 1  # the model was not asked again
    assert bot.core.memory.items(bot.namespace(ALICE)) == []  # nothing half-saved
    assert _session_settled(slack, sent)[-1] == "active"
    assert bot.core.metrics.value("slack_replies_total", outcome="stopped") == 1


def test_the_stop_button_on_a_finished_turn_only_moves_the_session(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    scripted_model.script("Done.")
    sent = bot.dm(ALICE, "hello")
    assert bot.reply_text(sent) == "Done."
    _session_settled(slack, sent)
    event = {
        "type": "agent_session_stopped",
        "channel": sent.channel,
        "thread_ts": sent.thread_ts,
        "streaming_message_ts": [],
        "user": ALICE,
        "event_ts": "1783536983.783770",
    }
    bot.event(event)
    bot.event(event)  # a second press (another event): still nothing to stop
    assert _session_settled(slack, sent, statuses=3)[-1] == "active"
    bot.drain()
    assert len(slack.shown(sent.channel, sent.thread_ts)) == 1  # nothing more said


def test_opening_the_messages_tab_greets_once(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    """The Agent messaging experience's `app_home_opened` (tab "messages") takes the
    place of `assistant_thread_started`: a greeting, once, not on every visit."""
    for n in range(3):
        ts = f"1783536983.00000{n}"
        event = {
            "type": "app_home_opened",
            "user": ALICE,
            "channel": "D0ALICE",
            "tab": "messages",
            "event_ts": ts,
        }
        response, _ = bot.event(event)
        assert response.status_code == 200
    [greeting] = slack.wait_for("chat.postMessage", ok=True)
    assert greeting.args["text"] == t("assistant_greeting", "en")
    assert greeting.args["channel"] == "D0ALICE"
    bot.drain()
    time.sleep(0.2)
    assert len(slack.calls_to("chat.postMessage")) == 1
