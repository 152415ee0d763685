"""Plans in DingTalk: the card with its scores, "Save trip" by the traveller only, and
travel admins planning for a colleague in a group (read, never written; others refused)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

from bot.messages import t
from tests.support.dingtalk_api import FakeDingTalkAPI, Sent
from tests.support.dingtalk_harness import GROUP, HTTPRobot
from tests.support.llm_server import ScriptedModel

ALICE, BOB, ADMIN = "staff-alice", "staff-bob", "staff-admin"
DEPART = (date.today() + timedelta(days=30)).isoformat()
RETURN = (date.today() + timedelta(days=32)).isoformat()


def plan_call(origin: str = "上海", destination: str = "成都", **extra: Any) -> list[Any]:
    args = {"origin": origin, "destination": destination, "depart_date": DEPART, **extra}
    return [("plan_itinerary", args)]


def retrieve_call() -> list[Any]:
    return [("retrieve_from_memory", {"keywords": ["trip", "Chengdu"]})]


def offered_tools(request: dict[str, Any]) -> set[str]:
    return {tool["function"]["name"] for tool in request.get("tools", [])}


def tool_results(request: dict[str, Any]) -> list[str]:
    return [str(m.get("content")) for m in request["messages"] if m.get("role") == "tool"]


def command_of(url: str) -> str:
    [content] = parse_qs(urlsplit(url).query)["content"]
    return content


def is_card(sent: Sent) -> bool:
    return "→" in sent.title


def test_a_plan_card_shows_scores_and_its_save_button_saves_once_for_the_traveller(
    robot: HTTPRobot, scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    robot.core.memory.record(robot.namespace(ALICE), ["I never take red-eye flights"])
    scripted_model.script(
        retrieve_call(),
        plan_call("Shanghai", "Chengdu", return_date=RETURN),
        "Your Chengdu plan: a morning flight; I skipped the red-eye.",
    )
    robot.send("plan my trip from Shanghai to Chengdu")
    answer, card = robot.answers(2)
    assert "skipped the red-eye" in answer.text
    assert card.title == "Shanghai → Chengdu" and card.kind == "actionCard"
    assert f"**Trip:** Shanghai → Chengdu, {DEPART} – {RETURN}" in card.text
    assert "Demo data: these schedules and prices are made up" in card.text
    assert "**Outbound**" in card.text and "**Hotel**" in card.text
    plan = json.loads(
        next(r for r in tool_results(scripted_model.last_request) if r.startswith('{"route"'))
    )
    best = plan["legs"]["outbound"]["options"][0]
    assert f"**{best['score']}** · " in card.text and best["basis"] in card.text
    [(title, url)] = card.buttons
    assert title == t("trip_save_button", "en")
    command = command_of(url)
    assert command.startswith("save trip ")
    assert robot.core.trips is not None

    robot.send(command, staff_id=BOB)  # someone else's tap
    [*_, denied] = robot.answers(3)
    assert denied.text == t("trip_save_not_allowed", "en")
    assert robot.core.trips.list(robot.namespace(ALICE)) == []

    robot.send(command)
    [*_, saved] = robot.answers(4)
    assert saved.text == f"Trip saved by @{ALICE}." and saved.at == (ALICE,)
    [trip] = robot.core.trips.list(robot.namespace(ALICE))
    assert (trip.origin, trip.destination, trip.start_date.isoformat()) == (
        "Shanghai",
        "Chengdu",
        DEPART,
    )

    robot.send(command)
    [*_, again] = robot.answers(5)
    assert again.text == t("trip_already_saved", "en")
    assert len(robot.core.trips.list(robot.namespace(ALICE))) == 1


def test_in_a_group_the_plan_says_what_to_send_to_save_it(
    robot: HTTPRobot, scripted_model: ScriptedModel
) -> None:
    scripted_model.script(plan_call(), "这是你的成都行程。")
    robot.send("帮我规划下个月从上海去成都的行程", group=True)
    _, card = robot.answers(2)
    assert card.conversation == GROUP and card.buttons == ()
    assert "要保存此行程，请 @我 并发送：**保存行程 " in card.text
    code = card.text.split("**保存行程 ")[1][:8]
    robot.send(f"保存行程 {code}", group=True)
    [*_, saved] = robot.answers(3)
    assert saved.text == f"@{ALICE} 已保存此行程。"
    assert robot.core.trips is not None and len(robot.core.trips.list(robot.namespace(ALICE))) == 1


def test_in_a_group_a_save_typed_again_is_answered_in_one_line(
    robot: HTTPRobot, scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    """Alice types `保存行程 CODE` a second time: she reads that the trip was saved
    already, in one line, not the plan card again (as on Slack); the trip is saved once."""
    scripted_model.script(plan_call(), "这是你的成都行程。")
    robot.send("帮我规划下个月从上海去成都的行程", group=True)
    _, card = robot.answers(2)
    code = card.text.split("**保存行程 ")[1][:8]
    robot.send(f"保存行程 {code}", group=True)
    robot.answers(3)
    robot.send(f"保存行程 {code}", group=True)
    [*_, again] = robot.answers(4)
    assert again.text == t("trip_already_saved", "zh")
    assert again.conversation == GROUP and again.buttons == ()
    assert "成都" not in again.text and not is_card(again)  # not the plan again
    robot.drain()
    time.sleep(0.3)  # a second message would follow within it
    assert len(dingtalk.sent) == 4
    assert robot.core.trips is not None and len(robot.core.trips.list(robot.namespace(ALICE))) == 1


def test_an_admin_plans_for_a_colleague_with_her_memory_and_writes_nothing(
    make_robot: Callable[..., HTTPRobot], scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    robot = make_robot(dingtalk_admin_staff_ids=f"staff-other, {ADMIN}")
    alice = robot.namespace(ALICE)
    robot.core.memory.record(alice, ["I never take red-eye flights"])
    before = robot.core.memory.export(alice)["items"]
    scripted_model.script(
        retrieve_call(),
        plan_call("上海", "成都", return_date=RETURN),
        "已为 <@staff-alice> 规划好，避开了红眼航班。",
    )
    robot.send(
        f"给 @Alice 规划{DEPART}从上海到成都的出差", staff_id=ADMIN, group=True, at_users=[ALICE]
    )
    answer, card = robot.answers(2)
    said = datetime.now(ZoneInfo("Asia/Shanghai")).date().isoformat()
    used = f"> 用到：I never take red-eye flights ({said} 说的)"  # her memory, shown used
    assert answer.text == f"已为 @{ALICE} 规划好，避开了红眼航班。\n\n{used}"
    assert answer.at == (ALICE,)

    first = scripted_model.requests[0]
    assert first["messages"][-1]["content"].startswith(f"给 <@{ALICE}> 规划")
    assert "record_to_memory" not in offered_tools(first)
    assert "red-eye" in tool_results(scripted_model.last_request)[0]  # Alice's memory, read
    assert robot.core.memory.export(alice)["items"] == before  # and never written
    assert robot.core.memory.items(robot.namespace(ADMIN)) == []

    assert f"使用的偏好：@{ALICE} 的偏好。" in card.text
    assert f"已保存到 @{ALICE} 的行程。" in card.text and card.buttons == ()
    assert robot.core.trips is not None
    [trip] = robot.core.trips.list(alice)
    assert trip.created_by == robot.namespace(ADMIN)


def test_a_non_admin_asking_for_a_colleague_is_refused_privately(
    make_robot: Callable[..., HTTPRobot], scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    robot = make_robot(dingtalk_admin_staff_ids=ADMIN)
    robot.core.memory.record(robot.namespace(ALICE), ["I never take red-eye flights"])
    robot.send(
        f"plan a trip for @Alice from Shanghai to Chengdu on {DEPART}",
        staff_id=BOB,
        group=True,
        at_users=[ALICE],
    )
    [refusal] = robot.answers()
    assert refusal.users == (BOB,) and refusal.conversation == ""  # one-to-one, to Bob only
    assert "only travel admins" in refusal.text and f"@{ALICE}" in refusal.text
    robot.drain()
    time.sleep(0.2)
    assert scripted_model.requests == []  # the agent never ran: nothing of Alice's was read
    assert [s for s in dingtalk.sent if s.conversation == GROUP] == []


def test_an_admins_staff_id_from_another_organisation_is_no_admin(
    make_robot: Callable[..., HTTPRobot], scripted_model: ScriptedModel, dingtalk: FakeDingTalkAPI
) -> None:
    """Staff ids are unique only within an organisation: in a group shared with another
    one, the same id there is somebody else."""
    robot = make_robot(dingtalk_admin_staff_ids=ADMIN)
    robot.core.memory.record(robot.namespace(ALICE), ["I never take red-eye flights"])
    robot.send(
        f"plan a trip for @Alice from Shanghai to Chengdu on {DEPART}",
        staff_id=ADMIN,
        corp="dingothercorp",
        group=True,
        at_users=[ALICE],
    )
    [refusal] = robot.answers()
    assert refusal.users == (ADMIN,) and "only travel admins" in refusal.text
    robot.drain()
    assert scripted_model.requests == []


def test_a_slack_admins_id_makes_no_dingtalk_admin(
    make_robot: Callable[..., HTTPRobot], scripted_model: ScriptedModel
) -> None:
    """`TRAVEL_ADMIN_USER_IDS` lists Slack users: a DingTalk staff id that happens to be
    spelled the same is someone else."""
    robot = make_robot(travel_admin_user_ids=BOB)  # and no DINGTALK_ADMIN_STAFF_IDS
    robot.core.memory.record(robot.namespace(ALICE), ["I never take red-eye flights"])
    robot.send(
        f"plan a trip for @Alice from Shanghai to Chengdu on {DEPART}",
        staff_id=BOB,
        group=True,
        at_users=[ALICE],
    )
    [refusal] = robot.answers()
    assert refusal.users == (BOB,) and "only travel admins" in refusal.text
    robot.drain()
    assert scripted_model.requests == []  # nothing of Alice's was read
