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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis
from openai import OpenAI

from bot.agent.loop import Agent
from bot.agent.memory_tools import POLICY_POINTER
from bot.conversation.claims import Claims
from bot.conversation.incoming import IncomingMessage
from bot.conversation.threads import ThreadHistory, Turn
from bot.conversation.turn import Conversation
from bot.messages import lang_of
from bot.metrics import Metrics
from bot.planning.admins import AdminGroup, AdminResolver
from bot.planning.tools import travel_tools
from bot.policy.store import PolicyBook
from bot.settings import Settings
from memory.backends import backend_from_dsn
from memory.engine import Memory
from tests.bot.policy.conftest import EXAMPLE
from tests.support.llm_server import ScriptedModel
from tests.support.reply_sink import RecordingSink
from tests.support.services import REDIS_URL

TENANT = "tenant-7"
ORG = f"feishu:{TENANT}"  # the organisation of every message below


@dataclass
class Admins:
    ids: frozenset[str]
    id: str = "admins"

    def members(self) -> frozenset[str] | None:
        return self.ids


@dataclass
class Channel:
    admin_group: AdminGroup | None = None

    def timezone(self, msg: IncomingMessage) -> str:
        return "Asia/Shanghai"

    def earlier_turns(self, msg: IncomingMessage, *, max_turns: int, max_chars: int) -> list[Turn]:
        return []


@dataclass
class Core:
    conversation: Conversation
    book: PolicyBook
    memory: Memory
    model: ScriptedModel
    channel: Channel

    def answer(self, text: str, *, user: str = "ou_alice", message_id: str = "om_1") -> str:
        msg = IncomingMessage(
            platform="feishu",
            tenant=TENANT,
            user=user,
            conversation="oc_chat",
            thread=message_id,
            message_id=message_id,
            text=text,
            kind="dm",
            lang=lang_of(text),
        )
        sink = RecordingSink()
        self.conversation.accept(msg, sink, self.channel)
        assert sink.done.wait(60)
        return "".join(str(v) for kind, v in sink.calls if kind == "append")

    def tool_results(self, request: int) -> list[str]:
        messages = self.model.requests[request]["messages"]
        return [m["content"] for m in messages if m["role"] == "tool"]


@pytest.fixture
def core(
    scripted_model: ScriptedModel, sqlite_memory: Memory, bot_prefix: str, tmp_path: Path
) -> Iterator[Core]:
    client = redis.Redis.from_url(REDIS_URL)
    book = PolicyBook(backend_from_dsn(f"sqlite:///{tmp_path}/trips.db"))
    book.set(ORG, EXAMPLE, by="cli:ana")
    book.set_people([(f"{ORG}:ou_bob", "L3", None)], by="cli:ana")
    llm = OpenAI(base_url=scripted_model.base_url, api_key="test")
    tools = travel_tools(Settings(_env_file=None, llm_fast_model=""), sqlite_memory, policy=book)  # type: ignore[call-arg]
    agent = Agent(llm=llm, model="scripted", memory=sqlite_memory, tools=tools, max_retries=0)
    pool = ThreadPoolExecutor(max_workers=2)
    conversation = Conversation(
        agent=agent,
        threads=ThreadHistory(client=client, key_prefix=bot_prefix),
        claims=Claims(client=client, key_prefix=bot_prefix),
        admins=AdminResolver(Settings(_env_file=None), client),  # type: ignore[call-arg]
        trips=None,
        metrics=Metrics(),
        pool=pool,
        audit=book.audit,
    )
    yield Core(
        conversation, book, sqlite_memory, scripted_model, Channel(Admins(frozenset({"ou_admin"})))
    )
    pool.shutdown(wait=True)
    llm.close()
    book.close()
    client.close()


def test_a_persons_own_budget_is_not_kept_and_is_answered_with_the_policy(core: Core) -> None:
    core.model.script(
        [("record_to_memory", {"thinking": "a budget", "content": ["我的预算3000"]})],
        [("travel_policy", {})],
        "具体金额不会保存；按你的差标（L1），成都酒店每晚上限 400 元。",
    )
    answer = core.answer("我的预算3000")
    assert "差标" in answer
    system = core.model.requests[0]["messages"][0]["content"]
    assert "## 差标" in system and "绝不要记录" in system
    offered = {t["function"]["name"] for t in core.model.requests[0]["tools"]}
    assert {"record_to_memory", "travel_policy", "plan_itinerary"} <= offered
    [refused] = core.tool_results(1)
    assert "rejected [amount]" in refused and POLICY_POINTER in refused
    policy = json.loads(core.tool_results(2)[1])
    assert policy["grade"] == "L1" and policy["hotel_cap_per_night"]["other cities"] == 300
    assert core.memory.items(f"{ORG}:ou_alice") == []  # the amount is nobody's memory


def test_an_admins_plan_for_a_colleague_uses_their_grade_and_is_audited(core: Core) -> None:
    plan = {
        "origin": "上海",
        "destination": "成都",
        "depart_date": "2026-12-20",
        "return_date": "2026-12-22",
    }
    core.model.script([("plan_itinerary", plan)], "Here is Bob's trip, within his policy.")
    core.answer("plan a trip for <@ou_bob> to Chengdu", user="ou_admin", message_id="om_2")
    result = json.loads(core.tool_results(1)[0])
    assert result["policy"]["grade"] == "L3"  # Bob's, not the admin's L1
    [read] = core.book.audit.entries(ORG, kinds=["memory_read"])
    assert (read.actor, read.subject) == (f"{ORG}:ou_admin", f"{ORG}:ou_bob")

    core.answer("plan a trip for <@ou_bob> to Chengdu", user="ou_carol", message_id="om_3")
    assert len(core.book.audit.entries(ORG, kinds=["memory_read"])) == 1  # refused: no read


def test_our_hotel_cap_in_chengdu_for_an_admin_and_for_anyone_else(core: Core) -> None:
    ask: list[tuple[str, dict[str, Any]]] = [("travel_policy", {"city_name": "Chengdu"})]
    core.model.script(ask, "L1: 400, L3: 700 a night in Chengdu.", ask, "Yours: 400 a night.")
    core.answer("what is our hotel cap in Chengdu?", user="ou_admin", message_id="om_4")
    admin = json.loads(core.tool_results(1)[0])
    assert admin["hotel_cap_in"]["cap_per_night"] == {"L1": 400, "L3": 700}
    core.answer("what is our hotel cap in Chengdu?", user="ou_carol", message_id="om_5")
    carol = json.loads(core.tool_results(3)[0])
    assert carol["grade"] == "L1" and carol["hotel_cap_in"]["cap_per_night"] == {"L1": 400}
