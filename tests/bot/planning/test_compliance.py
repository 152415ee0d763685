"""Plans against a travel policy: every candidate in or out of policy with the rule in
words, in-policy options first, the much better out-of-policy one still shown (marked),
how many were out of policy and why, and the colleague's grade when an admin plans.

Real memory (SQLite), the real demo inventory, policies in a real database.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from bot.agent.tools import Tool, ToolContext
from bot.compose.parts import open_planner
from bot.planning.compliance import MUCH_BETTER
from bot.planning.inventory.catalogue import load_catalogue
from bot.planning.inventory.demo import DemoInventory
from bot.planning.planner import planning_tools
from bot.policy.store import PolicyBook
from bot.settings import Settings
from memory.backends import backend_from_dsn
from memory.engine import Memory
from tests.bot.policy.conftest import EXAMPLE, ORG

NOW = datetime(2026, 12, 1, 2, 0, tzinfo=UTC)  # 10:00 on 2026-12-01 in Shanghai
ALICE = f"{ORG}:U0ALICE"
BOB = f"{ORG}:U0BOB"
ROUTE = {
    "origin": "上海",
    "destination": "成都",
    "depart_date": "2026-12-10",
    "return_date": "2026-12-12",
}


@pytest.fixture
def memory(sqlite_memory: Memory) -> Memory:
    return sqlite_memory


@pytest.fixture
def book(dsn: str) -> Iterator[PolicyBook]:
    opened = PolicyBook(backend_from_dsn(dsn))
    opened.set(ORG, EXAMPLE, by="cli:ana")
    yield opened
    opened.close()


def tool(memory: Memory | None, book: Any) -> Tool:
    planner = open_planner(Settings(llm_fast_model=""), memory, clock=lambda: NOW, policy=book)
    [built] = planning_tools(planner)
    return built


def plan(built: Tool, ctx: ToolContext, **args: Any) -> dict[str, Any]:
    text = built.invoke(ctx, {**ROUTE, **args})
    assert not text.startswith("error:"), text
    result: dict[str, Any] = json.loads(text)
    return result


def rows(result: dict[str, Any], leg: str) -> list[dict[str, Any]]:
    return list(result["legs"][leg]["options"])


def test_every_option_is_marked_and_in_policy_ones_come_first(
    memory: Memory, book: PolicyBook
) -> None:
    result = plan(tool(memory, book), ToolContext(namespace=ALICE))
    for leg in ("outbound", "return", "hotel"):
        marks = [row["in_policy"] for row in rows(result, leg)]
        assert marks and marks == sorted(marks, reverse=True), leg  # in policy first
    hotels = rows(result, "hotel")
    assert all(h["in_policy"] for h in hotels)  # no preference makes a dear one much better
    assert all(int(h["option"].rsplit("CNY ", 1)[1].split("/")[0]) <= 400 for h in hotels)
    trains = [r for r in rows(result, "outbound") if r["kind"] == "train"]
    assert trains and all("second class" in r["option"] for r in trains)


def test_the_plan_says_how_many_were_out_of_policy_and_why(
    memory: Memory, book: PolicyBook
) -> None:
    result = plan(tool(memory, book), ToolContext(namespace=ALICE))
    # Counted again here, from the inventory itself, by the policy's rules for L1.
    inventory, catalogue = DemoInventory(catalogue=load_catalogue()), load_catalogue()
    sha, ctu = catalogue.city("上海"), catalogue.city("成都")
    assert sha is not None and ctu is not None
    hotels = inventory.hotels(ctu, date(2026, 12, 10), date(2026, 12, 12))
    legs = [
        *inventory.flights(sha, ctu, date(2026, 12, 10)),
        *inventory.trains(sha, ctu, date(2026, 12, 10)),
    ]
    legs += [
        *inventory.flights(ctu, sha, date(2026, 12, 12)),
        *inventory.trains(ctu, sha, date(2026, 12, 12)),
    ]
    dear = [h for h in hotels if h.price_per_night > 400]
    above = [o for o in legs if getattr(o, "cabin", "economy") != "economy"]
    above += [o for o in legs if getattr(o, "seat_class", "second_class") != "second_class"]
    policy = result["policy"]
    assert policy["grade"] == "L1" and policy["policy_version"] == 1
    assert policy["options"] == len(hotels) + len(legs)
    assert policy["out_of_policy"] == len(dear) + len(above)
    assert policy["summary"].startswith(
        f"{len(dear) + len(above)} of {len(hotels) + len(legs)} options are out of policy (L1): "
    )
    assert f"{len(dear)} over the Chengdu hotel cap of 400/night (L1)" in policy["summary"]


def test_the_much_better_out_of_policy_option_is_still_shown_marked(
    memory: Memory, book: PolicyBook
) -> None:
    memory.record(ALICE, ["I prefer Shangri-La hotels"])
    result = plan(tool(memory, book), ToolContext(namespace=ALICE, lang="zh"))
    hotels = rows(result, "hotel")
    *inside, star = hotels
    assert all(h["in_policy"] for h in inside) and not star["in_policy"]
    assert "香格里拉" in star["option"] and star["score"] >= inside[0]["score"] + MUCH_BETTER
    [rule] = star["policy_breaks"]
    price = star["option"].rsplit("CNY ", 1)[1].split("/")[0]
    assert rule == f"超出差标：成都酒店上限 400/晚（L1），此酒店 {price}/晚"
    assert star["policy_note"] == "虽超出差标仍列出：明显更符合出差人偏好，需要审批。"
    assert result["policy"]["summary"].startswith(f"{result['policy']['options']} 个选项中有")


def test_a_leg_with_nothing_in_policy_shows_its_best_marked(
    memory: Memory, book: PolicyBook
) -> None:
    book.set(ORG, EXAMPLE.replace("other: 300}", "other: 300}\n  L2: {other: 60}"), by="cli:ana")
    book.set_people([(ALICE, "L2", None)], by="cli:ana")
    result = plan(tool(memory, book), ToolContext(namespace=ALICE))
    hotels = rows(result, "hotel")
    assert len(hotels) == 5 and not any(h["in_policy"] for h in hotels)
    assert all(
        h["policy_breaks"][0].startswith("over policy: Chengdu hotel cap 60/night (L2)")
        for h in hotels
    )
    assert result["legs"]["hotel"]["policy_note"].startswith("No option of this leg is within")


def test_an_admin_planning_for_a_colleague_uses_the_colleagues_grade(
    memory: Memory, book: PolicyBook
) -> None:
    book.set_people([(BOB, "L3", None)], by="cli:ana")  # the admin (Alice) stays L1
    memory.record(BOB, ["I prefer Shangri-La hotels"])
    ctx = ToolContext(namespace=ALICE, on_behalf_of=BOB, can_record=False, traveller_name="Bob")
    result = plan(tool(memory, book), ctx)
    assert result["policy"]["grade"] == "L3"
    star = rows(result, "hotel")[-1]
    assert star["policy_breaks"][0].startswith("over policy: Chengdu hotel cap 700/night (L3)")
    summary = result["policy"]["summary"]
    assert "above first class (L3 rides first class)" in summary  # business seats only
    assert "L1" not in summary


def test_booking_too_late_puts_flights_out_of_policy_but_not_trains(
    memory: Memory, book: PolicyBook
) -> None:
    soon = (NOW + timedelta(days=1)).date().isoformat()
    later = (NOW + timedelta(days=5)).date().isoformat()
    result = plan(
        tool(memory, book), ToolContext(namespace=ALICE), depart_date=soon, return_date=later
    )
    assert all(r["kind"] == "train" for r in rows(result, "outbound"))
    assert "1 day(s) ahead, the policy asks for 3" in result["policy"]["summary"]
    back = rows(result, "return")
    assert not any("ahead" in b for r in back for b in r.get("policy_breaks", []))  # 5 days out


def test_without_a_policy_for_the_organisation_planning_is_as_before(
    memory: Memory, book: PolicyBook
) -> None:
    elsewhere = plan(tool(memory, book), ToolContext(namespace="T0OTHER:U0CAROL"))
    unchecked = plan(tool(memory, None), ToolContext(namespace="T0OTHER:U0CAROL"))
    assert elsewhere == unchecked
    assert "policy" not in elsewhere
    assert all("in_policy" not in r for leg in ("outbound", "hotel") for r in rows(elsewhere, leg))


class DownBook:
    def allowance(self, namespace: str) -> None:
        from memory.errors import StoreUnavailable

        raise StoreUnavailable("PostgreSQL store unavailable")


def test_an_unreadable_policy_is_said_and_the_plan_goes_on(memory: Memory) -> None:
    result = plan(tool(memory, DownBook()), ToolContext(namespace=ALICE))
    assert result["policy"]["unavailable"].startswith("unavailable: the company's travel policy")
    assert rows(result, "hotel") and all("in_policy" not in r for r in rows(result, "hotel"))
