"""Trip plans through the real Bolt app: preference scores, admins planning for a
colleague, non-admins refused, and the "Save trip" button."""

from __future__ import annotations

import copy
import json
import re
import time
import uuid
from datetime import date, timedelta
from typing import Any
from urllib.parse import urlencode

import httpx

from bot.messages import t
from tests.bot.conftest import BotFactory
from tests.support.llm_server import ScriptedModel
from tests.support.slack_api import FakeSlackAPI
from tests.support.slack_harness import API_APP_ID, CHANNEL, BotHarness, Sent
from tests.support.slack_payloads import open_home, published_home, texts

ALICE, BOB, ADMIN = "U0ALICE", "U0BOB", "U0ADMIN"
DEPART = (date.today() + timedelta(days=30)).isoformat()
RETURN = (date.today() + timedelta(days=32)).isoformat()


def plan_call(origin: str = "上海", destination: str = "成都", **extra: Any) -> list[Any]:
    args = {"origin": origin, "destination": destination, "depart_date": DEPART, **extra}
    return [("plan_itinerary", args)]


def retrieve_call() -> list[Any]:
    return [("retrieve_from_memory", {"keywords": ["trip", "Chengdu"]})]


def tool_results(request: dict[str, Any]) -> list[str]:
    return [str(m.get("content")) for m in request["messages"] if m.get("role") == "tool"]


def offered_tools(request: dict[str, Any]) -> set[str]:
    return {tool["function"]["name"] for tool in request.get("tools", [])}


def the_plan(model: ScriptedModel) -> dict[str, Any]:
    [result] = [r for r in tool_results(model.last_request) if r.startswith('{"route"')]
    plan: dict[str, Any] = json.loads(result)
    return plan


def click(bot: BotHarness, user: str, message: dict[str, Any], channel: str) -> httpx.Response:
    [button] = [
        element
        for block in message["blocks"]
        if block["type"] == "actions"
        for element in block["elements"]
    ]
    payload = {
        "type": "block_actions",
        "team": {"id": bot.team_id, "domain": "travel-test"},
        "user": {"id": user, "team_id": bot.team_id, "username": user.lower()},
        "api_app_id": API_APP_ID,
        "token": "legacy-verification-token",
        "trigger_id": f"{uuid.uuid4().int % 10**10}.{uuid.uuid4().hex[:12]}",
        "container": {"type": "message", "message_ts": message["ts"], "channel_id": channel},
        "channel": {"id": channel, "name": "travel"},
        "message": message,
        "response_url": bot.slack.response_url(),
        "actions": [
            {
                "type": "button",
                "action_id": button["action_id"],
                "block_id": "save_trip_block",
                "value": button["value"],
                "action_ts": f"{time.time():.6f}",
            }
        ],
    }
    body = urlencode({"payload": json.dumps(payload)}).encode()
    return bot.post(body, "application/x-www-form-urlencoded")


def plan_messages(bot: BotHarness, sent: Sent) -> list[dict[str, Any]]:
    """The messages in the thread that show a plan (not the answers, under which the
    only blocks are the feedback buttons)."""
    messages = bot.slack.posted(sent.channel, sent.thread_ts)
    return [m for m in messages if m.get("blocks") and m["blocks"][-1]["type"] != "context_actions"]


def save_message(bot: BotHarness, sent: Sent) -> dict[str, Any]:
    """The follow-up message under the plan (the second reply in the thread)."""
    bot.answers(sent, count=2)
    [message] = plan_messages(bot, sent)
    return copy.deepcopy(message)  # as first posted, before any update


def test_a_traveller_who_avoids_red_eyes_sees_them_scored_lowest(
    bot: BotHarness, scripted_model: ScriptedModel
) -> None:
    bot.core.memory.record(bot.namespace(ALICE), ["I never take red-eye flights"])
    scripted_model.script(
        retrieve_call(),
        plan_call("Shanghai", "Chengdu", preferences="Avoids red-eye flights."),
        "Your Chengdu plan: a morning flight; I skipped the red-eye.",
    )
    sent = bot.dm(ALICE, "plan my trip from Shanghai to Chengdu")
    assert "skipped the red-eye" in bot.reply_text(sent)

    plan = the_plan(scripted_model)
    assert plan["demo_data"] is True
    outbound = plan["legs"]["outbound"]
    [red_eye] = outbound["ruled_out"]
    assert red_eye["basis"] == "Red-eye flight; the traveller avoids red-eyes"
    assert red_eye["score"] < min(row["score"] for row in outbound["options"])
    message = save_message(bot, sent)
    assert "Shanghai → Chengdu" in message["text"]
    # The model's answer never mentioned demo data; the follow-up says it regardless.
    blocks = json.dumps(message["blocks"])
    assert "Demo data: these schedules and prices are made up" in blocks
    assert "Preferences used" not in blocks  # the writer's own plan


def test_without_preferences_every_candidate_scores_the_same(
    bot: BotHarness, scripted_model: ScriptedModel
) -> None:
    scripted_model.script(retrieve_call(), plan_call(), "这是你的成都行程。")
    sent = bot.dm(BOB, "帮我规划下个月从上海去成都的行程")
    assert "成都行程" in bot.reply_text(sent)
    plan = the_plan(scripted_model)
    rows = [row for leg in plan["legs"].values() for row in leg["options"]]
    assert {row["score"] for row in rows} == {50}
    assert all("暂无该出行人的偏好记录" in row["basis"] for row in rows)


def test_an_admin_plans_with_the_travellers_memory_and_writes_nothing(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    bot = make_bot(travel_admin_user_ids=ADMIN)
    alice = bot.namespace(ALICE)
    bot.core.memory.record(alice, ["I never take red-eye flights"])
    before = bot.core.memory.export(alice)["items"]
    scripted_model.script(
        retrieve_call(),
        plan_call("Shanghai", "Chengdu", return_date=RETURN),
        "Here is <@U0ALICE>'s plan, using her preferences: no red-eyes.",
    )
    sent = bot.mention(
        ADMIN, f"plan a trip for <@{ALICE}> from Shanghai to Chengdu on {DEPART} to {RETURN}"
    )
    assert "<@U0ALICE>'s plan" in bot.reply_text(sent)

    first = scripted_model.requests[0]
    assert "record_to_memory" not in offered_tools(first)
    assert {"retrieve_from_memory", "plan_itinerary"} <= offered_tools(first)
    results = tool_results(scripted_model.last_request)
    assert "red-eye" in results[0]  # Alice's memory, recalled for the admin's request
    plan = the_plan(scripted_model)
    assert plan["preferences_of"] == f"<@{ALICE}>"
    assert plan["legs"]["outbound"]["ruled_out"][0]["basis"].startswith("Red-eye flight")

    # Nothing was written to anyone's memory; the trip was saved for Alice.
    assert bot.core.memory.export(alice)["items"] == before
    assert bot.core.memory.items(bot.namespace(ADMIN)) == []
    message = save_message(bot, sent)
    assert f"Saved to <@{ALICE}>'s trips" in json.dumps(message["blocks"])
    notes = [
        element["text"]
        for block in message["blocks"]
        if block["type"] == "context"
        for element in block["elements"]
    ]
    assert notes[:2] == [
        "Demo data: these schedules and prices are made up, not bookable offers.",
        f"Preferences used: <@{ALICE}>'s.",
    ]
    assert bot.core.trips is not None
    [trip] = bot.core.trips.list(alice)
    assert (trip.origin, trip.destination, trip.start_date.isoformat()) == (
        "Shanghai",
        "Chengdu",
        DEPART,
    )
    assert trip.end_date is not None and trip.end_date.isoformat() == RETURN
    assert trip.created_by == bot.namespace(ADMIN)


def test_an_admin_from_the_user_group_may_plan_in_chinese(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    slack.add_usergroup("S0TRAVEL", [ADMIN], handle="travel-admins")
    bot = make_bot(travel_admin_usergroup_id="S0TRAVEL")
    scripted_model.script(plan_call(), "已为 <@U0ALICE> 规划好成都行程。")
    sent = bot.mention(ADMIN, f"给<@{ALICE}>规划{DEPART}从上海到成都的出差")
    assert "已为" in bot.reply_text(sent)
    assert "record_to_memory" not in offered_tools(scripted_model.requests[0])
    assert the_plan(scripted_model)["preferences_of"] == f"<@{ALICE}>"
    blocks = json.dumps(save_message(bot, sent)["blocks"], ensure_ascii=False)
    assert "演示数据：以下班次和价格均为虚构" in blocks
    assert f"使用的偏好：<@{ALICE}> 的偏好。" in blocks


def test_a_non_admin_asking_for_someone_else_is_refused_privately(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    bot = make_bot(travel_admin_user_ids=ADMIN)
    bot.core.memory.record(bot.namespace(ALICE), ["I never take red-eye flights"])
    sent = bot.mention(BOB, f"plan a trip for <@{ALICE}> from Shanghai to Chengdu on {DEPART}")
    [refusal] = slack.wait_for("chat.postEphemeral", timeout=10)
    assert refusal.args["user"] == BOB and refusal.args["channel"] == CHANNEL
    assert "only travel admins" in refusal.args["text"]
    assert "<@U0ALICE>" in refusal.args["text"]
    bot.drain()
    assert scripted_model.requests == []  # the agent never ran, so nothing was read
    assert slack.posted(sent.channel, sent.thread_ts) == []


def test_save_trip_button_saves_once_and_only_for_the_traveller(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    scripted_model.script(plan_call(return_date=RETURN), "这是你的成都行程。")
    sent = bot.dm(ALICE, "规划一下上海到成都的行程")
    message = save_message(bot, sent)
    assert "保存行程" in json.dumps(message["blocks"], ensure_ascii=False)
    assert bot.core.trips is not None

    assert click(bot, BOB, message, sent.channel).status_code == 200
    [denied] = slack.wait_for("chat.postEphemeral")
    assert denied.args["user"] == BOB and "只有出行人本人" in denied.args["text"]
    assert bot.core.trips.list(bot.namespace(ALICE)) == []

    assert click(bot, ALICE, message, sent.channel).status_code == 200
    [update] = slack.wait_for("chat.update")
    assert update.args["ts"] == message["ts"] and "已保存此行程" in update.args["text"]
    assert "演示数据" in json.dumps(update.args["blocks"], ensure_ascii=False)  # still said
    [trip] = bot.core.trips.list(bot.namespace(ALICE))
    assert (trip.destination, trip.origin) == ("Chengdu", "Shanghai")  # matched by these
    # App Home lists it in the traveller's words, as the plan said it ("Shanghai → Chengdu").
    slack.add_user(ALICE, locale="zh-CN")
    open_home(bot, ALICE)
    assert f"上海 → 成都, {DEPART} – {RETURN}" in texts(published_home(slack, ALICE))

    assert click(bot, ALICE, message, sent.channel).status_code == 200
    slack.wait_for("chat.update", count=2)
    assert "之前已经保存过了" in slack.calls_to("chat.update")[-1].args["text"]
    assert len(bot.core.trips.list(bot.namespace(ALICE))) == 1


def test_a_trip_saved_from_chat_keeps_the_city_as_the_traveller_typed_it(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    """A message naming "Shanghai" and "成都": the plan's route names both cities in one
    language (the model's and the planner's words), and the trip was saved "as typed" in
    those words. The traveller's own forms are kept (on the card, in App Home), and the
    trip is matched by the catalogue's names as before."""
    scripted_model.script(plan_call("Shanghai", "Chengdu"), "Here is your 成都 plan.")
    sent = bot.dm(ALICE, f"plan my trip from Shanghai to 成都 on {DEPART}")
    message = save_message(bot, sent)
    assert "Shanghai → 成都" in message["text"]
    assert click(bot, ALICE, message, sent.channel).status_code == 200
    slack.wait_for("chat.update")
    assert bot.core.trips is not None
    [trip] = bot.core.trips.list(bot.namespace(ALICE))
    assert (trip.destination, trip.origin) == ("Chengdu", "Shanghai")  # matched by these
    assert (trip.shown_destination, trip.shown_origin) == ("成都", "Shanghai")  # as typed
    open_home(bot, ALICE)
    assert f"Shanghai → 成都, {DEPART}" in texts(published_home(slack, ALICE))
    # The same city named again in its English name is the same trip, saved once.
    scripted_model.script(plan_call("上海", "成都"), "Again.")
    again = bot.dm(ALICE, f"and once more, Shanghai to Chengdu on {DEPART}")
    assert click(bot, ALICE, save_message(bot, again), again.channel).status_code == 200
    slack.wait_for("chat.update", count=2)
    assert [t.shown_destination for t in bot.core.trips.list(bot.namespace(ALICE))] == ["成都"]


def test_a_plan_names_the_city_not_the_airport_the_traveller_also_named(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    """A message naming 伦敦 and its airport 希思罗 (an alias, and the longer one): the
    card and the saved trip named the airport as the destination."""
    scripted_model.script(plan_call("Shanghai", "London"), "Here is your London plan.")
    sent = bot.dm(ALICE, f"{DEPART} 从上海飞伦敦，希思罗机场进")
    message = save_message(bot, sent)
    assert "上海 → 伦敦" in message["text"] and "希思罗 " not in message["text"]
    assert click(bot, ALICE, message, sent.channel).status_code == 200
    slack.wait_for("chat.update")
    assert bot.core.trips is not None
    [trip] = bot.core.trips.list(bot.namespace(ALICE))
    assert (trip.shown_origin, trip.shown_destination) == ("上海", "伦敦")


def test_an_admins_follow_up_in_the_thread_still_plans_for_the_colleague(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    bot = make_bot(travel_admin_user_ids=ADMIN)
    alice = bot.namespace(ALICE)
    bot.core.memory.record(alice, ["I never take red-eye flights"])
    scripted_model.script(plan_call(), "Plan for <@U0ALICE> ready.")
    sent = bot.mention(ADMIN, f"plan a trip for <@{ALICE}> from Shanghai to Chengdu on {DEPART}")
    bot.answers(sent, count=2)
    deadline = time.monotonic() + 10  # the turn is kept in the thread right after posting
    while not bot.core.threads.knows(f"{bot.team_id}:{sent.channel}:{sent.thread_ts}"):
        assert time.monotonic() < deadline
        time.sleep(0.02)
    asked = len(scripted_model.requests)

    # No new mention: the admin is still planning for Alice, with her memory, read-only.
    scripted_model.script(retrieve_call(), "Moved it a day later.")
    bot.channel_message(ADMIN, "make it one day later please", thread_ts=sent.thread_ts)
    bot.answers(sent, count=3)
    follow_up = scripted_model.requests[asked]
    assert "record_to_memory" not in offered_tools(follow_up)
    assert "red-eye" in tool_results(scripted_model.last_request)[-1]

    # Someone else in that thread speaks for themselves and never reads Alice's memory.
    asked = len(scripted_model.requests)
    scripted_model.script(retrieve_call(), "Nothing remembered for you yet.")
    bot.channel_message(BOB, "what do you know about my travel?", thread_ts=sent.thread_ts)
    bot.answers(sent, count=4)
    assert "record_to_memory" in offered_tools(scripted_model.requests[asked])
    assert "red-eye" not in tool_results(scripted_model.last_request)[-1]
    assert bot.core.memory.items(bot.namespace(ADMIN)) == []


def test_an_admin_asking_for_their_own_trip_in_the_thread_plans_for_themselves(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    bot = make_bot(travel_admin_user_ids=ADMIN)
    alice = bot.namespace(ALICE)
    bot.core.memory.record(alice, ["I never take red-eye flights"])
    scripted_model.script(plan_call(), "Plan for <@U0ALICE> ready.")
    sent = bot.mention(ADMIN, f"plan a trip for <@{ALICE}> from Shanghai to Chengdu on {DEPART}")
    bot.answers(sent, count=2)
    deadline = time.monotonic() + 10
    while not bot.core.threads.knows(f"{bot.team_id}:{sent.channel}:{sent.thread_ts}"):
        assert time.monotonic() < deadline
        time.sleep(0.02)
    asked = len(scripted_model.requests)

    # "my own trip": the admin speaks for themselves, not for the thread's colleague.
    scripted_model.script(retrieve_call(), plan_call("上海", "北京"), "Your Beijing plan.")
    bot.channel_message(
        ADMIN, "thanks! now plan my own trip from Shanghai to Beijing", thread_ts=sent.thread_ts
    )
    bot.answers(sent, count=4)
    assert "record_to_memory" in offered_tools(scripted_model.requests[asked])
    recalled = tool_results(scripted_model.last_request)[-2]
    assert "red-eye" not in recalled and "Nothing is remembered for this person" in recalled
    assert the_plan(scripted_model)["preferences_of"] == "the requester"
    own = json.dumps(plan_messages(bot, sent)[-1]["blocks"])
    assert "Beijing" in own and "Preferences used" not in own
    assert bot.core.trips is not None and len(bot.core.trips.list(alice)) == 1
    assert bot.core.memory.items(bot.namespace(ADMIN)) == []


def _refuse_save_buttons(slack: FakeSlackAPI, error: str) -> None:
    """Slack refuses every `chat.postMessage` that carries buttons (the plan's message);
    the answer itself is posted."""

    def answer(call: Any) -> dict[str, Any]:
        blocks = call.args.get("blocks") or []
        blocks = json.loads(blocks) if isinstance(blocks, str) else blocks
        if any(block.get("type") == "actions" for block in blocks):
            return {"ok": False, "error": error}
        posted: dict[str, Any] = slack._m_chat_postMessage(call.args)
        return posted

    slack.handle("chat.postMessage", answer)


def test_a_plan_whose_save_button_slack_refuses_tells_the_traveller_how_to_save_it(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    _refuse_save_buttons(slack, "invalid_blocks")
    scripted_model.script(plan_call(return_date=RETURN), "这是你的成都行程。")
    sent = bot.dm(ALICE, "规划一下上海到成都的行程")
    [note] = slack.wait_for("chat.postEphemeral", ok=True)
    assert note.args["user"] == ALICE and note.args["thread_ts"] == sent.thread_ts
    # What to send instead of the button, in the traveller's language.
    assert re.fullmatch(
        re.escape(
            t("slack_save_button_lost_typed", "zh", command="`X`", slash="`/travel-prefs X`")
        ).replace("X", r"保存行程 [A-Z0-9]{8}"),
        note.args["text"],
    )
    assert "@" not in note.args["text"]  # never "mention me" with it in a channel
    assert "这是你的成都行程" in bot.reply_text(sent)


def test_a_save_button_note_refused_in_the_thread_comes_as_a_direct_message(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    _refuse_save_buttons(slack, "invalid_blocks")
    slack.fail("chat.postEphemeral", "not_in_channel")
    scripted_model.script(plan_call(return_date=RETURN), "Here is your Chengdu trip.")
    bot.dm(ALICE, "plan my trip from Shanghai to Chengdu")
    [dm] = slack.wait_for(
        "chat.postMessage", ok=True, where=lambda c: c.args.get("channel") == ALICE
    )
    assert "`save trip " in dm.args["text"]
    assert dm.args["text"].startswith("Slack would not show the *Save trip* button")
