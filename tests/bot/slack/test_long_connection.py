"""`travel-bot socket` end to end: envelopes over a real websocket in, acks and Slack calls out.

The real `socket_command` runs in a thread: Bolt's built-in Socket Mode client opens the
websocket that the fake Slack Web API hands out from `apps.connections.open`, with real
Redis, the real memory engine on a SQLite file and the scripted model.
"""

from __future__ import annotations

import argparse
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest
import redis

from bot.cli.run import socket_command
from bot.compose.parts import open_trip_store
from bot.messages import t
from bot.settings import Settings
from memory import open_memory
from tests.bot.conftest import SettingsFactory
from tests.support.llm_server import ScriptedModel
from tests.support.slack_api import FakeSlackAPI
from tests.support.slack_harness import API_APP_ID, CHANNEL, dm_channel, new_ts

APP_TOKEN = "xapp-1-A0TRAVEL-1-socket-test"
ALICE = "U0ALICE"


@dataclass(frozen=True)
class SocketBot:
    settings: Settings
    thread: threading.Thread


@pytest.fixture
def socket_bot(make_settings: SettingsFactory, slack: FakeSlackAPI) -> Iterator[SocketBot]:
    """`travel-bot socket` running in a thread, connected to the fake's websocket."""
    slack.app_token = APP_TOKEN
    settings = make_settings(slack_app_token=APP_TOKEN, slack_signing_secret=None)
    before = set(threading.enumerate())
    stop = threading.Event()
    codes: list[int] = []

    def run() -> None:
        codes.append(socket_command(argparse.Namespace(), settings, stop=stop))

    thread = threading.Thread(target=run, name="travel-bot-socket", daemon=True)
    thread.start()
    try:
        slack.socket.wait_connected(timeout=30)
        yield SocketBot(settings, thread)
    finally:
        stop.set()
        thread.join(timeout=15)
    assert not thread.is_alive(), "socket_command did not return after stop"
    assert codes == [0]
    _wait_until(lambda: slack.socket.connections == 0, "the websocket to close")
    _wait_until(lambda: not _leaked(before), lambda: f"threads left running: {_leaked(before)}")


def _leaked(before: set[threading.Thread]) -> list[str]:
    """Threads started since `before` still running, but the fakes' own request threads
    (a kept-alive HTTP connection holds one until the fake closes)."""
    return sorted(
        t.name
        for t in set(threading.enumerate()) - before
        if t.is_alive() and "process_request_thread" not in t.name
    )


def _wait_until(
    done: Callable[[], bool], what: str | Callable[[], str], timeout: float = 10.0
) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what() if callable(what) else what}")
        time.sleep(0.02)


def _event_callback(slack: FakeSlackAPI, event: dict[str, Any]) -> dict[str, Any]:
    return {
        "token": "legacy-verification-token",
        "team_id": slack.team_id,
        "api_app_id": API_APP_ID,
        "event": event,
        "type": "event_callback",
        "event_id": f"Ev{uuid.uuid4().hex[:10].upper()}",
        "event_time": int(time.time()),
        "authorizations": [
            {
                "enterprise_id": None,
                "team_id": slack.team_id,
                "user_id": slack.bot_user_id,
                "is_bot": True,
                "is_enterprise_install": False,
            }
        ],
        "is_ext_shared_channel": False,
    }


def test_a_dm_over_the_socket_is_acked_answered_in_its_thread_and_remembered(
    socket_bot: SocketBot, slack: FakeSlackAPI, scripted_model: ScriptedModel
) -> None:
    [opened] = slack.calls_to("apps.connections.open")
    assert opened.token == APP_TOKEN and opened.ok
    assert slack.socket.sent[0]["type"] == "hello"
    _wait_until(lambda: slack.socket.pongs > 0, "the app to answer the fake's pings")

    scripted_model.script(
        [
            (
                "record_to_memory",
                {"thinking": "a travel preference", "content": ["I never take red-eye flights"]},
            )
        ],
        "Got it: **no red-eye flights** for you.",
    )
    channel, ts = dm_channel(ALICE), new_ts()
    event = {
        "type": "message",
        "channel": channel,
        "channel_type": "im",
        "user": ALICE,
        "text": "I never take red-eye flights",
        "ts": ts,
        "event_ts": ts,
        "team": slack.team_id,
    }
    envelope_id = slack.socket.send_event(_event_callback(slack, event))

    ack = slack.socket.wait_for_ack(envelope_id)
    assert ack.payload is None  # an Events API ack carries nothing back
    [reply] = slack.wait_shown(channel, ts, timeout=15)
    assert "**no red-eye flights**" in str(reply["text"])  # streamed: Markdown
    [started] = slack.calls_to("chat.startStream")
    assert started.token == slack.token  # answered with the bot token, not the app token

    memory = open_memory(dsn=socket_bot.settings.memory_dsn, redis_url="")
    try:
        remembered = [i.text for i in memory.items(f"{slack.team_id}:{ALICE}")]
    finally:
        memory.close()
    assert remembered == ["I never take red-eye flights"]


def test_a_slash_command_over_the_socket_is_acked_and_answered(
    socket_bot: SocketBot, slack: FakeSlackAPI
) -> None:
    form = {
        "token": "legacy-verification-token",
        "team_id": slack.team_id,
        "team_domain": slack.team_domain,
        "channel_id": CHANNEL,
        "channel_name": "travel",
        "user_id": ALICE,
        "user_name": ALICE.lower(),
        "command": "/travel-prefs",
        "text": "help",
        "api_app_id": API_APP_ID,
        "is_enterprise_install": "false",
        "response_url": slack.response_url(),
        "trigger_id": f"{uuid.uuid4().int % 10**10}.{uuid.uuid4().hex[:12]}",
    }
    envelope_id = slack.socket.send_command(form)

    slack.socket.wait_for_ack(envelope_id)
    [answer] = slack.wait_for("response_url", timeout=10)
    assert answer.args["text"] == t("prefs_help", "en")
    assert answer.args["response_type"] == "ephemeral"


def test_with_scheduler_in_web_the_bot_process_warms_travellers_before_their_trips(
    make_settings: SettingsFactory, slack: FakeSlackAPI
) -> None:
    """`SCHEDULER_IN_WEB=true`: no `clock` process, the bot's own process warms the cache."""
    slack.app_token = APP_TOKEN
    settings = make_settings(
        slack_app_token=APP_TOKEN,
        slack_signing_secret=None,
        scheduler_in_web=True,
        travel_timezone="UTC",
    )
    traveller = f"slack:{slack.team_id}:UTRIP{uuid.uuid4().hex[:6].upper()}"
    memory = open_memory(settings)
    memory.record(traveller, ["I never take red-eye flights"])
    key = memory.cache.key(traveller)
    memory.cache.invalidate(traveller)
    trips = open_trip_store(settings)
    assert trips is not None
    trips.add(traveller, "Chengdu", datetime.now(UTC).date(), created_by="test")
    trips.close()
    client = redis.Redis.from_url(settings.redis_url)
    assert not client.exists(key)

    stop = threading.Event()
    thread = threading.Thread(
        target=socket_command, args=(argparse.Namespace(), settings), kwargs={"stop": stop}
    )
    thread.start()
    try:
        _wait_until(lambda: bool(client.exists(key)), "the traveller's cache to be warmed", 30)
    finally:
        stop.set()
        thread.join(timeout=15)
        client.delete(key)
        client.close()
        memory.close()
    assert not thread.is_alive()
