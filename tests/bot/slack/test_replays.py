"""A captured, correctly signed request sent again: Slack's signature has no nonce, so
the bot recognises a replay by its single-use `trigger_id` and does nothing twice."""

from __future__ import annotations

import json
import logging
import time
import uuid
from urllib.parse import urlencode

import pytest

from bot.slack.views import blocks as views
from tests.support.slack_api import FakeSlackAPI
from tests.support.slack_harness import API_APP_ID, CHANNEL, BotHarness, sign
from tests.support.slack_payloads import buttons, click_payload, open_home, published_home

ALICE = "U0ALICE"


def _wait_replays(bot: BotHarness, kind: str, count: int, timeout: float = 10.0) -> float:
    """The replays of `kind` the bot recognised, once `count` were (or time ran out)."""
    deadline = time.monotonic() + timeout
    while True:
        seen = bot.core.metrics.value("slack_events_duplicate_total", type=kind)
        if seen >= count or time.monotonic() > deadline:
            return seen
        time.sleep(0.02)


def _command_body(bot: BotHarness, text: str) -> bytes:
    form = {
        "token": "legacy-verification-token",
        "team_id": bot.team_id,
        "team_domain": bot.slack.team_domain,
        "channel_id": CHANNEL,
        "channel_name": "travel",
        "user_id": ALICE,
        "user_name": "alice",
        "command": "/travel-prefs",
        "text": text,
        "api_app_id": API_APP_ID,
        "response_url": bot.slack.response_url(),
        "trigger_id": f"{uuid.uuid4().int % 10**10}.{uuid.uuid4().hex[:12]}",
    }
    return urlencode(form).encode()


def test_a_replayed_slash_command_is_acknowledged_and_not_handled_again(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    bot.core.memory.record(bot.namespace(ALICE), ["I never take red-eye flights"])
    body = _command_body(bot, "show")
    headers = sign(body)  # captured once, sent twice, exactly as it was
    first = bot.post(body, "application/x-www-form-urlencoded", headers=headers, signed=False)
    assert first.status_code == 200
    [shown] = slack.wait_for("response_url")
    assert "I never take red-eye flights" in str(shown.args["text"])

    replay = bot.post(body, "application/x-www-form-urlencoded", headers=headers, signed=False)
    assert replay.status_code == 200 and replay.content == b""
    assert _wait_replays(bot, "command", 1) == 1

    # A new command (a new trigger) is handled as always.
    bot.command("/travel-prefs", "show", user=ALICE)
    slack.wait_for("response_url", count=2)
    bot.drain()
    assert len(slack.response_calls) == 2


def test_a_replayed_open_form_command_opens_one_form(bot: BotHarness, slack: FakeSlackAPI) -> None:
    body = _command_body(bot, "")
    headers = sign(body)
    for _ in range(3):
        response = bot.post(
            body, "application/x-www-form-urlencoded", headers=headers, signed=False
        )
        assert response.status_code == 200
    slack.wait_for("views.open")
    assert _wait_replays(bot, "command", 2) == 2
    bot.drain()
    assert len(slack.calls_to("views.open")) == 1


def test_a_replayed_forget_confirmation_answers_once(bot: BotHarness, slack: FakeSlackAPI) -> None:
    ns = bot.namespace(ALICE)
    bot.core.memory.record(ns, ["I never take red-eye flights"])
    payload = {
        "type": "block_actions",
        "team": {"id": bot.team_id, "domain": slack.team_domain},
        "user": {"id": ALICE, "team_id": bot.team_id},
        "api_app_id": API_APP_ID,
        "token": "legacy-verification-token",
        "trigger_id": f"{uuid.uuid4().int % 10**10}.{uuid.uuid4().hex[:12]}",
        "response_url": slack.response_url("forget"),
        "container": {"type": "message", "channel_id": CHANNEL, "is_ephemeral": True},
        "channel": {"id": CHANNEL, "name": "travel"},
        "actions": [
            {
                "type": "button",
                "action_id": views.FORGET_ALL_CONFIRM_ACTION_ID,
                "block_id": "forget",
                "value": ALICE,
                "action_ts": str(time.time()),
            }
        ],
    }
    body = urlencode({"payload": json.dumps(payload)}).encode()
    headers = sign(body)
    for _ in range(2):
        response = bot.post(
            body, "application/x-www-form-urlencoded", headers=headers, signed=False
        )
        assert response.status_code == 200
    slack.wait_for("response_url")
    assert _wait_replays(bot, "block_actions", 1) == 1
    bot.drain()
    assert bot.core.memory.items(ns) == []
    assert len(slack.response_calls) == 1


def _replayed(bot: BotHarness, payload: dict[str, object], times: int = 2) -> None:
    """Send one captured, signed click `times` times, byte for byte."""
    body = urlencode({"payload": json.dumps(payload)}).encode()
    headers = sign(body)
    for _ in range(times):
        response = bot.post(
            body, "application/x-www-form-urlencoded", headers=headers, signed=False
        )
        assert response.status_code == 200 and response.content == b""


def test_a_replayed_home_forget_all_erases_nothing_told_since(
    bot: BotHarness, slack: FakeSlackAPI
) -> None:
    ns = bot.namespace(ALICE)
    bot.core.memory.record(ns, ["I never take red-eye flights"])
    open_home(bot, ALICE)
    home = published_home(slack, ALICE)
    [forget_all] = buttons(home, views.FORGET_ALL_ACTION_ID)
    payload = click_payload(bot, ALICE, views.FORGET_ALL_ACTION_ID, forget_all["value"], view=home)
    _replayed(bot, payload, times=1)
    published_home(slack, ALICE, count=2)
    assert bot.core.memory.items(ns) == []

    bot.core.memory.record(ns, ["I like quiet rooms"])  # told since
    _replayed(bot, payload, times=1)  # the same bytes, within Slack's five minutes
    assert _wait_replays(bot, "block_actions", 1) == 1
    bot.drain()
    assert [i.text for i in bot.core.memory.items(ns)] == ["I like quiet rooms"]


def test_a_replayed_home_forget_item_acts_once(bot: BotHarness, slack: FakeSlackAPI) -> None:
    ns = bot.namespace(ALICE)
    bot.core.memory.record(ns, ["I never take red-eye flights", "I like quiet rooms"])
    open_home(bot, ALICE)
    home = published_home(slack, ALICE)
    quiet = next(i for i in bot.core.memory.items(ns) if i.text == "I like quiet rooms")
    payload = click_payload(bot, ALICE, views.FORGET_ITEM_ACTION_ID, quiet.id, view=home)
    _replayed(bot, payload, times=3)
    assert _wait_replays(bot, "block_actions", 2) == 2
    bot.drain()
    assert [i.text for i in bot.core.memory.items(ns)] == ["I never take red-eye flights"]
    assert len(slack.calls_to("views.publish")) == 2  # opened, then refreshed once


def test_a_replayed_home_edit_opens_one_form(bot: BotHarness, slack: FakeSlackAPI) -> None:
    open_home(bot, ALICE)
    home = published_home(slack, ALICE)
    payload = click_payload(bot, ALICE, views.EDIT_ACTION_ID, "edit", view=home)
    _replayed(bot, payload, times=2)
    slack.wait_for("views.open")
    assert _wait_replays(bot, "block_actions", 1) == 1
    bot.drain()
    assert len(slack.calls_to("views.open")) == 1


@pytest.mark.parametrize(
    "raw",
    [b"[" * 1000 + b"]" * 1000, b'{"a":' * 5000 + b"1" + b"}" * 5000],
    ids=["array-1000", "object-5000"],
)
def test_deeply_nested_json_is_a_400_without_a_traceback(
    bot: BotHarness, raw: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    for body, kind in (
        (raw, "application/json"),
        (urlencode({"payload": raw.decode()}).encode(), "application/x-www-form-urlencoded"),
    ):
        response = bot.post(body, kind)  # signed
        assert response.status_code == 400
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
