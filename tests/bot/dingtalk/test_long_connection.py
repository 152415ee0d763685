"""Stream mode end to end: the real `dingtalk-stream` code against a local gateway.

The robot opens its connection through the fake OpenAPI (`/v1.0/gateway/connections/open`),
then frames flow over a real WebSocket: robot messages in, the SDK's acks out, and the
answers through the session webhook. The traps other DingTalk bots fell into are each
played here: a slow turn (acked at once, answered once however often it is redelivered),
a ping that hangs (the watchdog reconnects), a gateway that asks to reconnect or will not
open, and frames that are not what they should be.
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from bot.cli.run import dingtalk_command, pick_mode
from bot.settings import Settings
from tests.bot.dingtalk.conftest import SettingsFactory
from tests.support.dingtalk_api import FakeDingTalkAPI
from tests.support.dingtalk_harness import StreamRobot, robot_message
from tests.support.llm_server import Delay, ScriptedModel
from tests.support.services import free_port

TOPIC = "/v1.0/im/bot/messages/get"


def wait_until(condition: Callable[[], bool], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition never held"
        time.sleep(0.02)


def test_a_message_is_acked_at_once_and_answered_once_however_often_it_comes(
    make_stream_robot: Callable[..., StreamRobot],
    dingtalk: FakeDingTalkAPI,
    scripted_model: ScriptedModel,
) -> None:
    robot = make_stream_robot()
    dingtalk.gateway.wait_connected()
    assert dingtalk.subscriptions == [[{"type": "CALLBACK", "topic": TOPIC}]]

    scripted_model.script(Delay(2.0, "Bon voyage!"))
    data = robot.message("I'm off to Lyon tomorrow")
    sent_at = time.monotonic()
    message_id = dingtalk.gateway.send_message(data)
    ack = dingtalk.gateway.wait_for_ack(message_id)
    assert ack.code == 200 and json.loads(ack.data) == {"response": "OK"}
    assert ack.at - sent_at < 1.5  # long before the two-second turn is over
    assert dingtalk.sent == []

    dingtalk.gateway.resend(message_id)  # DingTalk redelivers while the turn runs
    other_delivery = dingtalk.gateway.send_message(data)  # and once more, as a new frame
    dingtalk.gateway.wait_for_ack(other_delivery)
    [answer] = robot.answers()
    assert answer.text == "Bon voyage!"
    robot.drain()
    time.sleep(0.3)
    assert len(dingtalk.sent) == 1 and len(scripted_model.requests) == 1


def test_gateway_pings_are_answered_and_malformed_frames_do_not_break_the_connection(
    make_stream_robot: Callable[..., StreamRobot],
    dingtalk: FakeDingTalkAPI,
    scripted_model: ScriptedModel,
) -> None:
    robot = make_stream_robot()
    dingtalk.gateway.wait_connected()
    ping = dingtalk.gateway.send_ping()
    assert "opaque" in json.loads(dingtalk.gateway.wait_for_ack(ping).data)

    dingtalk.gateway.send_raw("{not json")
    malformed = dingtalk.gateway.send_message({"msgId": 12, "conversationType": "1"})
    assert dingtalk.gateway.wait_for_ack(malformed).code == 200  # acked: redelivery won't mend it

    scripted_model.script("Still fine.")
    dingtalk.gateway.send_message(robot.message("hello"))
    [answer] = robot.answers()
    assert answer.text == "Still fine."
    assert dingtalk.gateway.connects == 1


def test_a_hung_connection_is_dropped_and_reopened(
    make_stream_robot: Callable[..., StreamRobot],
    dingtalk: FakeDingTalkAPI,
    scripted_model: ScriptedModel,
) -> None:
    robot = make_stream_robot(ping_seconds=0.3)
    dingtalk.gateway.wait_connected()
    wait_until(lambda: robot.stream.health.ok)

    dingtalk.gateway.hang()  # no pong, ever, on a TCP connection that stays open
    dingtalk.gateway.wait_connected(2, timeout=15)
    wait_until(lambda: robot.stream.health.ok)
    health = robot.stream.health.snapshot()
    assert health["reconnects"] == 1 and health["last_error"] == "no pong in 0.3 s"
    assert (
        robot.core.metrics.value("dingtalk_stream_reconnects_total", reason="no pong in 0.3 s") == 1
    )

    scripted_model.script("Back online.")
    dingtalk.gateway.send_message(robot.message("are you there?"))
    [answer] = robot.answers()
    assert answer.text == "Back online."


def test_a_disconnect_from_the_gateway_reconnects_at_once(
    make_stream_robot: Callable[..., StreamRobot],
    dingtalk: FakeDingTalkAPI,
    scripted_model: ScriptedModel,
) -> None:
    robot = make_stream_robot()
    dingtalk.gateway.wait_connected()
    started = time.monotonic()
    bye = dingtalk.gateway.send_disconnect()
    dingtalk.gateway.wait_for_ack(bye)
    dingtalk.gateway.wait_connected(2)
    assert time.monotonic() - started < 5
    wait_until(lambda: robot.stream.health.ok)
    assert robot.stream.health.snapshot()["last_error"] == "the gateway asked to reconnect"

    scripted_model.script("On the new connection.")
    dingtalk.gateway.send_message(robot.message("hi"))
    [answer] = robot.answers()
    assert answer.text == "On the new connection."


def test_a_gateway_that_will_not_open_is_retried_with_back_off(
    make_stream_robot: Callable[..., StreamRobot], dingtalk: FakeDingTalkAPI
) -> None:
    dingtalk.fail("open", times=3, status=500)
    robot = make_stream_robot()
    dingtalk.gateway.wait_connected(timeout=20)
    wait_until(lambda: robot.stream.health.ok)
    health = robot.stream.health.snapshot()
    assert health["state"] == "connected" and health["reconnects"] == 3
    assert health["last_error"] == "the gateway would not open a connection"


def test_run_picks_dingtalk_when_only_its_credentials_are_set(
    dingtalk_settings: SettingsFactory,
) -> None:
    assert pick_mode(dingtalk_settings()) == "dingtalk"
    # Configured in part: an error naming what is missing, never the console.
    with pytest.raises(ValueError, match="DINGTALK_CLIENT_SECRET"):
        pick_mode(dingtalk_settings(dingtalk_client_secret=None))
    slack = dingtalk_settings(slack_bot_token="xoxb-1", slack_signing_secret="s")
    assert pick_mode(slack) == "serve"


@pytest.fixture
def verb(dingtalk_settings: SettingsFactory) -> Iterator[tuple[Settings, int]]:
    """`travel-bot dingtalk --health-port PORT` running in a thread until the test ends."""
    settings = dingtalk_settings(dingtalk_stream_ping_seconds=0.3)
    port = free_port()
    stop = threading.Event()
    codes: list[int] = []
    args = argparse.Namespace(health_port=port)
    thread = threading.Thread(
        target=lambda: codes.append(dingtalk_command(args, settings, stop=stop)), daemon=True
    )
    thread.start()
    try:
        yield settings, port
    finally:
        stop.set()
        thread.join(timeout=30)
    assert not thread.is_alive(), "travel-bot dingtalk did not return after stop"
    assert codes == [0]


def test_the_dingtalk_verb_answers_and_shows_the_streams_state_in_healthz(
    verb: tuple[Settings, int], dingtalk: FakeDingTalkAPI, scripted_model: ScriptedModel
) -> None:
    _, port = verb
    dingtalk.gateway.wait_connected(timeout=60)
    scripted_model.script("Hello from Stream mode.")
    dingtalk.gateway.send_message(robot_message(dingtalk, "hello"))
    [answer] = dingtalk.wait_for(timeout=30)
    assert answer.text == "Hello from Stream mode."

    health = health_of(port)
    assert health["dingtalk_stream"]["state"] == "connected"
    assert health["dingtalk_stream"]["ok"] is True
    dingtalk.gateway.hang()
    dingtalk.gateway.wait_connected(2, timeout=30)
    wait_until(lambda: health_of(port)["dingtalk_stream"]["ok"] is True)
    assert health_of(port)["dingtalk_stream"]["reconnects"] == 1


def health_of(port: int) -> dict[str, Any]:
    response = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=10)
    assert response.status_code == 200
    body: dict[str, Any] = response.json()
    return body


def test_without_credentials_the_verb_says_what_to_set(
    dingtalk_settings: SettingsFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = dingtalk_settings(dingtalk_client_id="")
    assert dingtalk_command(argparse.Namespace(), settings, stop=threading.Event()) == 2
    assert "DINGTALK_CLIENT_ID and DINGTALK_CLIENT_SECRET" in capsys.readouterr().err
