"""The agent's read-only `travel_policy` tool, on policies in a real database: one's own
grade for anyone, any grade for a travel admin, and never another organisation's."""

from __future__ import annotations

import json
from typing import Any

from bot.agent.tools import Tool, ToolContext
from bot.compose.parts import travel_tools
from bot.policy.store import PolicyBook
from bot.policy.tool import NO_POLICY
from bot.settings import Settings
from tests.bot.policy.conftest import EXAMPLE, ORG
from tests.support.platforms import SLACK

ALICE = f"{ORG}:U0ALICE"
BOB = f"{ORG}:U0BOB"


def policy_tool(book: PolicyBook) -> Tool:
    tools = {t.name: t for t in travel_tools(Settings(llm_fast_model=""), None, policy=book)}
    assert set(tools) == {"plan_itinerary", "travel_policy"}
    return tools["travel_policy"]


def ask(book: PolicyBook, ctx: ToolContext, **args: str) -> dict[str, Any]:
    text = policy_tool(book).invoke(ctx, args)
    assert not text.startswith("error"), text
    answer: dict[str, Any] = json.loads(text)
    return answer


def ready(book: PolicyBook) -> PolicyBook:
    book.set(ORG, EXAMPLE, by="cli:ana")
    book.set_people([(ALICE, "L3", "sales")], by="cli:ana")
    return book


def test_anyone_reads_their_own_grades_rules(book: PolicyBook) -> None:
    answer = ask(ready(book), ToolContext(namespace=ALICE, platform=SLACK))
    assert answer["grade"] == "L3" and answer["grade_set_for_them"] is True
    assert answer["hotel_cap_per_night"] == {
        "tier1 (北京, 上海, 广州, 深圳)": 900,
        "tier2 (成都, 杭州, 南京, 武汉)": 700,
        "other cities": 500,
    }
    assert answer["flight_cabin"] == "economy" and answer["rail_class"] == "first class"
    assert answer["book_flights_days_ahead"] == 3
    assert answer["approvers"] == ["<@U0APPROVER>"]
    assert "never remembered" in answer["note"]
    bob = ask(book, ToolContext(namespace=BOB, lang="zh"))
    assert bob["grade"] == "L1" and bob["grade_set_for_them"] is False  # grades.default
    assert bob["rail_class"] == "二等座"


def test_a_hotel_cap_in_a_city_by_either_name(book: PolicyBook) -> None:
    ready(book)
    for city in ("Chengdu", "成都", "蓉"):
        answer = ask(book, ToolContext(namespace=ALICE), city_name=city)
        assert answer["hotel_cap_in"] == {
            "city": "Chengdu",
            "tier": "tier2",
            "cap_per_night": {"L3": 700},
        }
    xiamen = ask(book, ToolContext(namespace=ALICE, lang="zh"), city_name="Xiamen")
    assert xiamen["hotel_cap_in"] == {"city": "厦门", "tier": "tier3", "cap_per_night": {"L3": 500}}


def test_only_a_travel_admin_reads_another_grade(book: PolicyBook) -> None:
    ready(book)
    traveller = ask(book, ToolContext(namespace=BOB), grade="L3")
    assert traveller["grade"] == "L1" and "only travel admins" in traveller["refused"]
    assert traveller["hotel_cap_per_night"]["other cities"] == 300
    admin = ToolContext(namespace=BOB, travel_admin=lambda: True)
    assert ask(book, admin, grade="L3")["hotel_cap_per_night"]["other cities"] == 500
    everyone = ask(book, admin, city_name="成都")  # "what is our hotel cap in Chengdu?"
    assert everyone["hotel_cap_in"]["cap_per_night"] == {"L1": 400, "L3": 700}
    unknown = policy_tool(book).invoke(admin, {"grade": "L9"})
    assert unknown == "error: the policy has no grade 'L9'; its grades: L1, L3"


def test_planning_for_a_colleague_reads_the_colleagues_grade(book: PolicyBook) -> None:
    ready(book)
    ctx = ToolContext(namespace=BOB, on_behalf_of=ALICE, travel_admin=lambda: True)
    answer = ask(book, ctx)
    assert answer["grade"] == "L3" and answer["whose"] == "the traveller planned for"


def test_another_organisations_policy_is_never_read(book: PolicyBook) -> None:
    ready(book)
    for ns in ("T0OTHER:U0ALICE", f"feishu:{ORG}:U0ALICE", "local:you"):
        admin = ToolContext(namespace=ns, travel_admin=lambda: True)
        for args in ({}, {"grade": "L3"}, {"city_name": "成都"}):
            assert policy_tool(book).invoke(admin, args) == NO_POLICY
    # Planning "for" someone of another organisation never reads theirs either.
    crossed = ToolContext(namespace="T0OTHER:U0X", on_behalf_of=ALICE, travel_admin=lambda: True)
    assert policy_tool(book).invoke(crossed, {}) == NO_POLICY
