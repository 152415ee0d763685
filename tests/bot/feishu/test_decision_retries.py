"""A decision Feishu did not take under Alice's plan card: the approver's card and toast
say she will be told, and she is, later, once, when Feishu rate-limited the reply
(99991400); when Feishu refuses for good (230002: the bot is out of the chat) the
approver is asked to tell her and Feishu is never asked again. lark-oapi's dispatcher
and client against the fake open API."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bot import compose
from bot.messages import t
from tests.bot.feishu.conftest import FeishuFactory
from tests.bot.feishu.test_approvals import ALICE, APPROVER, REASON, reason_form, submit_form, wait
from tests.support.feishu_api import FakeFeishuAPI
from tests.support.feishu_harness import FeishuHarness, buttons_of
from tests.support.feishu_harness import card_text as text_of
from tests.support.llm_server import ScriptedModel


def approved_while_failing(
    bot: FeishuHarness, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI, fail: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Alice asks; `fail()` steers Feishu; the approver approves. Her plan card, and the
    callback's answer to the approver's click."""
    card, form, submit = reason_form(bot, scripted_model, fake_feishu)
    submit_form(bot, ALICE, submit["value"], form["message_id"], REASON)
    [approval] = wait(lambda: fake_feishu.sent_to(APPROVER))
    fail()
    approve = buttons_of(approval["content"])["批准"]["value"]
    decided: dict[str, Any] = bot.click(APPROVER, approve, message_id=approval["message_id"]).json()
    return card, decided


def told(fake_feishu: FakeFeishuAPI, card: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in fake_feishu.replies_to(card["message_id"]) if "批准了" in str(m)]


def test_a_decision_feishu_rate_limited_is_told_later_once(
    make_feishu: FeishuFactory, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    bot = make_feishu(approval_tell_retry_seconds=1)
    bot.feishu.api._sleep = lambda seconds: None  # the waits still count against patience
    card, decided = approved_while_failing(
        bot,
        scripted_model,
        fake_feishu,  # HTTP 400, code 99991400, past the bot's 30 s of patience
        lambda: fake_feishu.rate_limit("reply", times=4, reset=10),
    )
    retrying = t("approval_traveller_retrying", "zh")
    assert decided["toast"]["type"] == "warning" and retrying in decided["toast"]["content"]
    assert retrying in text_of(decided["card"]["data"])
    assert "已批准" in text_of(decided["card"]["data"])
    assert told(fake_feishu, card) == []
    flows = compose.approval_flows(bot.core)
    assert flows.tell_expired() == 0  # not at once

    time.sleep(1.2)
    assert flows.tell_expired() == 1
    [reply] = told(fake_feishu, card)
    assert f"<at id={APPROVER}></at>" in text_of(reply["content"])
    time.sleep(2.5)
    assert flows.tell_expired() == 0 and len(told(fake_feishu, card)) == 1
    metric = "feishu_approval_decision_told_total"
    assert bot.core.metrics.value(metric, outcome="retry") == 1
    assert bot.core.metrics.value(metric, outcome="sent") == 1


def test_a_decision_feishu_refuses_for_good_is_not_tried_again(
    make_feishu: FeishuFactory,
    scripted_model: ScriptedModel,
    fake_feishu: FakeFeishuAPI,
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot = make_feishu(approval_tell_retry_seconds=1)
    card, decided = approved_while_failing(
        bot,
        scripted_model,
        fake_feishu,
        lambda: fake_feishu.fail("reply", 230002, "Bot/User can NOT be out of the chat."),
    )
    assert t("approval_traveller_not_delivered", "zh") in decided["toast"]["content"]
    assert "add the bot to the chat again" in caplog.text
    replies = len(fake_feishu.calls_to("reply"))

    time.sleep(2.5)
    flows = compose.approval_flows(bot.core)
    assert flows.tell_expired() == 0 and flows.tell_expired() == 0
    assert len(fake_feishu.calls_to("reply")) == replies and told(fake_feishu, card) == []
    metric = "feishu_approval_decision_told_total"
    assert bot.core.metrics.value(metric, outcome="unreachable") == 1
