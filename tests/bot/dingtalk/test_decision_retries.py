"""A decision DingTalk did not take: throttled (its QPS limit, past the robot's patience)
the approver reads that Alice will be told, and she is, later, once; refused for good
(Alice outside the robot's visible range) the approver is asked to tell her and DingTalk
is never asked again. The robot's HTTP callback and the fake OpenAPI."""

from __future__ import annotations

import time
from collections.abc import Callable

from bot import compose
from bot.channels import DINGTALK, SLACK
from bot.messages import t
from bot.settings import Settings
from tests.bot.dingtalk.test_approvals import APPROVER, REASON, _ask, wait
from tests.bot.dingtalk.test_plans import command_of
from tests.support.dingtalk_api import FakeDingTalkAPI, Sent
from tests.support.dingtalk_harness import HTTPRobot
from tests.support.llm_server import ScriptedModel

TOLD = "approved Shanghai"  # what Alice reads when her request is approved


def approved_while_failing(
    robot: HTTPRobot,
    scripted_model: ScriptedModel,
    dingtalk: FakeDingTalkAPI,
    fail: Callable[[], None],
) -> Sent:
    """Alice asks; `fail()` steers DingTalk; the approver approves. What they read."""
    reply = _ask(robot, scripted_model, dingtalk)
    robot.send(f"{reply} {REASON}")
    approval = wait(dingtalk, lambda s: s.users == (APPROVER,))
    fail()
    robot.send(command_of(approval.button_urls[0]), staff_id=APPROVER)
    return wait(dingtalk, lambda s: "Approved by @staff-approver" in s.text)


def told(dingtalk: FakeDingTalkAPI) -> int:
    return len([s for s in dingtalk.sent if TOLD in s.text])


def test_a_decision_dingtalk_throttled_is_told_later_once(
    make_robot: Callable[..., HTTPRobot], scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    robot = make_robot(approval_tell_retry_seconds=1)
    decided = approved_while_failing(
        robot, scripted_model, dingtalk, lambda: dingtalk.rate_limit("otm", times=4)
    )
    assert t("approval_traveller_retrying", "en") in decided.text
    assert told(dingtalk) == 0
    flows = compose.approval_flows(robot.core)
    assert flows.tell_expired() == 0  # not at once

    time.sleep(1.2)
    assert flows.tell_expired() == 1 and told(dingtalk) == 1
    time.sleep(2.5)
    assert flows.tell_expired() == 0 and told(dingtalk) == 1
    metric = "dingtalk_approval_decision_told_total"
    assert robot.core.metrics.value(metric, outcome="retry") == 1
    assert robot.core.metrics.value(metric, outcome="sent") == 1


def test_a_decision_dingtalk_refuses_for_good_is_not_tried_again(
    make_robot: Callable[..., HTTPRobot], scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    robot = make_robot(approval_tell_retry_seconds=1)
    decided = approved_while_failing(robot, scripted_model, dingtalk, dingtalk.invalid_staff)
    assert t("approval_traveller_not_delivered", "en") in decided.text
    asked = len(dingtalk.requests)

    time.sleep(2.5)
    flows = compose.approval_flows(robot.core)
    assert flows.tell_expired() == 0 and flows.tell_expired() == 0
    assert told(dingtalk) == 0 and len(dingtalk.requests) == asked  # not asked again
    metric = "dingtalk_approval_decision_told_total"
    assert robot.core.metrics.value(metric, outcome="unreachable") == 1


def test_a_decision_dingtalk_failed_after_sending_is_never_sent_again(
    make_robot: Callable[..., HTTPRobot], scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    """DingTalk sent Alice's message, then answered HTTP 500: the robot neither sends it
    again within the call nor on a later tick (she would read 'approved' twice); the
    approver reads that DingTalk did not confirm it, to check with her."""
    robot = make_robot(approval_tell_retry_seconds=1)
    decided = approved_while_failing(
        robot, scripted_model, dingtalk, lambda: dingtalk.take_then_fail("otm", "500")
    )
    assert t("approval_traveller_unconfirmed", "en") in decided.text
    assert told(dingtalk) == 1

    time.sleep(2.5)
    flows = compose.approval_flows(robot.core)
    assert flows.tell_expired() == 0 and flows.tell_expired() == 0
    assert told(dingtalk) == 1  # once, whatever the robot's retries
    metric = "dingtalk_approval_decision_told_total"
    assert robot.core.metrics.value(metric, outcome="unconfirmed") == 1


def test_a_dingtalk_only_deployment_knows_nobody_serves_slack_travellers(
    dingtalk_settings: Callable[..., Settings],
) -> None:
    """What the approver's card rests on (docs/travel-policy.md, step 5): the platforms
    some process serves are the configured ones, here DingTalk alone."""
    served = compose.core.served_platforms(dingtalk_settings())
    assert served == (DINGTALK,)
    slack_too = dingtalk_settings(slack_bot_token="xoxb-test", slack_signing_secret="s")
    assert compose.core.served_platforms(slack_too) == (SLACK, DINGTALK)
