"""A command's answer DingTalk will not take: the person is told why, in their language,
by what still works; an answer DingTalk may already show is not sent again; when nothing
can reach the person it is counted. Signed robot messages to the real HTTP robot; DingTalk
is the fake OpenAPI and session webhooks, steered to its documented error answers."""

from __future__ import annotations

import time

from bot.messages import t
from tests.support.dingtalk_api import FakeDingTalkAPI
from tests.support.dingtalk_harness import GROUP, HTTPRobot

ALICE = "staff-alice"
RED_EYE = "I never take red-eye flights"
REFUSED = "InvalidParameter.MsgParam"  # DingTalk refusing the message itself


def _undelivered(robot: HTTPRobot, reason: str, *, wait: bool = True) -> float:
    deadline = time.monotonic() + 30
    while True:
        value = robot.core.metrics.value("dingtalk_command_undelivered_total", reason=reason)
        if value or not wait or time.monotonic() > deadline:
            return value
        time.sleep(0.02)


def test_an_answer_refused_every_way_is_followed_by_why(
    robot: HTTPRobot, dingtalk: FakeDingTalkAPI
) -> None:
    robot.core.memory.record(robot.namespace(ALICE), [RED_EYE])
    dingtalk.fail("webhook", status=500)  # the session webhook fails...
    dingtalk.refuse("otm", REFUSED)  # ...and the OpenAPI refuses the card
    robot.send("/travel-prefs show")
    [notice] = robot.answers()
    assert notice.users == (ALICE,) and notice.via == "openapi"
    assert notice.text == t("dingtalk_command_failed", "en", code=REFUSED)
    assert RED_EYE not in notice.text
    assert _undelivered(robot, "failed") == 1


def test_a_group_answer_still_rate_limited_says_try_again_in_chinese(
    robot: HTTPRobot, dingtalk: FakeDingTalkAPI
) -> None:
    dingtalk.rate_limit("group", times=4)  # as long as the robot waits
    robot.send("偏好帮助", group=True, webhook_expires_in=-1)
    [notice] = robot.answers()
    assert notice.conversation == GROUP
    assert notice.text == t("dingtalk_command_busy", "zh")
    assert dingtalk.rejected.count(("group", 403)) == 4
    assert _undelivered(robot, "busy") == 1


def test_a_person_the_robot_may_not_write_to_is_counted_and_nothing_is_sent(
    robot: HTTPRobot, dingtalk: FakeDingTalkAPI
) -> None:
    dingtalk.invalid_staff()
    robot.send("/travel-prefs help", webhook_expires_in=-1)
    assert _undelivered(robot, "unreachable") == 1
    assert dingtalk.sent == []
    assert dingtalk.rejected == [("otm", 200)]  # no notice tried where none can land


def test_an_answer_lost_after_dingtalk_took_it_is_not_sent_again(
    robot: HTTPRobot, dingtalk: FakeDingTalkAPI
) -> None:
    dingtalk.take_then_fail("otm", "reset")
    robot.send("/travel-prefs help", webhook_expires_in=-1)
    [answer] = robot.answers()
    assert answer.text == t("dingtalk_prefs_help", "en")
    robot.core.pools.tasks.shutdown(wait=True)
    assert len(dingtalk.sent) == 1
    assert _undelivered(robot, "failed", wait=False) == 0


def test_when_the_notice_fails_too_nothing_more_is_tried(
    robot: HTTPRobot, dingtalk: FakeDingTalkAPI
) -> None:
    dingtalk.refuse("otm", "Forbidden.AccessDenied.AccessTokenPermissionDenied", 403, times=2)
    robot.send("/travel-prefs help", webhook_expires_in=-1)
    assert _undelivered(robot, "failed") == 1
    robot.core.pools.tasks.shutdown(wait=True)
    assert dingtalk.sent == [] and dingtalk.rejected == [("otm", 403)] * 2


def test_a_private_answer_that_arrived_is_not_called_lost_when_the_group_note_fails(
    robot: HTTPRobot, dingtalk: FakeDingTalkAPI
) -> None:
    robot.core.memory.record(robot.namespace(ALICE), [RED_EYE])
    dingtalk.fail("webhook", status=500)  # the group's session webhook fails...
    dingtalk.refuse("group", REFUSED)  # ...and the OpenAPI refuses the note in the group
    robot.send("/travel-prefs show", group=True)
    [private] = robot.answers()
    assert private.users == (ALICE,) and RED_EYE in private.text
    robot.core.pools.tasks.shutdown(wait=True)
    assert dingtalk.sent == [private]  # no "your answer was lost" in the group
    assert _undelivered(robot, "failed", wait=False) == 0


def test_a_private_answer_dingtalk_may_have_taken_is_not_called_failed_in_the_group(
    robot: HTTPRobot, dingtalk: FakeDingTalkAPI
) -> None:
    robot.core.memory.record(robot.namespace(ALICE), [RED_EYE])
    dingtalk.take_then_fail("otm", "reset")
    robot.send("/travel-prefs show", group=True)
    sent = robot.answers(2)
    note = next(s for s in sent if s.conversation == GROUP)
    assert note.text == t("dingtalk_prefs_private", "en")  # not "prefs_private_failed"
    robot.core.pools.tasks.shutdown(wait=True)
    assert len(dingtalk.sent) == 2
