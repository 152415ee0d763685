"""Attacks on the robot with correctly signed callbacks: a captured `timestamp`/`sign`
pair reused for another body, a callback naming someone else's webhook (or an internal
address) to answer to, JSON nested to exhaust the stack, ids that smuggle a `:` into a
namespace; and *Forget everything* ending the person's links to the preferences page.
Each is sent as DingTalk would send it, to the real route or the real Stream
connection; DingTalk's side (and an attacker's server) is played by `FakeDingTalkAPI`."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from bot import compose
from bot.channels import PLATFORMS
from bot.cli import logs, main
from bot.conversation.namespaces import namespace_problem
from bot.dingtalk.api import OpenAPI
from bot.messages import t
from bot.prefs.links import issue_token
from tests.support.dingtalk_api import FakeDingTalkAPI
from tests.support.dingtalk_harness import HTTPRobot, StreamRobot, signed_headers
from tests.support.llm_server import ScriptedModel
from tests.support.redis_server import RedisServer

ALICE, BOB = "staff-alice", "staff-bob"
PAGE_SECRET = "dingtalk-page-secret-4c8e20"


@pytest.fixture
def attacker() -> Iterator[FakeDingTalkAPI]:
    """Another host, playing DingTalk's webhook so it would gladly record what it got."""
    with FakeDingTalkAPI() as fake:
        yield fake


def foreign_webhooks(attacker: FakeDingTalkAPI, dingtalk: FakeDingTalkAPI) -> list[str]:
    session, _ = attacker.new_session("cidDM-staff-alice==")
    port = attacker.base_url.rsplit(":", 1)[1]
    return [
        session,  # another host's session webhook
        f"http://127.0.0.1:{port}/internal/admin?drop=all",  # an internal URL: blind SSRF
        f"{dingtalk.base_url}@127.0.0.1:{port}/robot/sendBySession?session=x",  # userinfo
        f"{dingtalk.base_url}/v1.0/robot/oToMessages/batchSend",  # right host, wrong path
        "https://oapi.dingtalk.com/robot/send?access_token=attackers-own-group",  # custom robot
        "http://169.254.169.254/latest/meta-data/",  # a cloud's metadata service
    ]


def test_a_captured_sign_pair_acts_once_and_never_for_another_body(
    robot: HTTPRobot,
    dingtalk: FakeDingTalkAPI,
    scripted_model: ScriptedModel,
    caplog: pytest.LogCaptureFixture,
) -> None:
    memory = robot.core.memory
    memory.record(robot.namespace(ALICE), ["I never take red-eye flights"])
    headers = signed_headers()  # captured from Alice's real callback
    shown = robot.post(robot.message("/travel-prefs"), signed=False, headers=headers)
    assert shown.status_code == 200
    [card] = robot.answers()
    assert "red-eye" in card.text

    caplog.set_level(logging.WARNING)
    forged = robot.message("/travel-prefs forget")  # another body under the same pair
    refused = robot.post(forged, signed=False, headers=headers)
    assert refused.status_code == 401
    assert [r.getMessage() for r in caplog.records if "reused" in r.getMessage()] == [
        "DingTalk callback refused (401): signature reused"
    ]
    assert "forget" not in caplog.text
    again = robot.post(forged, signed=False, headers=headers)  # and again: still refused
    assert again.status_code == 401

    # A new message of Alice's own under the pair is just as much another body.
    replayed = robot.post(robot.message("/travel-prefs"), signed=False, headers=headers)
    assert replayed.status_code == 401
    time.sleep(0.3)
    robot.drain()
    assert len(dingtalk.sent) == 1
    assert len(memory.items(robot.namespace(ALICE))) == 1
    assert scripted_model.requests == []


def test_the_same_pair_with_the_same_bytes_is_a_redelivery_answered_once(
    robot: HTTPRobot, dingtalk: FakeDingTalkAPI, scripted_model: ScriptedModel
) -> None:
    scripted_model.script("Bon voyage!")
    data, headers = robot.message("I'm off to Lyon"), signed_headers()
    for _ in range(3):
        assert robot.post(data, signed=False, headers=headers).status_code == 200
    robot.answers()
    robot.drain()
    time.sleep(0.3)
    assert len(dingtalk.sent) == 1 and len(scripted_model.requests) == 1


def test_a_pair_is_claimed_once_while_redis_is_down(
    make_robot: Callable[..., HTTPRobot], dingtalk: FakeDingTalkAPI, tmp_path: Path
) -> None:
    server = RedisServer(tmp_path).start()
    try:
        robot = make_robot(redis_url=server.url)
        server.kill()  # gone: every claim is decided in-process
        robot.core.memory.record(robot.namespace(ALICE), ["Aisle seats"])
        headers = signed_headers()
        first = robot.post(robot.message("/travel-prefs"), signed=False, headers=headers)
        assert first.status_code == 200
        robot.answers()
        forged = robot.post(robot.message("/travel-prefs forget"), signed=False, headers=headers)
        assert forged.status_code == 401
        time.sleep(0.3)
        assert len(dingtalk.sent) == 1
    finally:
        server.stop()


def test_answers_never_go_to_a_webhook_a_callback_names_outside_dingtalk(
    robot: HTTPRobot,
    dingtalk: FakeDingTalkAPI,
    attacker: FakeDingTalkAPI,
    caplog: pytest.LogCaptureFixture,
) -> None:
    memory = robot.core.memory
    memory.record(robot.namespace(ALICE), ["I never take red-eye flights"])
    caplog.set_level(logging.WARNING)
    webhooks = foreign_webhooks(attacker, dingtalk)
    for webhook in webhooks:
        data = robot.message("/travel-prefs")
        data["sessionWebhook"] = webhook
        assert robot.post(data).status_code == 200
    cards = robot.answers(len(webhooks))
    # Each answer reached Alice herself, through the OpenAPI, and nobody else.
    assert all(c.via == "openapi" and c.users == (ALICE,) for c in cards)
    assert all("red-eye" in c.text for c in cards)
    assert attacker.requests == []
    assert all(path.startswith(("/v1.0/oauth2", "/v1.0/robot/oTo")) for path in dingtalk.requests)
    assert robot.core.metrics.value("dingtalk_webhooks_refused_total") == len(webhooks)
    warnings = [r.getMessage() for r in caplog.records if "session webhook" in r.getMessage()]
    assert len(warnings) == 1  # once a minute, however many
    assert "red-eye" not in caplog.text and "127.0.0.1" not in caplog.text


def test_the_forget_code_goes_only_to_the_person_not_to_a_named_webhook(
    robot: HTTPRobot, dingtalk: FakeDingTalkAPI, attacker: FakeDingTalkAPI
) -> None:
    memory = robot.core.memory
    memory.record(robot.namespace(ALICE), ["Aisle seats"])
    data = robot.message("/travel-prefs forget")
    data["sessionWebhook"], _ = attacker.new_session(data["conversationId"])
    robot.post(data)
    [prompt] = robot.answers()
    assert prompt.via == "openapi" and prompt.users == (ALICE,)
    assert t("prefs_forget_ask", "en", count=1) in prompt.text
    assert attacker.requests == []


def test_a_stream_message_naming_a_foreign_webhook_is_answered_through_the_openapi(
    make_stream_robot: Callable[..., StreamRobot],
    dingtalk: FakeDingTalkAPI,
    attacker: FakeDingTalkAPI,
    scripted_model: ScriptedModel,
) -> None:
    robot = make_stream_robot()
    dingtalk.gateway.wait_connected()
    scripted_model.script("Noted: aisle seats.")
    data = robot.message("I like aisle seats")
    data["sessionWebhook"], _ = attacker.new_session(data["conversationId"])
    dingtalk.gateway.wait_for_ack(dingtalk.gateway.send_message(data))
    [answer] = robot.answers()
    assert answer.via == "openapi" and answer.users == (ALICE,)
    assert answer.text == "Noted: aisle seats."
    assert attacker.requests == []


def test_only_dingtalks_own_session_webhooks_are_allowed() -> None:
    api = OpenAPI(client_id="k", client_secret="s", base_url="http://127.0.0.1:8080/proxy")
    try:
        allowed = [
            "https://oapi.dingtalk.com/robot/sendBySession?session=abc",
            "HTTPS://OAPI.DINGTALK.COM:443/robot/sendBySession?session=abc",
            "https://api.dingtalk.com/robot/sendBySession?session=abc",
            "http://127.0.0.1:8080/proxy/robot/sendBySession?session=abc",
        ]
        refused = [
            "http://oapi.dingtalk.com/robot/sendBySession?session=abc",  # not https
            "https://oapi.dingtalk.com:8443/robot/sendBySession?session=abc",  # another port
            "https://oapi.dingtalk.com.evil.example/robot/sendBySession",
            "https://oapi.dingtalk.com@evil.example/robot/sendBySession",
            "https://evil.example\\@oapi.dingtalk.com/robot/sendBySession",
            "https://oapi.dingtalk.com/robot/send?access_token=x",
            "http://127.0.0.1:8081/proxy/robot/sendBySession",  # the configured host, other port
            "http://127.0.0.1:8080/robot/sendBySession",  # outside the configured path
            "file:///etc/passwd",
            "not a url",
        ]
        assert [url for url in allowed if not api.webhook_allowed(url)] == []
        assert [url for url in refused if api.webhook_allowed(url)] == []
    finally:
        api.close()


@pytest.mark.parametrize(
    "body",
    [b"[" * 1000 + b"]" * 1000, b'{"a":' * 5000 + b"1" + b"}" * 5000, b"[" * 100_000],
    ids=["array-1000", "object-5000", "unclosed-100000"],
)
def test_deeply_nested_json_is_a_400_without_a_traceback(
    robot: HTTPRobot, body: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    response = robot.post(body)  # signed: the signature does not cover the body
    assert response.status_code == 400
    assert response.json() == {"ok": False, "error": "malformed_request"}
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert robot.core.metrics.value("http_rejected_total", reason="malformed") == 1


def test_ids_with_a_colon_never_share_a_namespace_and_the_cli_can_erase_them(
    robot: HTTPRobot,
    scripted_model: ScriptedModel,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    facts = [
        ("a:b", "X", "Alice likes window seats"),
        ("b", "X:a", "Mallory likes aisle seats"),
    ]
    for staff, corp, fact in facts:
        scripted_model.script(
            [("record_to_memory", {"thinking": "a preference", "content": [fact]})], "Noted."
        )
        robot.send(fact, staff_id=staff, corp=corp)
        robot.answers(facts.index((staff, corp, fact)) + 1)
    robot.drain()
    first, second = robot.namespace("a%3Ab", "X"), robot.namespace("b", "X%3Aa")
    assert first != second
    assert [i.text for i in robot.core.memory.items(first)] == ["Alice likes window seats"]
    assert [i.text for i in robot.core.memory.items(second)] == ["Mallory likes aisle seats"]
    assert namespace_problem(first, PLATFORMS) is None
    assert namespace_problem(second, PLATFORMS) is None

    monkeypatch.chdir(tmp_path)  # no .env but these
    monkeypatch.setenv("MEMORY_DSN", robot.settings.memory_dsn)
    monkeypatch.setenv("REDIS_URL", robot.settings.redis_url)
    monkeypatch.setenv("REDIS_KEY_PREFIX", robot.settings.redis_key_prefix)
    assert main(["memory", "export", "--user", first]) == 0
    assert "Alice likes window seats" in capsys.readouterr().out
    assert main(["memory", "forget", "--user", first, "--all", "--yes"]) == 0
    assert robot.core.memory.items(first) == []
    assert len(robot.core.memory.items(second)) == 1
    logs.reset()


def test_forget_everything_ends_the_persons_page_links(
    make_robot: Callable[..., HTTPRobot], dingtalk: FakeDingTalkAPI
) -> None:
    robot = make_robot(prefs_link_secret=PAGE_SECRET, public_url="http://travel.example")
    assert compose.mount_prefs_site(robot.web, robot.settings, robot.core)
    alice = robot.namespace(ALICE)
    robot.core.memory.record(alice, ["Aisle seats"])
    token = issue_token(PAGE_SECRET, alice, ttl_seconds=900)
    bearer = {"Authorization": f"Bearer {token}"}
    assert robot.http.get("/api/preferences", headers=bearer).status_code == 200

    robot.send("/travel-prefs forget")
    [prompt] = robot.answers()
    [yes] = [url for title, url in prompt.buttons if title == t("prefs_forget_yes", "en")]
    [content] = parse_qs(urlsplit(yes).query)["content"]  # what the tapped button sends
    robot.send(content)
    [_, done] = robot.answers(2)
    assert done.text == t("prefs_forgot_all", "en", count=1)
    assert robot.http.get("/api/preferences", headers=bearer).status_code == 401
