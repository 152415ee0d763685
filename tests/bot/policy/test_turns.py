"""The travel policy in whole turns: the real conversation core, agent, memory (SQLite),
Redis and policy database, with the scripted model as the only stand-in.

A person's own budget is refused by the privacy guard and answered with the policy; a
travel admin's plan for a colleague uses the colleague's grade and is audited as a read
of the colleague's memory; "what is our hotel cap in Chengdu?" gets every grade for an
admin and one's own for anyone else.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from openai import OpenAI

from bot.agent.loop import Agent
from bot.agent.memory_tools import POLICY_POINTER
from bot.compose.parts import travel_tools
from bot.policy.store import PolicyBook
from bot.settings import Settings
from memory.backends import backend_from_dsn
from tests.bot.conversation.test_turn import TENANT, Admins, Core, QuietChannel, message
from tests.bot.policy.conftest import EXAMPLE

ORG = f"feishu:{TENANT}"  # the organisation of every message below


@dataclass
class Policed:
    """The conversation core of `tests.bot.conversation.test_turn`, its agent given the
    travel tools on a policy database and its audit log."""

    core: Core
    book: PolicyBook
    channel: QuietChannel

    def answer(self, text: str, *, user: str = "ou_alice", message_id: str = "om_1") -> str:
        sink = self.core.answer(message(text, user=user, message_id=message_id), self.channel)
        return sink.text

    def tool_results(self, request: int) -> list[str]:
        messages = self.core.model.requests[request]["messages"]
        return [m["content"] for m in messages if m["role"] == "tool"]


@pytest.fixture
def policed(core: Core, tmp_path: Path) -> Iterator[Policed]:
    book = PolicyBook(backend_from_dsn(f"sqlite:///{tmp_path}/trips.db"))
    book.set(ORG, EXAMPLE, by="cli:ana")
    book.set_people([(f"{ORG}:ou_bob", "L3", None)], by="cli:ana")
    llm = OpenAI(base_url=core.model.base_url, api_key="test")
    settings = Settings(_env_file=None, llm_fast_model="")  # type: ignore[call-arg]
    tools = travel_tools(settings, core.memory, policy=book)
    core.conversation.agent = Agent(
        llm=llm, model="scripted", memory=core.memory, tools=tools, max_retries=0
    )
    core.conversation.audit = book.audit
    yield Policed(core, book, QuietChannel(admins=Admins(named=frozenset({"ou_admin"}))))
    llm.close()
    book.close()


def test_a_persons_own_budget_is_not_kept_and_is_answered_with_the_policy(policed: Policed) -> None:
    policed.core.model.script(
        [("record_to_memory", {"thinking": "a budget", "content": ["我的预算3000"]})],
        [("travel_policy", {})],
        "具体金额不会保存；按你的差标（L1），成都酒店每晚上限 400 元。",
    )
    answer = policed.answer("我的预算3000")
    assert "差标" in answer
    system = policed.core.model.requests[0]["messages"][0]["content"]
    assert "## 差标" in system and "绝不要记录" in system
    offered = {t["function"]["name"] for t in policed.core.model.requests[0]["tools"]}
    assert {"record_to_memory", "travel_policy", "plan_itinerary"} <= offered
    [refused] = policed.tool_results(1)
    assert "rejected [amount]" in refused and POLICY_POINTER in refused
    policy = json.loads(policed.tool_results(2)[1])
    assert policy["grade"] == "L1" and policy["hotel_cap_per_night"]["other cities"] == 300
    assert policed.core.memory.items(f"{ORG}:ou_alice") == []  # the amount is nobody's memory


def test_an_admins_plan_for_a_colleague_uses_their_grade_and_is_audited(policed: Policed) -> None:
    plan = {
        "origin": "上海",
        "destination": "成都",
        "depart_date": "2026-12-20",
        "return_date": "2026-12-22",
    }
    policed.core.model.script([("plan_itinerary", plan)], "Here is Bob's trip, within his policy.")
    policed.answer("plan a trip for <@ou_bob> to Chengdu", user="ou_admin", message_id="om_2")
    result = json.loads(policed.tool_results(1)[0])
    assert result["policy"]["grade"] == "L3"  # Bob's, not the admin's L1
    [read] = policed.book.audit.entries(ORG, kinds=["memory_read"])
    assert (read.actor, read.subject) == (f"{ORG}:ou_admin", f"{ORG}:ou_bob")

    policed.answer("plan a trip for <@ou_bob> to Chengdu", user="ou_carol", message_id="om_3")
    assert len(policed.book.audit.entries(ORG, kinds=["memory_read"])) == 1  # refused: no read


def test_our_hotel_cap_in_chengdu_for_an_admin_and_for_anyone_else(policed: Policed) -> None:
    ask: list[tuple[str, dict[str, Any]]] = [("travel_policy", {"city_name": "Chengdu"})]
    policed.core.model.script(
        ask, "L1: 400, L3: 700 a night in Chengdu.", ask, "Yours: 400 a night."
    )
    policed.answer("what is our hotel cap in Chengdu?", user="ou_admin", message_id="om_4")
    admin = json.loads(policed.tool_results(1)[0])
    assert admin["hotel_cap_in"]["cap_per_night"] == {"L1": 400, "L3": 700}
    policed.answer("what is our hotel cap in Chengdu?", user="ou_carol", message_id="om_5")
    carol = json.loads(policed.tool_results(3)[0])
    assert carol["grade"] == "L1" and carol["hotel_cap_in"]["cap_per_night"] == {"L1": 400}
