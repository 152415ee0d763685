"""The robot's HTTP mode end to end: signed callbacks to the real server in, and what
DingTalk's session webhooks and OpenAPI (played by a local server) received out."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import Any

import pytest

from bot.messages import t
from tests.support.dingtalk_api import FakeDingTalkAPI, Sent
from tests.support.dingtalk_harness import CORP, GROUP, HTTPRobot, dm_conversation, signed_headers
from tests.support.llm_server import Delay, ScriptedModel

ALICE, BOB = "staff-alice", "staff-bob"


def record(*facts: str) -> list[tuple[str, dict[str, Any]]]:
    return [("record_to_memory", {"thinking": "a travel preference", "content": list(facts)})]


def retrieve(*keywords: str) -> list[tuple[str, dict[str, Any]]]:
    return [("retrieve_from_memory", {"keywords": list(keywords)})]


def tool_results(request: dict[str, Any]) -> list[str]:
    return [str(m.get("content")) for m in request["messages"] if m.get("role") == "tool"]


def in_chat(conversation: str) -> Callable[[Sent], bool]:
    return lambda sent: sent.conversation == conversation


def test_a_preference_is_remembered_for_the_writer_and_recalled_later(
    robot: HTTPRobot, scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    scripted_model.script(record("出差只坐高铁一等座"), "记住了：出差只坐**高铁一等座**。")
    response, _ = robot.send("出差只坐高铁一等座")
    assert response.status_code == 200
    assert response.json() == {}
    [answer] = robot.answers()
    assert answer.via == "webhook" and answer.kind == "markdown"
    assert answer.text == "记住了：出差只坐**高铁一等座**。"
    remembered = [i.text for i in robot.core.memory.items(f"dingtalk:{CORP}:{ALICE}")]
    assert remembered == ["出差只坐高铁一等座"]

    scripted_model.script(retrieve("train", "Chengdu"), "Your Chengdu plan: first-class rail.")
    robot.send("plan my trip to Chengdu")
    robot.answers(2)
    assert any("高铁一等座" in result for result in tool_results(scripted_model.last_request))
    # Bob's memory is his own.
    scripted_model.script(retrieve("train"), "Which class do you like?")
    robot.send("book me a train", staff_id=BOB)
    robot.answers(3)
    assert "高铁一等座" not in json.dumps(tool_results(scripted_model.last_request))


def test_a_redelivered_callback_gets_one_answer(
    robot: HTTPRobot, scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    scripted_model.script(Delay(0.5, "Bon voyage!"))
    data = robot.message("I'm off to Lyon tomorrow")
    first = robot.post(data)
    again = robot.post(data)  # DingTalk redelivers what it thinks we missed
    assert first.status_code == again.status_code == 200
    robot.answers()
    robot.drain()
    time.sleep(0.3)
    assert len(dingtalk.sent) == 1
    assert len(scripted_model.requests) == 1
    assert robot.core.metrics.value("dingtalk_events_duplicate_total", type="dm") == 1


@pytest.mark.parametrize(
    "headers",
    [
        lambda: {},
        lambda: {"timestamp": str(int(time.time() * 1000))},
        lambda: signed_headers(secret="not-the-app-secret"),
        lambda: signed_headers(timestamp=int((time.time() - 3660) * 1000)),
        lambda: signed_headers(timestamp=int((time.time() + 3660) * 1000)),
        lambda: {"timestamp": "soon", "sign": "x"},
    ],
    ids=["none", "no-sign", "wrong-secret", "an-hour-old", "an-hour-ahead", "not-a-time"],
)
def test_unsigned_or_badly_signed_callbacks_are_refused(
    robot: HTTPRobot,
    scripted_model: ScriptedModel,
    dingtalk: FakeDingTalkAPI,
    headers: Callable[[], dict[str, str]],
) -> None:
    data = robot.message("I never take red-eye flights")
    response = robot.post(data, signed=False, headers=headers())
    assert response.status_code == 401
    time.sleep(0.2)
    assert scripted_model.requests == [] and dingtalk.sent == []


def test_refused_callbacks_are_logged_once_per_reason_without_their_text(
    robot: HTTPRobot, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    data = robot.message("passport-E12345678")
    for _ in range(3):
        wrong = signed_headers(secret="not-the-app-secret")
        assert robot.post(data, signed=False, headers=wrong).status_code == 401
    stale = signed_headers(timestamp=int((time.time() - 3660) * 1000))
    assert robot.post(data, signed=False, headers=stale).status_code == 401
    refusals = [r.getMessage() for r in caplog.records if "refused (401)" in r.getMessage()]
    assert refusals == [
        "DingTalk callback refused (401): bad signature",
        "DingTalk callback refused (401): stale timestamp",
    ]
    assert "passport-E12345678" not in caplog.text


def test_a_signature_from_59_minutes_ago_is_accepted(
    robot: HTTPRobot, scripted_model: ScriptedModel
) -> None:
    scripted_model.script("Hello!")
    headers = signed_headers(timestamp=int((time.time() - 59 * 60) * 1000))
    response = robot.post(robot.message("hi"), signed=False, headers=headers)
    assert response.status_code == 200
    [answer] = robot.answers()
    assert answer.text == "Hello!"


@pytest.mark.parametrize(
    "body",
    [
        b"{not json",
        b"[]",
        b'{"msgId": "m1"}',
        json.dumps({"msgId": 1, "conversationId": "c", "conversationType": "1"}).encode(),
    ],
    ids=["unparsable", "not-an-object", "no-conversation", "msgid-not-a-string"],
)
def test_malformed_signed_bodies_get_400_and_touch_nothing(
    robot: HTTPRobot, scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI, body: bytes
) -> None:
    response = robot.post(body)
    assert response.status_code == 400
    assert response.json() == {"ok": False, "error": "malformed_request"}
    assert scripted_model.requests == [] and dingtalk.sent == []


def test_a_group_message_is_answered_only_when_the_robot_is_mentioned(
    robot: HTTPRobot, scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    scripted_model.script("Shanghai in May is lovely.")
    ignored, _ = robot.send("lunch anyone?", group=True, mentioned=False)
    assert ignored.status_code == 200
    robot.send("thinking of Shanghai in May", group=True)
    [answer] = robot.answers()
    assert answer.conversation == GROUP and answer.text == "Shanghai in May is lovely."
    robot.drain()
    assert len(scripted_model.requests) == 1


def test_an_external_contact_is_answered_politely_and_nothing_is_remembered(
    robot: HTTPRobot, scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    robot.send("我出差只坐靠窗的座位", staff_id=None)
    [answer] = robot.answers()
    assert answer.text == t("outsider", "zh")
    assert scripted_model.requests == []
    assert robot.core.memory.items(f"dingtalk:{CORP}:") == []


def test_an_expired_session_webhook_falls_back_to_the_openapi(
    robot: HTTPRobot, scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    scripted_model.script("Answered one-to-one.", "Answered in the group.")
    robot.send("hello", webhook_expires_in=-1)  # already expired when it arrives
    [dm] = robot.answers()
    assert (dm.via, dm.users, dm.text) == ("openapi", (ALICE,), "Answered one-to-one.")
    robot.send("hello team", group=True, webhook_expires_in=-1)
    [group] = robot.answers(where=in_chat(GROUP))
    assert (group.via, group.text) == ("openapi", "Answered in the group.")
    # Both OpenAPI sends shared one access token.
    assert len(dingtalk.tokens_issued) == 1


def test_a_session_that_no_longer_exists_falls_back_to_the_openapi(
    robot: HTTPRobot, scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    """DingTalk may end a session before `sessionWebhookExpiredTime`: "session 不存在"."""
    scripted_model.script(Delay(0.3, "Still here."))
    robot.send("are you there?")
    dingtalk.end_sessions()
    [answer] = robot.answers()
    assert (answer.via, answer.text) == ("openapi", "Still here.")
    assert ("webhook", 200) in dingtalk.rejected  # errcode 300001 was tried first


def test_an_expired_access_token_is_fetched_again(
    robot: HTTPRobot, scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    scripted_model.script("First.", "Second.", "Third.")
    robot.send("one", webhook_expires_in=-1)
    robot.answers()
    dingtalk.expire_tokens()
    robot.send("two", webhook_expires_in=-1)
    [_, second] = robot.answers(2)
    assert second.text == "Second."
    assert len(dingtalk.tokens_issued) == 2
    assert ("otm", 401) in dingtalk.rejected
    # The token service failing for a moment is waited out too.
    dingtalk.expire_tokens()
    dingtalk.fail("token", times=1, status=503)
    robot.send("three", webhook_expires_in=-1)
    [*_, third] = robot.answers(3)
    assert third.text == "Third." and len(dingtalk.tokens_issued) == 3


def test_a_rate_limited_send_is_retried_and_lands_once(
    robot: HTTPRobot, scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    scripted_model.script("Despite the limit.", "Flow controlled, then sent.")
    dingtalk.rate_limit("group", times=2)
    robot.send("hi", group=True, webhook_expires_in=-1)
    [answer] = robot.answers()
    assert answer.text == "Despite the limit."
    assert dingtalk.rejected.count(("group", 403)) == 2
    dingtalk.flow_control(times=1)
    robot.send("hi again", webhook_expires_in=-1)
    robot.answers(2)
    robot.drain()
    assert [s.text for s in dingtalk.sent] == ["Despite the limit.", "Flow controlled, then sent."]


def test_with_dingtalk_down_nothing_breaks_and_the_next_message_is_answered(
    robot: HTTPRobot, scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    scripted_model.script("Lost to the outage.", "Back again.")
    dingtalk.down(True)
    response, _ = robot.send("hello?")
    assert response.status_code == 200
    deadline = time.monotonic() + 30
    while not robot.core.metrics.value("dingtalk_send_failures_total", kind="answer"):
        assert time.monotonic() < deadline, "the failed send was never counted"
        time.sleep(0.05)
    dingtalk.down(False)
    robot.send("hello again?")
    [answer] = robot.answers()
    assert answer.text == "Back again."


def test_a_slow_turn_says_it_is_working_and_a_quick_one_does_not(
    make_robot: Callable[..., HTTPRobot], scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    # The quick turn took up to 0.37 s on the loaded shared 2-core machine, so a 0.4 s
    # progress timer could fire for it; 1.5 s leaves it room, and the slow turn (4 s) is
    # still far past the timer.
    robot = make_robot(dingtalk_progress_seconds=1.5)
    scripted_model.script(Delay(4.0, "Done thinking."), "Quick.")
    robot.send("what should I pack for Harbin in January?")
    progress, answer = robot.answers(2, timeout=20)
    assert progress.text == t("working", "en")
    assert answer.text == "Done thinking."
    robot.send("thanks")
    robot.answers(3)
    time.sleep(0.8)
    assert [s.text for s in dingtalk.sent][2:] == ["Quick."]


def test_a_chinese_message_gets_a_chinese_failure_and_no_words_the_default_language(
    make_robot: Callable[..., HTTPRobot], scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    robot = make_robot(default_language="zh", llm_model="")
    robot.send("帮我规划去成都的行程")
    robot.send("👍")
    first, second = robot.answers(2)
    assert first.text == t("llm_not_configured", "zh")
    assert second.text == t("llm_not_configured", "zh")


def test_a_too_long_message_is_refused_kindly_in_its_language(
    robot: HTTPRobot, scripted_model: ScriptedModel
) -> None:
    robot.send("很长" * 3000)
    [answer] = robot.answers()
    assert answer.text == t("message_too_long", "zh", length=6000, limit=4000)
    assert scripted_model.requests == []


def test_the_one_to_one_chat_is_answered_in_its_own_conversation(
    robot: HTTPRobot, scripted_model: ScriptedModel
) -> None:
    scripted_model.script("Hi Bob.")
    robot.send("hi", staff_id=BOB)
    [answer] = robot.answers()
    assert answer.conversation == dm_conversation(BOB)
