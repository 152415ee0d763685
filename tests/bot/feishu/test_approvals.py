"""Approvals in Feishu through lark-oapi's dispatcher and the fake open API: *Save trip* on
an out-of-policy plan replies with a card form, its `form_value` asks the approver, who
gets a card; a stranger's click is refused, the approver's decides once, and the
traveller is told in the plan's thread; trips and approvals on SQLite and PostgreSQL."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bot import compose
from tests.bot.feishu.conftest import FeishuFactory
from tests.bot.feishu.test_plans import LATER, plan_call, plan_card
from tests.support import feishu_events as events
from tests.support.feishu_api import FakeFeishuAPI
from tests.support.feishu_harness import TENANT, VERIFICATION_TOKEN, FeishuHarness, buttons_of
from tests.support.feishu_harness import card_text as text_of
from tests.support.llm_server import ScriptedModel

ALICE, BOB, APPROVER = "ou_alice", "ou_bob", "ou_approver"
STRICT = """\
grades: {default: L1}
hotel_cap_per_night: {L1: {tier1: 100, tier2: 100, other: 100}}
approvers: [ou_approver]
"""
REASON = "客户办公室就在隔壁"


def submit_form(
    bot: FeishuHarness, user: str, value: dict[str, Any], message_id: str, reason: str
) -> dict[str, Any]:
    """The form's submit button, as Feishu calls back: the button's value and `form_value`."""
    body = events.card_action(
        token=VERIFICATION_TOKEN, tenant=TENANT, operator=user, value=value, message_id=message_id
    )
    body["event"]["action"] |= {"name": "submit", "form_value": {"reason": reason}}
    answer: dict[str, Any] = bot.post(body).json()
    return answer


def wait(found: Any, timeout: float = 15.0) -> list[dict[str, Any]]:
    deadline = time.monotonic() + timeout
    while True:
        items: list[dict[str, Any]] = found()
        if items or time.monotonic() > deadline:
            return items
        time.sleep(0.02)


def reason_form(
    bot: FeishuHarness, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Alice under the strict policy plans an out-of-policy trip and presses *Save trip*:
    her plan card, the reason form Feishu shows under it, and the form's submit button."""
    assert bot.core.policy is not None
    bot.core.policy.set(f"feishu:{TENANT}", STRICT, by="cli:ana")
    scripted_model.script(plan_call(return_date=LATER), "这是你的成都行程。")
    card = plan_card(bot, bot.dm(ALICE, "规划一下上海到成都的行程"))
    bot.click(
        ALICE, buttons_of(card["content"])["保存行程"]["value"], message_id=card["message_id"]
    )
    [form] = wait(
        lambda: [m for m in fake_feishu.replies_to(card["message_id"]) if "'form'" in str(m)]
    )
    [submit] = [b for label, b in buttons_of(form["content"]).items() if label == "提交审批"]
    return card, form, submit


@pytest.mark.parametrize("store", ["sqlite", "postgresql"])
def test_the_approval_round_trip_in_feishu(
    store: str,
    request: pytest.FixtureRequest,
    make_feishu: FeishuFactory,
    scripted_model: ScriptedModel,
    fake_feishu: FakeFeishuAPI,
) -> None:
    extra = {"trips_dsn": request.getfixturevalue("pg_schema_dsn")} if store != "sqlite" else {}
    bot = make_feishu(**extra)
    assert bot.core.policy is not None and bot.core.trips is not None
    bot.core.policy.set(f"feishu:{TENANT}", STRICT, by="cli:ana")
    scripted_model.script(plan_call(return_date=LATER), "这是你的成都行程。")
    sent = bot.dm(ALICE, "规划一下上海到成都的行程")
    card = plan_card(bot, sent)
    save = buttons_of(card["content"])["保存行程"]

    saved = bot.click(ALICE, save["value"], message_id=card["message_id"]).json()
    assert "超出差标" in saved["toast"]["content"]
    [form] = wait(
        lambda: [m for m in fake_feishu.replies_to(card["message_id"]) if "'form'" in str(m)]
    )
    [submit] = [b for label, b in buttons_of(form["content"]).items() if label == "提交审批"]
    [trip] = bot.core.trips.list(bot.namespace(ALICE))

    empty = submit_form(bot, ALICE, submit["value"], form["message_id"], " ")
    assert empty["toast"]["type"] == "error" and "请填写原因" in empty["toast"]["content"]
    asked = submit_form(bot, ALICE, submit["value"], form["message_id"], REASON)
    assert asked["toast"]["type"] == "success" and "已请" in asked["toast"]["content"]
    assert bot.core.trips.get(trip.id).state == "pending"  # type: ignore[union-attr]
    [approval] = wait(lambda: fake_feishu.sent_to(APPROVER))
    shown = text_of(approval["content"])
    assert REASON in shown and "超出差标" in shown and f"<at id={ALICE}></at>" in shown
    approve = buttons_of(approval["content"])["批准"]["value"]

    stranger = bot.click(BOB, approve, message_id=approval["message_id"]).json()
    assert stranger["toast"]["type"] == "error" and "审批人" in stranger["toast"]["content"]
    decided = bot.click(APPROVER, approve, message_id=approval["message_id"]).json()
    assert decided["toast"]["type"] == "success"
    assert "已批准" in text_of(decided["card"]["data"])
    assert "批准" not in buttons_of(decided["card"]["data"])
    assert bot.core.trips.get(trip.id).state == "approved"  # type: ignore[union-attr]
    [told] = wait(
        lambda: [m for m in fake_feishu.replies_to(card["message_id"]) if "批准了" in str(m)]
    )
    assert f"<at id={APPROVER}></at>" in text_of(told["content"])

    again = bot.click(APPROVER, approve, message_id=approval["message_id"]).json()
    assert "已处理过" in again["toast"]["content"]
    time.sleep(0.2)
    assert len([m for m in fake_feishu.replies_to(card["message_id"]) if "批准了" in str(m)]) == 1
    audit = bot.core.policy.audit.entries(f"feishu:{TENANT}")
    assert [e.kind for e in audit].count("approved") == 1
    assert [e.actor for e in audit if e.kind == "decision_refused"] == [bot.namespace(BOB)]


def test_approval_cards_lost_in_transport_are_sent_again_and_shown_once(
    make_feishu: FeishuFactory, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    """Feishu takes the approver's card, then the traveller's outcome, and each time the
    connection resets before it answers: each is sent again with the same uuid, and
    each person sees it once."""
    bot = make_feishu()
    assert bot.core.policy is not None
    bot.core.policy.set(f"feishu:{TENANT}", STRICT, by="cli:ana")
    scripted_model.script(plan_call(return_date=LATER), "这是你的成都行程。")
    card = plan_card(bot, bot.dm(ALICE, "规划一下上海到成都的行程"))
    save = buttons_of(card["content"])["保存行程"]
    bot.click(ALICE, save["value"], message_id=card["message_id"])
    [form] = wait(
        lambda: [m for m in fake_feishu.replies_to(card["message_id"]) if "'form'" in str(m)]
    )
    [submit] = [b for label, b in buttons_of(form["content"]).items() if label == "提交审批"]

    fake_feishu.take_then_reset("send")
    asked = submit_form(bot, ALICE, submit["value"], form["message_id"], REASON)
    assert asked["toast"]["type"] == "success" and "已请" in asked["toast"]["content"]
    [approval] = wait(lambda: fake_feishu.sent_to(APPROVER))
    sends = fake_feishu.calls_to("send")
    assert len(sends) == 2 and sends[0].body["uuid"] == sends[1].body["uuid"]

    fake_feishu.take_then_reset("reply")
    approve = buttons_of(approval["content"])["批准"]["value"]
    decided = bot.click(APPROVER, approve, message_id=approval["message_id"]).json()
    assert decided["toast"]["type"] == "success"
    told = wait(
        lambda: [m for m in fake_feishu.replies_to(card["message_id"]) if "批准了" in str(m)]
    )
    time.sleep(0.5)  # a second copy would come within it
    assert len(fake_feishu.sent_to(APPROVER)) == 1
    assert len([m for m in fake_feishu.replies_to(card["message_id"]) if "批准了" in str(m)]) == 1
    assert told


def test_when_feishu_never_answers_the_people_are_told_it_is_unconfirmed(
    make_feishu: FeishuFactory, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    """The approver's card and then the traveller's outcome are taken, and both tries of
    each reset: the card is there once (one uuid), and neither Alice nor the approver
    is told it went as if it surely had."""
    bot = make_feishu()
    card, form, submit = reason_form(bot, scripted_model, fake_feishu)

    fake_feishu.take_then_reset("send", times=2)
    asked = submit_form(bot, ALICE, submit["value"], form["message_id"], REASON)
    assert asked["toast"]["type"] == "warning" and "平台未确认" in asked["toast"]["content"]
    [approval] = fake_feishu.sent_to(APPROVER)
    metrics = bot.core.metrics
    assert metrics.value("feishu_approval_cards_total", outcome="unconfirmed") == 1

    fake_feishu.take_then_reset("reply", times=2)
    approve = buttons_of(approval["content"])["批准"]["value"]
    decided = bot.click(APPROVER, approve, message_id=approval["message_id"]).json()
    assert decided["toast"]["type"] == "warning"
    assert "平台未确认已通知出行人" in decided["toast"]["content"]
    assert "平台未确认已通知出行人" in text_of(decided["card"]["data"])
    assert len([m for m in fake_feishu.replies_to(card["message_id"]) if "批准了" in str(m)]) == 1
    assert metrics.value("feishu_approval_told_total", outcome="unconfirmed") == 1


def test_an_expiry_feishu_never_confirmed_in_the_plans_thread_is_told_once_directly(
    make_feishu: FeishuFactory, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    """Nobody decides and the request expires; the sweep's reply under Alice's plan card is
    taken and both tries reset (the same uuid: Feishu may show it): Alice is then told
    once one-to-one, in Chinese, why, what happened and what to do; later sweeps, in this
    process or another, tell her nothing more."""
    bot = make_feishu(approval_ttl_days=0.00002)  # 1.7 s
    card, form, submit = reason_form(bot, scripted_model, fake_feishu)
    submit_form(bot, ALICE, submit["value"], form["message_id"], REASON)
    wait(lambda: fake_feishu.sent_to(APPROVER))
    time.sleep(2.0)

    fake_feishu.take_then_reset("reply", times=2)
    assert compose.approval_flows(bot.core).sweep() == 1
    assert compose.approval_flows(bot.core).sweep() == 0
    in_thread = [m for m in fake_feishu.replies_to(card["message_id"]) if "已过期" in str(m)]
    assert len(in_thread) == 1  # Feishu kept one per uuid
    [direct] = [m for m in fake_feishu.sent_to(ALICE) if "已过期" in str(m)]
    shown = text_of(direct["content"])
    assert "无法确认" in shown and "重新保存行程" in shown
    metrics = bot.core.metrics
    assert metrics.value("feishu_approval_told_total", outcome="unconfirmed") == 1
    assert metrics.value("feishu_approval_expiry_direct_total", outcome="sent") == 1
