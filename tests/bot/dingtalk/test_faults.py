"""Transport faults between the robot and DingTalk, end to end in HTTP mode: a session
webhook that refuses the connection (nothing was sent: tried once more), and one that
takes the reply and then resets or hangs (it may have arrived: never sent again, by
neither way, as DingTalk offers no idempotency key)."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator

import pytest

import bot.dingtalk.api
import bot.dingtalk.delivery
from bot.messages import t
from tests.support.dingtalk_api import FakeDingTalkAPI
from tests.support.dingtalk_harness import HTTPRobot, dm_conversation
from tests.support.llm_server import ScriptedModel

OUTSIDER_CHAT = dm_conversation("external")


class _OnRetry(logging.Handler):
    """Opens the fake's port again when the robot says it will retry the webhook: on
    the robot's thread, before its pause, so the retry finds the port open."""

    def __init__(self, fake: FakeDingTalkAPI) -> None:
        super().__init__(logging.INFO)
        self.fake = fake
        self.fired = False

    def emit(self, record: logging.LogRecord) -> None:
        if "session webhook" in record.getMessage() and not self.fired:
            self.fired = True
            self.fake.accept_connections()


@pytest.fixture
def retry_log() -> Iterator[logging.Logger]:
    logger = logging.getLogger("bot.retry")
    level = logger.level
    logger.setLevel(logging.INFO)
    yield logger
    logger.setLevel(level)


def _settle(robot: HTTPRobot, dingtalk: FakeDingTalkAPI, count: int) -> None:
    """Wait until the turns are over and `count` messages have arrived, then a little
    longer: a second copy would come within it."""
    dingtalk.wait_for(count)
    robot.drain()
    time.sleep(0.5)


def test_an_external_contact_is_answered_once_after_a_refused_connection(
    robot: HTTPRobot, dingtalk: FakeDingTalkAPI, retry_log: logging.Logger
) -> None:
    handler = _OnRetry(dingtalk)
    retry_log.addHandler(handler)
    try:
        dingtalk.refuse_connections()
        response, _ = robot.send("我出差只坐靠窗的座位", staff_id=None)
        assert response.status_code == 200
        _settle(robot, dingtalk, 1)
    finally:
        retry_log.removeHandler(handler)
        if not handler.fired:
            dingtalk.accept_connections()
    assert handler.fired, "the webhook was never refused"
    [answer] = dingtalk.sent
    assert answer.via == "webhook" and answer.conversation == OUTSIDER_CHAT
    assert answer.text == t("outsider", "zh")


def test_an_external_contacts_lost_reply_is_logged_at_error_without_the_message(
    robot: HTTPRobot,
    dingtalk: FakeDingTalkAPI,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    dingtalk.refuse_connections()
    try:
        robot.send("我出差只坐靠窗的座位", staff_id=None)
        deadline = time.monotonic() + 15
        while not [r for r in caplog.records if r.levelno == logging.ERROR]:
            assert time.monotonic() < deadline, "the lost reply was never logged at ERROR"
            time.sleep(0.05)
    finally:
        dingtalk.accept_connections()
    [lost] = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert "lost" in lost.getMessage() and OUTSIDER_CHAT in lost.getMessage()
    retried = [r for r in caplog.records if r.name == "bot.retry"]
    assert len(retried) == 1  # refused twice: once more, then given up
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "靠窗" not in logged and t("outsider", "zh") not in logged
    assert dingtalk.sent == []


@pytest.mark.parametrize("fault", ["reset", "hang"])
def test_a_reply_the_webhook_may_have_taken_is_not_sent_again(
    robot: HTTPRobot,
    scripted_model: ScriptedModel,
    dingtalk: FakeDingTalkAPI,
    monkeypatch: pytest.MonkeyPatch,
    fault: str,
) -> None:
    monkeypatch.setattr(bot.dingtalk.api, "WEBHOOK_TIMEOUT", 0.5)
    dingtalk.hang_seconds = 2.0
    scripted_model.script("Window seats, noted.", "Aisle next time?")
    dingtalk.take_then_fail("webhook", fault)
    robot.send("I like window seats")
    _settle(robot, dingtalk, 1)
    [answer] = dingtalk.sent  # the chat shows it once: no OpenAPI copy
    assert answer.via == "webhook" and answer.text == "Window seats, noted."
    assert "/v1.0/robot/oToMessages/batchSend" not in dingtalk.requests
    metrics = robot.core.metrics
    assert metrics.value("dingtalk_replies_sent_total", kind="answer", via="unconfirmed") == 1
    # The next message has a webhook of its own, and it answers.
    robot.send("and next time?")
    _settle(robot, dingtalk, 2)
    assert [s.text for s in dingtalk.sent] == ["Window seats, noted.", "Aisle next time?"]
    assert [s.via for s in dingtalk.sent] == ["webhook", "webhook"]


def test_a_group_reply_the_webhook_may_have_taken_is_not_posted_in_the_group_again(
    robot: HTTPRobot, scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    scripted_model.script("Noted for the team.")
    dingtalk.take_then_fail("webhook", "reset")
    robot.send("we fly economy", group=True)
    _settle(robot, dingtalk, 1)
    assert len(dingtalk.sent) == 1
    assert "/v1.0/robot/groupMessages/send" not in dingtalk.requests


@pytest.mark.parametrize(("group", "kind"), [(False, "otm"), (True, "group")])
def test_an_openapi_send_dingtalk_may_have_taken_is_not_retried(
    robot: HTTPRobot,
    scripted_model: ScriptedModel,
    dingtalk: FakeDingTalkAPI,
    group: bool,
    kind: str,
) -> None:
    scripted_model.script("Through the OpenAPI, once.")
    dingtalk.take_then_fail(kind, "reset")
    robot.send("hello", group=group, webhook_expires_in=-1)  # no usable webhook
    _settle(robot, dingtalk, 1)
    [answer] = dingtalk.sent
    assert answer.via == "openapi" and answer.text == "Through the OpenAPI, once."
    assert robot.core.metrics.value("dingtalk_send_failures_total", kind="answer") == 0


@pytest.mark.parametrize(("group", "kind"), [(False, "otm"), (True, "group")])
def test_a_chat_reply_dingtalk_answered_500_once_reaches_the_traveller_once(
    robot: HTTPRobot,
    scripted_model: ScriptedModel,
    dingtalk: FakeDingTalkAPI,
    group: bool,
    kind: str,
) -> None:
    """A 500 that posted nothing: an answer is tried again within the robot's patience
    (a lost answer is worse than a duplicate), not given up as 'may have been sent'."""
    scripted_model.script("Your answer, after a hiccup.")
    dingtalk.fail(kind, 1, 500)
    robot.send("hello", group=group, webhook_expires_in=-1)  # no usable webhook
    _settle(robot, dingtalk, 1)
    [answer] = dingtalk.sent
    assert answer.via == "openapi" and answer.text == "Your answer, after a hiccup."
    metrics = robot.core.metrics
    assert metrics.value("dingtalk_replies_sent_total", kind="answer", via="unconfirmed") == 0


@pytest.mark.parametrize(
    ("taken", "copies"), [(False, ["openapi"]), (True, ["webhook", "openapi"])]
)
def test_a_reply_the_session_webhook_answered_500_is_sent_again_through_the_openapi(
    robot: HTTPRobot,
    scripted_model: ScriptedModel,
    dingtalk: FakeDingTalkAPI,
    taken: bool,
    copies: list[str],
) -> None:
    """A 500/504 from the session webhook may have posted, yet a chat reply is sent
    again through the OpenAPI: the traveller gets their answer, at worst twice (when
    DingTalk had posted it), never not at all (docs/dingtalk.md)."""
    scripted_model.script("Window seats, noted.")
    if taken:
        dingtalk.take_then_fail("webhook", "500")
    else:
        dingtalk.fail("webhook", 1, 500)
    robot.send("I like window seats")
    _settle(robot, dingtalk, len(copies))
    assert [s.via for s in dingtalk.sent] == copies
    assert {s.text for s in dingtalk.sent} == {"Window seats, noted."}


@pytest.fixture
def quick_pauses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot.dingtalk.delivery, "BUSY_PAUSES", (0.05, 0.1))


@pytest.mark.usefixtures("quick_pauses")
@pytest.mark.parametrize("busy", ["503", "502", "too fast"])
def test_an_external_contact_is_answered_once_after_the_webhook_was_busy(
    robot: HTTPRobot, dingtalk: FakeDingTalkAPI, busy: str
) -> None:
    if busy == "too fast":
        dingtalk.webhook_too_fast(times=2)
    else:
        dingtalk.fail("webhook", times=2, status=int(busy))
    response, _ = robot.send("我出差只坐靠窗的座位", staff_id=None)
    assert response.status_code == 200
    _settle(robot, dingtalk, 1)
    [answer] = dingtalk.sent
    assert answer.via == "webhook" and answer.conversation == OUTSIDER_CHAT
    assert answer.text == t("outsider", "zh")
    assert len(dingtalk.rejected) == 2


@pytest.mark.usefixtures("quick_pauses")
def test_an_external_contacts_reply_is_given_up_after_three_busy_answers(
    robot: HTTPRobot, dingtalk: FakeDingTalkAPI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    dingtalk.fail("webhook", times=5, status=503)
    robot.send("我出差只坐靠窗的座位", staff_id=None)
    deadline = time.monotonic() + 15
    while not [r for r in caplog.records if r.levelno == logging.ERROR]:
        assert time.monotonic() < deadline, "the lost reply was never logged at ERROR"
        time.sleep(0.05)
    assert dingtalk.rejected == [("webhook", 503)] * 3
    assert dingtalk.sent == []
    assert t("outsider", "zh") not in "\n".join(r.getMessage() for r in caplog.records)


@pytest.mark.usefixtures("quick_pauses")
def test_a_staff_members_busy_webhook_hands_over_to_the_openapi_at_once(
    robot: HTTPRobot, scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    scripted_model.script("Window seats, noted.")
    dingtalk.fail("webhook", times=5, status=503)
    robot.send("我出差只坐靠窗的座位")
    _settle(robot, dingtalk, 1)
    [answer] = dingtalk.sent
    assert answer.via == "openapi" and "Window seats" in answer.text
    assert dingtalk.rejected == [("webhook", 503)]


@pytest.mark.usefixtures("quick_pauses")
def test_a_refusal_that_is_not_busy_is_not_asked_again(
    robot: HTTPRobot, dingtalk: FakeDingTalkAPI
) -> None:
    data = robot.message("我出差只坐靠窗的座位", staff_id=None)
    dingtalk.end_sessions()  # DingTalk ended it sooner than it said
    robot.post(data)
    deadline = time.monotonic() + 10
    while not dingtalk.rejected:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    robot.drain()
    time.sleep(0.3)
    assert dingtalk.rejected == [("webhook", 200)]  # "session 不存在": once, not three times
    assert dingtalk.sent == []
