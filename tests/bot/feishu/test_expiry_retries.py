"""An expiry Feishu did not take, told under the plan card: tried again later when
Feishu failed for a passing reason, once; never again when Feishu refuses for good (the
bot out of the chat, Alice outside the app's availability), with the admin's fix logged.
lark-oapi's client against the fake open API."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bot import compose
from tests.bot.feishu.conftest import FeishuFactory
from tests.bot.feishu.test_approvals import (
    ALICE,
    APPROVER,
    REASON,
    reason_form,
    submit_form,
    wait,
)
from tests.bot.feishu.test_expiry_telling import told_in_thread
from tests.support.feishu_api import FakeFeishuAPI
from tests.support.feishu_harness import FeishuHarness
from tests.support.llm_server import ScriptedModel

SETTINGS = {"approval_ttl_days": 0.00002, "approval_tell_retry_seconds": 1}


def expired(
    make_feishu: FeishuFactory, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> tuple[FeishuHarness, dict[str, Any]]:
    """Alice asked for an approval under her plan card; nobody decided; it expired (the
    clock's sweep, which tells nobody). The bot and her plan card."""
    bot = make_feishu(**SETTINGS)
    card, form, submit = reason_form(bot, scripted_model, fake_feishu)
    submit_form(bot, ALICE, submit["value"], form["message_id"], REASON)
    wait(lambda: fake_feishu.sent_to(APPROVER))
    time.sleep(2.0)
    assert bot.core.approvals is not None and len(bot.core.approvals.expire_due()) == 1
    return bot, card


def direct(fake_feishu: FakeFeishuAPI) -> list[dict[str, Any]]:
    return [m for m in fake_feishu.sent_to(ALICE) if "已过期" in str(m)]


def test_feishu_failing_for_a_while_alice_is_told_later_once(
    make_feishu: FeishuFactory, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    bot, card = expired(make_feishu, scripted_model, fake_feishu)
    fake_feishu.fail("reply", 1500, "internal error")  # Feishu: try again later
    fake_feishu.fail("send", 1500, "internal error")
    flows = compose.approval_flows(bot.core)
    assert flows.tell_expired() == 1
    assert told_in_thread(fake_feishu, card) == [] and direct(fake_feishu) == []
    assert flows.tell_expired() == 0  # not at once

    time.sleep(1.2)
    assert flows.tell_expired() == 1
    assert len(told_in_thread(fake_feishu, card)) == 1
    time.sleep(2.5)
    assert flows.tell_expired() == 0
    assert len(told_in_thread(fake_feishu, card)) == 1 and direct(fake_feishu) == []


def test_feishu_refusing_for_good_is_not_tried_again_and_the_log_says_what_to_fix(
    make_feishu: FeishuFactory,
    scripted_model: ScriptedModel,
    fake_feishu: FakeFeishuAPI,
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot, card = expired(make_feishu, scripted_model, fake_feishu)
    fake_feishu.fail("reply", 230002, "Bot/User can NOT be out of the chat.")
    fake_feishu.fail("send", 230013, "Bot has NO availability to this user.")
    flows = compose.approval_flows(bot.core)
    assert flows.tell_expired() == 1
    asked = len(fake_feishu.calls_to("reply")) + len(fake_feishu.calls_to("send"))
    assert "add the bot to the chat again" in caplog.text
    assert "app's availability" in caplog.text

    time.sleep(2.5)
    assert flows.tell_expired() == 0
    assert len(fake_feishu.calls_to("reply")) + len(fake_feishu.calls_to("send")) == asked
    assert told_in_thread(fake_feishu, card) == [] and direct(fake_feishu) == []
    metric = "feishu_approval_expiry_told_total"
    assert bot.core.metrics.value(metric, outcome="unreachable") == 1
