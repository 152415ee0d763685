"""Plans in Feishu: the scored card, *Save trip*, and travel admins planning for a colleague."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from typing import Any

from tests.bot.feishu.conftest import FeishuFactory
from tests.support.feishu_api import FakeFeishuAPI
from tests.support.feishu_harness import FeishuHarness, FeishuSent, buttons_of, card_text
from tests.support.llm_server import ScriptedModel

ALICE, BOB, ADMIN, ZHANG = "ou_alice", "ou_bob", "ou_admin", "ou_zhangsan"
SOON = (date.today() + timedelta(days=1)).isoformat()
LATER = (date.today() + timedelta(days=3)).isoformat()


def plan_call(origin: str = "上海", destination: str = "成都", **extra: Any) -> list[Any]:
    args = {"origin": origin, "destination": destination, "depart_date": SOON, **extra}
    return [("plan_itinerary", args)]


def retrieve_call() -> list[Any]:
    return [("retrieve_from_memory", {"keywords": ["trip", "成都"]})]


def offered_tools(request: dict[str, Any]) -> set[str]:
    return {tool["function"]["name"] for tool in request.get("tools", [])}


def plan_card(bot: FeishuHarness, sent: FeishuSent) -> dict[str, Any]:
    """The card under the answer (the second reply in the thread)."""
    replies = bot.replies(sent, count=2)
    return replies[1]


def test_a_plan_card_shows_scores_and_whose_memory_and_saves_once_for_the_traveller(
    feishu: FeishuHarness, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    alice = feishu.namespace(ALICE)
    feishu.core.memory.record(alice, ["I never take red-eye flights"])
    scripted_model.script(retrieve_call(), plan_call(return_date=LATER), "这是你的成都行程。")
    sent = feishu.dm(ALICE, "规划一下上海到成都的行程")
    assert "成都行程" in feishu.reply_text(sent)
    card = plan_card(feishu, sent)
    shown = card_text(card["content"])
    assert "上海 → 成都" in shown
    assert "演示数据：以下班次和价格均为虚构" in shown  # whatever the model wrote
    assert "**" in shown and "去程" in shown and "酒店" in shown  # scored, by leg
    assert "使用的偏好" not in shown  # the writer's own plan
    save = buttons_of(card["content"])["保存行程"]
    assert feishu.core.trips is not None

    # Someone else's click saves nothing, and says so at once.
    refused = feishu.click(BOB, save["value"], message_id=card["message_id"])
    assert refused.status_code == 200
    assert refused.json()["toast"]["type"] == "error"
    assert "只有出行人本人" in refused.json()["toast"]["content"]
    assert feishu.core.trips.list(alice) == []

    saved = feishu.click(ALICE, save["value"], message_id=card["message_id"])
    answer = saved.json()
    assert answer["toast"]["content"] == "行程已保存。"
    new_card = answer["card"]["data"]
    assert f"<at id={ALICE}></at> 已保存此行程" in card_text(new_card)
    assert "保存行程" not in buttons_of(new_card)
    assert "去程" in card_text(new_card)  # the scores are still shown
    [trip] = feishu.core.trips.list(alice)
    assert (trip.origin, trip.destination, trip.start_date.isoformat()) == (
        "Shanghai",
        "Chengdu",
        SOON,
    )
    # A saved trip feeds cache warming, as on Slack.
    assert alice in set(feishu.core.trips.due(datetime.now(UTC), 72))

    again = feishu.click(ALICE, save["value"], message_id=card["message_id"]).json()
    assert "之前已经保存过了" in again["toast"]["content"]
    assert len(feishu.core.trips.list(alice)) == 1


def test_an_admin_plans_for_a_colleague_with_their_memory_and_writes_nothing(
    make_feishu: FeishuFactory, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    bot = make_feishu(feishu_admin_open_ids=f"ou_other, {ADMIN}")
    zhang = bot.namespace(ZHANG)
    bot.core.memory.record(zhang, ["出差从不坐红眼航班"])
    before = bot.core.memory.export(zhang)["items"]
    scripted_model.script(retrieve_call(), plan_call(), "已为张三规划好成都行程，避开了红眼航班。")
    sent = bot.group(ADMIN, "给 {0} 规划 12月10日 上海到成都的行程", mentions=[(ZHANG, "张三")])
    assert "已为张三" in bot.reply_text(sent)

    first = scripted_model.requests[0]
    assert "record_to_memory" not in offered_tools(first)
    user_turns = [m["content"] for m in first["messages"] if m["role"] == "user"]
    assert user_turns == [f"给 <@{ZHANG}> 规划 12月10日 上海到成都的行程"]
    results = [m["content"] for m in scripted_model.last_request["messages"] if m["role"] == "tool"]
    assert "红眼" in results[0]  # Zhang's memory, recalled for the admin
    card = card_text(plan_card(bot, sent)["content"])
    assert f"使用的偏好：<at id={ZHANG}></at> 的偏好。" in card
    assert f"已保存到 <at id={ZHANG}></at> 的行程" in card
    assert bot.core.memory.export(zhang)["items"] == before
    assert bot.core.memory.items(bot.namespace(ADMIN)) == []
    assert bot.core.trips is not None
    [trip] = bot.core.trips.list(zhang)
    assert trip.created_by == bot.namespace(ADMIN)


def test_anyone_else_planning_for_a_colleague_is_refused_and_nothing_is_read(
    make_feishu: FeishuFactory, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    bot = make_feishu(feishu_admin_open_ids=ADMIN)
    bot.core.memory.record(bot.namespace(ZHANG), ["出差从不坐红眼航班"])
    sent = bot.group(BOB, "给 {0} 规划 12月10日 上海到成都的行程", mentions=[(ZHANG, "张三")])
    fake_feishu.wait_for("send", ok=True, timeout=15)
    [refusal] = fake_feishu.sent_to(BOB)  # to the writer alone
    text = card_text(refusal["content"])
    assert "只有差旅管理员" in text and f"<at id={ZHANG}></at>" in text
    bot.drain()
    assert scripted_model.requests == []  # the agent never ran: nothing of Zhang was read
    assert fake_feishu.replies_to(sent.message_id) == []


def test_the_plan_card_never_renders_markup_from_the_inventory_or_the_model(
    feishu: FeishuHarness, scripted_model: ScriptedModel
) -> None:
    scripted_model.script(plan_call(preferences="<at id=all></at> [x](https://evil.test)"), "OK.")
    sent = feishu.dm(ALICE, "plan Shanghai to Chengdu")
    feishu.reply_text(sent)
    card = json.dumps(plan_card(feishu, sent)["content"], ensure_ascii=False)
    assert "<at id=all>" not in card and "](https://evil.test)" not in card


def test_a_second_save_is_said_in_a_toast_and_posts_nothing_again(
    feishu: FeishuHarness, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    """Feishu's cards save by their button, in a chat or a group alike: no card tells the
    traveller to type `保存行程 CODE` (Slack and DingTalk do where a button cannot work),
    so the second save Alice can make is a click on a copy still showing the button. She
    reads "already saved" in the toast; neither the plan nor a line is posted again, and
    the trip is saved once."""
    alice = feishu.namespace(ALICE)
    scripted_model.script(plan_call(return_date=LATER), "这是你的成都行程。")
    sent = feishu.group(ALICE, "规划一下上海到成都的行程")
    card = plan_card(feishu, sent)
    shown = card_text(card["content"])
    assert "上海 → 成都" in shown
    assert "保存行程 " not in shown and "save trip" not in shown.lower()  # no code to type
    save = buttons_of(card["content"])["保存行程"]
    first = feishu.click(ALICE, save["value"], message_id=card["message_id"]).json()
    assert first["toast"]["content"] == "行程已保存。"
    posted = len(fake_feishu.calls_to("reply")) + len(fake_feishu.calls_to("send"))

    again = feishu.click(ALICE, save["value"], message_id=card["message_id"]).json()
    assert "之前已经保存过了" in again["toast"]["content"]
    assert "保存行程" not in buttons_of(again["card"]["data"])
    feishu.drain()
    assert len(fake_feishu.calls_to("reply")) + len(fake_feishu.calls_to("send")) == posted
    assert feishu.core.trips is not None and len(feishu.core.trips.list(alice)) == 1
