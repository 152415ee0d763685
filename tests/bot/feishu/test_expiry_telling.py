"""The Procfile's layout in Feishu: the `clock` expires an approval request and holds no
channel; the serving process's own loop tells the traveller under her plan card, through
lark-oapi's dispatcher and the fake open API, once, also across a restart."""

from __future__ import annotations

import time
from typing import Any

from bot import compose
from bot.compose.parts import start_warm_clock
from tests.bot.feishu.conftest import FeishuFactory
from tests.bot.feishu.test_approvals import (
    ALICE,
    APPROVER,
    REASON,
    reason_form,
    submit_form,
    wait,
)
from tests.support.feishu_api import FakeFeishuAPI
from tests.support.feishu_harness import FeishuHarness
from tests.support.feishu_harness import card_text as text_of
from tests.support.llm_server import ScriptedModel


def told_in_thread(fake_feishu: FakeFeishuAPI, card: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in fake_feishu.replies_to(card["message_id"]) if "已过期" in str(m)]


def loop_ticks(bot: FeishuHarness, n: int) -> None:
    """The loop `travel-bot feishu` / `serve` starts, run for `n` ticks, then stopped."""
    teller = compose.start_expiry_teller(bot.settings, bot.core)
    assert teller is not None
    deadline = time.monotonic() + 30
    try:
        while teller.ticks < n:
            assert time.monotonic() < deadline, "the loop stopped ticking"
            time.sleep(0.05)
    finally:
        teller.stop()


def test_a_request_the_clock_expired_is_told_under_the_plan_once_by_the_serving_loop(
    make_feishu: FeishuFactory, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    settings = {"approval_ttl_days": 0.00002, "approval_tell_interval_seconds": 1}
    bot = make_feishu(**settings)
    card, form, submit = reason_form(bot, scripted_model, fake_feishu)
    submit_form(bot, ALICE, submit["value"], form["message_id"], REASON)
    wait(lambda: fake_feishu.sent_to(APPROVER))
    time.sleep(2.0)

    clock = start_warm_clock(bot.settings, bot.core.memory)  # `travel-bot clock`'s tick
    try:
        assert clock.ran.wait(30)
    finally:
        clock.stop()
    assert told_in_thread(fake_feishu, card) == []  # the clock tells nobody

    loop_ticks(bot, 2)
    [told] = told_in_thread(fake_feishu, card)
    shown = text_of(told["content"])
    assert "已过期" in shown and "重新保存行程" in shown

    loop_ticks(make_feishu(**settings), 2)  # a restarted process
    assert len(told_in_thread(fake_feishu, card)) == 1
    assert [m for m in fake_feishu.sent_to(ALICE) if "已过期" in str(m)] == []
