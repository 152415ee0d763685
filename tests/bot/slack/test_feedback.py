"""The feedback buttons under every answer: counted in /metrics, logged with the turn id
(never the text), and a thumbs-down asks what was wrong."""

from __future__ import annotations

import json
import logging
import time
import uuid
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest

from bot.messages import t
from tests.support.llm_server import ScriptedModel
from tests.support.slack_api import FakeSlackAPI
from tests.support.slack_harness import API_APP_ID, METRICS_AUTH, BotHarness, Sent

ALICE = "U0ALICE"
SECRET_ANSWER = "Take the 08:05 flight; swordfish is the lounge's wifi."


def _click(
    bot: BotHarness, sent: Sent, message: dict[str, Any], action: dict[str, Any]
) -> httpx.Response:
    payload = {
        "type": "block_actions",
        "team": {"id": bot.team_id, "domain": "travel-test"},
        "user": {"id": ALICE, "team_id": bot.team_id, "username": "alice"},
        "api_app_id": API_APP_ID,
        "token": "legacy-verification-token",
        "trigger_id": f"{uuid.uuid4().int % 10**10}.{uuid.uuid4().hex[:12]}",
        "container": {
            "type": "message",
            "message_ts": message["ts"],
            "channel_id": sent.channel,
            "thread_ts": sent.thread_ts,
        },
        "channel": {"id": sent.channel, "name": "directmessage"},
        "message": message,
        "response_url": bot.slack.response_url(),
        "actions": [{**action, "action_ts": f"{time.time():.6f}"}],
    }
    body = urlencode({"payload": json.dumps(payload)}).encode()
    return bot.post(body, "application/x-www-form-urlencoded")


def _thumb(message: dict[str, Any], which: str) -> dict[str, Any]:
    [block] = [b for b in message["blocks"] if b["type"] == "context_actions"]
    [buttons] = block["elements"]
    button = buttons[f"{which}_button"]
    return {
        "type": "feedback_buttons",
        "action_id": buttons["action_id"],
        "block_id": block["block_id"],
        "value": button["value"],
        "text": button["text"],
    }


def _metric(bot: BotHarness, line: str) -> bool:
    return line in bot.http.get("/metrics", headers=METRICS_AUTH).text.splitlines()


def test_a_thumbs_up_is_counted_and_logged_with_the_turn_never_the_text(
    bot: BotHarness,
    scripted_model: ScriptedModel,
    slack: FakeSlackAPI,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    scripted_model.script(SECRET_ANSWER)
    sent = bot.dm(ALICE, "which flight, and the lounge wifi?")
    [answer] = bot.answers(sent)
    up = _thumb(answer, "positive")
    assert _click(bot, sent, answer, up).status_code == 200
    deadline = time.monotonic() + 10
    while not _metric(bot, 'slack_feedback_total{verdict="good"} 1'):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    bot.drain()
    logged = [r.getMessage() for r in caplog.records if r.name.startswith("bot.")]
    [feedback] = [line for line in logged if line.startswith("feedback ")]
    turn_id = up["value"].split("|")[-1]
    assert feedback == f"feedback turn={turn_id} verdict=good"
    assert any(line.startswith(f"turn {turn_id} slack outcome=ok") for line in logged)
    assert not any("swordfish" in line for line in logged)
    assert slack.calls_to("chat.postEphemeral") == []  # a thumbs-up needs no answer


def test_a_thumbs_down_asks_what_was_wrong_privately(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    slack.add_user(ALICE, locale="zh-CN")
    scripted_model.script("这是你的成都行程。")
    sent = bot.dm(ALICE, "帮我规划去成都的行程")
    [answer] = bot.answers(sent)
    down = _thumb(answer, "negative")
    assert _click(bot, sent, answer, down).status_code == 200

    [asked] = slack.wait_for("chat.postEphemeral", ok=True, timeout=10)
    assert (asked.args["user"], asked.args["thread_ts"]) == (ALICE, sent.thread_ts)
    assert asked.args["text"] == t("feedback_ask", "zh")
    [reasons] = [b for b in asked.args["blocks"] if b["type"] == "actions"]
    labels = [button["text"]["text"] for button in reasons["elements"]]
    assert labels[0] == t("feedback_reason_preferences", "zh") and len(labels) == 4

    reason = reasons["elements"][0]
    clicked = {k: reason[k] for k in ("action_id", "value")} | {"type": "button"}
    assert _click(bot, sent, answer, clicked).status_code == 200
    [thanks] = slack.wait_for("response_url", timeout=10)
    assert thanks.args["replace_original"] is True
    assert thanks.args["text"] == t("feedback_tell_more", "zh")
    assert _metric(bot, 'slack_feedback_total{verdict="bad"} 1')
    assert _metric(bot, 'slack_feedback_reasons_total{reason="preferences"} 1')


def test_a_forged_feedback_value_counts_nothing(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    scripted_model.script("Here you go.")
    sent = bot.dm(ALICE, "hi")
    [answer] = bot.answers(sent)
    forged = _thumb(answer, "negative") | {"value": "bad|en|<script>"}
    assert _click(bot, sent, answer, forged).status_code == 200
    bot.drain()
    assert "slack_feedback_total" not in bot.http.get("/metrics", headers=METRICS_AUTH).text
    assert slack.calls_to("chat.postEphemeral") == []
