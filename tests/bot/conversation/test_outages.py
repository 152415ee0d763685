"""Memory outages are told, never disguised: the real conversation core, the real agent
loop against the scripted model server, the real memory engine on a database that cannot
be reached (PostgreSQL on a closed port, a SQLite file gone) or is locked by another
connection, and real Redis for claims and thread history.

What the person reads is checked: an answer that says their preferences could not be
read (or that nothing was saved), in their language, whatever the model wrote; someone
with nothing remembered still reads no such note.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import redis
from openai import OpenAI

from bot.agent.loop import Agent
from bot.agent.tools import Tool
from bot.compose.parts import open_planner
from bot.conversation.claims import Claims
from bot.conversation.incoming import IncomingMessage
from bot.conversation.threads import ThreadHistory, Turn
from bot.conversation.turn import Conversation
from bot.messages import lang_of, t
from bot.metrics import Metrics
from bot.planning.admins import NOBODY, Admins
from bot.planning.planner import planning_tools
from bot.settings import Settings
from memory import open_memory
from memory.engine import Memory
from tests.conftest import MemoryFactory
from tests.support import private_pg
from tests.support.llm_server import ScriptedModel
from tests.support.platforms import FEISHU
from tests.support.reply_sink import RecordingSink
from tests.support.services import REDIS_URL

TENANT = "tenant-9"
RED_EYE = "I never take red-eye flights"
NOW = datetime(2026, 12, 1, 2, 0, tzinfo=UTC)
ANSWER_TIMEOUT = 60.0
LOCKED_TURNS_TIMEOUT = 30.0  # generous: nine turns behind a held lock take about 6 s


class Sink(RecordingSink):
    """The reply as the person reads it: what was appended, and a failure's text."""

    @property
    def text(self) -> str:
        return "".join(value for kind, value in self.calls if kind in ("append", "fail"))


@dataclass
class Channel:
    admins: Admins = NOBODY

    def timezone(self, msg: IncomingMessage) -> str:
        return "Asia/Shanghai"

    def earlier_turns(self, msg: IncomingMessage, *, max_turns: int, max_chars: int) -> list[Turn]:
        return []


@dataclass
class Core:
    conversation: Conversation
    model: ScriptedModel

    def send(self, text: str, *, user: str = "ou_alice", message_id: str = "om_1") -> Sink:
        sink = Sink()
        msg = IncomingMessage(
            platform=FEISHU,
            tenant=TENANT,
            user=user,
            conversation="oc_chat",
            thread=message_id,
            message_id=message_id,
            text=text,
            kind="dm",
            lang=lang_of(text),
            delivery_id=f"ev-{message_id}",
        )
        assert self.conversation.accept(msg, sink, Channel())
        return sink

    def answer(self, text: str, **kwargs: Any) -> Sink:
        sink = self.send(text, **kwargs)
        assert sink.done.wait(ANSWER_TIMEOUT), "no answer"
        return sink

    def tool_results(self) -> list[str]:
        return [
            m["content"]
            for request in self.model.requests
            for m in request["messages"]
            if m["role"] == "tool"
        ]


@pytest.fixture
def make_core(bot_prefix: str) -> Iterator[Any]:
    opened: list[tuple[ScriptedModel, OpenAI, ThreadPoolExecutor]] = []
    client = redis.Redis.from_url(REDIS_URL)

    def factory(
        memory: Memory, *, workers: int = 2, default: Any = "OK", tools: Sequence[Tool] = ()
    ) -> Core:
        model = ScriptedModel(default=default)
        model.start()
        llm = OpenAI(base_url=model.base_url, api_key="test")
        pool = ThreadPoolExecutor(max_workers=workers)
        opened.append((model, llm, pool))
        agent = Agent(llm=llm, model="scripted", memory=memory, max_retries=0, tools=tools)
        conversation = Conversation(
            agent=agent,
            threads=ThreadHistory(client=client, key_prefix=bot_prefix),
            claims=Claims(client=client, key_prefix=bot_prefix),
            admins=None,
            trips=None,
            metrics=Metrics(),
            pool=pool,
        )
        return Core(conversation, model)

    yield factory
    for model, llm, pool in opened:
        pool.shutdown(wait=True)
        llm.close()
        model.close()
    client.close()


def _recall(*keywords: str) -> list[tuple[str, dict[str, Any]]]:
    return [("retrieve_from_memory", {"keywords": list(keywords)})]


def _record(*facts: str) -> list[tuple[str, dict[str, Any]]]:
    return [("record_to_memory", {"thinking": "a lasting preference", "content": list(facts)})]


def test_a_database_outage_is_told_in_the_persons_language_whatever_the_model_says(
    make_core: Any, unreachable_memory: MemoryFactory
) -> None:
    core = make_core(unreachable_memory())

    # The model reads "unavailable", and plans without a word about it...
    core.model.script(_recall("航班", "成都"), "好的，给你找白天的航班。")
    chinese = core.answer("帮我订下周去成都的机票", message_id="om_1")
    (result,) = core.tool_results()
    assert "unavailable" in result and "Nothing is remembered" not in result
    # ...and the person still reads that their preferences could not be read.
    assert chinese.text == "好的，给你找白天的航班。\n\n" + t("note_memory_unavailable", "zh")
    assert ("finish", ()) in chinese.calls

    core.model.script(_recall("flight"), "Here are daytime flights.")
    english = core.answer("Book me a flight to Chengdu", message_id="om_2")
    assert english.text.endswith("\n\n" + t("note_memory_unavailable", "en"))


def test_a_save_while_the_database_is_down_is_told_as_not_saved(
    make_core: Any, unreachable_memory: MemoryFactory
) -> None:
    core = make_core(unreachable_memory())
    core.model.script(_record(RED_EYE), "Noted: no red-eye flights.")
    sink = core.answer(RED_EYE)

    (result,) = core.tool_results()
    assert "NOTHING was saved" in result
    assert sink.text == "Noted: no red-eye flights.\n\n" + t("note_memory_not_saved", "en")


def test_nothing_remembered_is_still_nothing_remembered(make_core: Any, tmp_path: Path) -> None:
    memory = open_memory(dsn=f"sqlite:///{tmp_path}/m.db", redis_url="")
    try:
        core = make_core(memory)
        core.model.script(_recall("hotel"), "Any hotel preferences?")
        sink = core.answer("Book me a hotel as usual")
        (result,) = core.tool_results()
        assert "Nothing is remembered" in result and "unavailable" not in result
        assert sink.text == "Any hotel preferences?"
    finally:
        memory.close()


def test_a_plan_made_while_memory_is_down_says_so(
    make_core: Any, unreachable_memory: MemoryFactory
) -> None:
    memory = unreachable_memory()
    planner = open_planner(Settings(llm_fast_model=""), memory, clock=lambda: NOW)
    core = make_core(memory, tools=planning_tools(planner))
    route = {"origin": "上海", "destination": "成都", "depart_date": "2026-12-10"}
    core.model.script([("plan_itinerary", route)], "这是你的行程。")
    sink = core.answer("帮我规划12月10日从上海去成都的行程")

    (result,) = core.tool_results()
    assert '"memory":"unavailable:' in result
    assert sink.text == "这是你的行程。\n\n" + t("note_memory_unavailable", "zh")


@pytest.mark.skipif(not private_pg.available(), reason="initdb/pg_ctl are not installed")
def test_a_frozen_database_is_told_within_seconds(make_core: Any) -> None:
    """A PostgreSQL that accepts connections and never answers (paused) used to hold
    every turn that read memory until it came back."""
    path = Path(tempfile.mkdtemp(prefix="travel-bot-pg-"))
    server = private_pg.PrivatePostgres(path)
    server.start()
    memory = open_memory(dsn=server.dsn, redis_url="")
    try:
        memory.record(f"feishu:{TENANT}:ou_alice", [RED_EYE])
        core = make_core(memory, workers=2, default=_save_then_recall)
        server.pause()
        sinks = [core.send("我喜欢靠窗的座位", message_id=f"om_{i}") for i in range(4)]
        deadline = time.monotonic() + LOCKED_TURNS_TIMEOUT
        for sink in sinks:
            assert sink.done.wait(max(0.0, deadline - time.monotonic())), "held up"
            assert sink.text.startswith("Done.\n\n")
            assert t("note_memory_not_saved", "zh") in sink.text
            assert t("note_memory_unavailable", "zh") in sink.text
    finally:
        server.resume()
        memory.close()
        server.close()
        shutil.rmtree(path, ignore_errors=True)


def _save_then_recall(body: dict[str, Any]) -> Any:
    """Every turn: save what the person said and recall, then a short answer."""
    last = body["messages"][-1]
    if last["role"] == "user":
        return [*_record(last["content"]), *_recall("trip")]
    return "Done."


def test_a_held_sqlite_lock_never_holds_up_the_workers(make_core: Any, tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    memory = open_memory(dsn=f"sqlite:///{path}", redis_url="")
    other = sqlite3.connect(path, isolation_level=None)
    core = make_core(memory, workers=3, default=_save_then_recall)
    try:
        memory.record(f"feishu:{TENANT}:ou_alice", [RED_EYE])
        other.execute("BEGIN EXCLUSIVE")  # another process's long write, a backup, a tool

        sinks = [
            core.send(f"I prefer aisle seats, number {i}", message_id=f"om_{i}") for i in range(9)
        ]
        # Nine turns on three workers, all answered well within the old wait of 30 s
        # per write (three rounds of it: 90 s); each takes the busy timeout, 2 s.
        deadline = time.monotonic() + LOCKED_TURNS_TIMEOUT
        for sink in sinks:
            assert sink.done.wait(max(0.0, deadline - time.monotonic())), "held up by the lock"
            assert sink.text == "Done.\n\n" + t("note_memory_not_saved", "en")
        # Reading went on beside the lock (WAL): the preference was recalled, not lost.
        assert any(RED_EYE in result for result in core.tool_results())

        other.execute("ROLLBACK")
        saved = core.answer("I prefer aisle seats", message_id="om_after")
        assert saved.text == "Done."
        assert "I prefer aisle seats" in memory.retrieve(f"feishu:{TENANT}:ou_alice")
    finally:
        other.close()
        core.conversation.pool.shutdown(wait=True)
        memory.close()


def test_a_message_with_a_lone_surrogate_is_answered_and_kept_in_the_thread(
    make_core: Any, tmp_path: Path
) -> None:
    """JSON can carry a lone surrogate, which neither Redis nor the model's API accepts."""
    memory = open_memory(dsn=f"sqlite:///{tmp_path}/m.db", redis_url="")
    try:
        core = make_core(memory)
        core.model.script("Hello!")
        sink = core.answer("hi \ud800")
        assert sink.text == "Hello!"
        kept = core.conversation.threads.load(f"feishu:{TENANT}:oc_chat:om_1")
        assert [turn.text for turn in kept] == ["hi \ufffd", "Hello!"]
    finally:
        memory.close()
