"""The conversation core with no chat platform at all: a message from a platform that
has no channel yet goes through the real agent, memory, Redis thread history and claims,
and the reply arrives in a recording sink.

The sink and the channel here stand in for a platform the tests cannot run (as the
fake Slack server does for Slack); everything else is real.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import pytest
import redis
from openai import OpenAI

from bot.agent.loop import Agent
from bot.conversation.claims import Claims
from bot.conversation.incoming import IncomingMessage, Kind
from bot.conversation.threads import ThreadHistory, Turn
from bot.conversation.turn import Conversation
from bot.messages import lang_of, t
from bot.metrics import Metrics
from bot.planning.admins import NOBODY, AdminResolver, Admins
from memory.engine import Memory
from tests.support.llm_server import Fail, Reply, ScriptedModel
from tests.support.platforms import FEISHU
from tests.support.reply_sink import RecordingSink
from tests.support.services import REDIS_URL

TENANT = "tenant-7"
RED_EYE = "I never take red-eye flights"


@dataclass
class ActivitySink(RecordingSink):
    """A sink that can also show what the agent is doing."""

    def activity(self, text: str) -> None:
        self.calls.append(("activity", text))


@dataclass
class QuietChannel:
    """A platform that knows the writer's time zone and, on request, a thread's past."""

    earlier: list[Turn] = field(default_factory=list)
    asked_for_earlier: int = 0
    admins: Admins = NOBODY

    def timezone(self, msg: IncomingMessage) -> str:
        return "Asia/Shanghai"

    def earlier_turns(self, msg: IncomingMessage, *, max_turns: int, max_chars: int) -> list[Turn]:
        self.asked_for_earlier += 1
        return self.earlier[:max_turns]


@dataclass
class Core:
    conversation: Conversation
    pool: ThreadPoolExecutor
    memory: Memory
    model: ScriptedModel

    def answer(
        self,
        msg: IncomingMessage,
        channel: QuietChannel | None = None,
        sink: RecordingSink | None = None,
    ) -> RecordingSink:
        """Accept `msg`, let every queued turn finish, and return what its sink got."""
        sink = sink if sink is not None else RecordingSink()
        self.conversation.accept(msg, sink, channel or QuietChannel())
        self.pool.shutdown(wait=True)
        self.pool = self.conversation.pool = ThreadPoolExecutor(max_workers=2)
        return sink


@pytest.fixture
def core(scripted_model: ScriptedModel, sqlite_memory: Memory, bot_prefix: str) -> Iterator[Core]:
    client = redis.Redis.from_url(REDIS_URL)
    llm = OpenAI(base_url=scripted_model.base_url, api_key="test")
    agent = Agent(llm=llm, model="scripted", memory=sqlite_memory, max_retries=0)
    pool = ThreadPoolExecutor(max_workers=2)
    conversation = Conversation(
        agent=agent,
        threads=ThreadHistory(client=client, key_prefix=bot_prefix),
        claims=Claims(client=client, key_prefix=bot_prefix),
        admins=AdminResolver(redis=client, key_prefix=bot_prefix),
        trips=None,
        metrics=Metrics(),
        pool=pool,
    )
    yield Core(conversation, pool, sqlite_memory, scripted_model)
    conversation.pool.shutdown(wait=True)
    llm.close()
    client.close()


def message(
    text: str,
    *,
    user: str = "ou_alice",
    kind: Kind = "dm",
    message_id: str = "om_1",
    thread: str | None = None,
) -> IncomingMessage:
    return IncomingMessage(
        platform=FEISHU,
        tenant=TENANT,
        user=user,
        conversation="oc_chat",
        thread=thread or message_id,
        message_id=message_id,
        text=text,
        kind=kind,
        lang=lang_of(text),
        delivery_id=f"ev-{message_id}",
    )


def _record(*facts: str) -> list[tuple[str, dict[str, Any]]]:
    return [("record_to_memory", {"thinking": "a lasting preference", "content": list(facts)})]


def test_another_platforms_message_is_answered_and_remembered_under_its_own_namespace(
    core: Core,
) -> None:
    core.model.script(_record(RED_EYE), "Noted: no red-eye flights.")
    sink = core.answer(message(RED_EYE))

    assert sink.kinds == ["status", "append", "finish", "close"]
    assert sink.calls[0] == ("status", t("working", "en"))
    assert sink.text == "Noted: no red-eye flights."
    assert len([kind for kind, _ in sink.calls if kind == "append"]) > 1  # as it was written
    assert sink.calls[-2:] == [("finish", ()), ("close", None)]
    assert [i.text for i in core.memory.items(f"feishu:{TENANT}:ou_alice")] == [RED_EYE]
    assert core.memory.items(f"{TENANT}:ou_alice") == []  # never Slack's namespace


def test_a_message_is_answered_once_however_often_it_is_delivered(core: Core) -> None:
    core.model.script("Hello!")
    first = core.answer(message("hi"))
    again = core.answer(message("hi"))
    assert first.kinds == ["status", "append", "finish", "close"]
    assert again.calls == []
    assert len(core.model.requests) == 1


def test_a_thread_follow_up_is_taken_only_in_a_thread_the_bot_is_part_of(core: Core) -> None:
    stranger = core.answer(message("anyone?", kind="thread", message_id="om_2", thread="om_0"))
    assert stranger.calls == []

    core.model.script("Chengdu it is.", "Second class, then.")
    core.answer(message("plan a trip to Chengdu", message_id="om_3"))
    follow_up = message("second class please", kind="thread", message_id="om_4", thread="om_3")
    assert core.answer(follow_up).kinds == ["status", "append", "finish", "close"]
    contents = [m["content"] for m in core.model.requests[-1]["messages"]]
    assert contents[-3:] == ["plan a trip to Chengdu", "Chengdu it is.", "second class please"]


def test_a_first_mention_partway_through_a_thread_brings_its_past_once(core: Core) -> None:
    channel = QuietChannel(earlier=[Turn("user", "Offsite in Chengdu in May", "ou_carol")])
    core.model.script("Here is a plan.", "Done.")
    mention = message("plan this for me", kind="mention", message_id="om_6", thread="om_5")
    core.answer(mention, channel)
    follow_up = message("thanks", kind="thread", message_id="om_7", thread="om_5")
    core.answer(follow_up, channel)

    first_history = [m["content"] for m in core.model.requests[0]["messages"][1:]]
    assert first_history == ["<@ou_carol>: Offsite in Chengdu in May", "plan this for me"]
    assert channel.asked_for_earlier == 1  # the follow-up read Redis


def test_planning_for_a_colleague_takes_a_travel_admin(core: Core) -> None:
    refused = core.answer(message("plan a trip for <@ou_bob> to Chengdu", message_id="om_8"))
    assert refused.kinds == ["status", "refuse", "close"]
    assert "<@ou_bob>" in refused.calls[1][1]
    assert core.model.requests == []  # nothing of Bob's memory was read

    core.model.script("Here is Bob's trip.")
    admins = QuietChannel(admins=Admins(named=frozenset({"ou_admin"})))
    allowed = core.answer(
        message("plan a trip for <@ou_bob> to Chengdu", user="ou_admin", message_id="om_9"),
        admins,
    )
    assert allowed.kinds[1] == "append" and allowed.text == "Here is Bob's trip."
    offered = [tool["function"]["name"] for tool in core.model.requests[0]["tools"]]
    assert "record_to_memory" not in offered  # an admin's run never writes Bob's memory


def test_a_mention_makes_its_thread_the_bots_before_the_answer(core: Core) -> None:
    """A follow-up accepted while the mention's turn has not even started is answered
    after it, and sees its answer."""
    core.model.script("Chengdu in May is warm.", "Then a morning train.")
    channel, first, second = QuietChannel(), RecordingSink(), RecordingSink()
    mention = message("trip to Chengdu in May?", kind="mention", message_id="om_20")
    follow_up = message("no flights", kind="thread", message_id="om_21", thread="om_20")
    assert core.conversation.accept(mention, first, channel) is True
    assert core.conversation.accept(follow_up, second, channel) is True
    core.pool.shutdown(wait=True)
    assert first.text == "Chengdu in May is warm." and second.text == "Then a morning train."
    contents = [m["content"] for m in core.model.requests[-1]["messages"][1:]]
    assert contents == ["trip to Chengdu in May?", "Chengdu in May is warm.", "no flights"]


def test_a_refused_mention_leaves_the_thread_unknown(core: Core) -> None:
    core.answer(message("plan for <@ou_bob>", kind="mention", message_id="om_22"))
    follow_up = message("please?", kind="thread", message_id="om_23", thread="om_22")
    assert core.answer(follow_up).calls == []
    assert core.model.requests == []


def test_failures_end_in_a_kind_reply_in_the_writers_language(core: Core) -> None:
    core.model.script(Fail(500))
    sink = core.answer(message("我从不坐红眼航班", message_id="om_10"))
    assert sink.calls[1] == ("fail", t("llm_unavailable", "zh"))

    empty = core.answer(message("", message_id="om_11"))
    assert empty.calls[1] == ("fail", t("empty_mention", "en"))


def test_past_the_queue_limit_the_writer_is_told_to_come_back(core: Core) -> None:
    core.conversation.max_pending = 0
    sink = core.answer(message("hello", message_id="om_12"))
    assert sink.calls == [("busy", t("busy", "en"))]
    assert core.model.requests == []


def test_a_sink_that_can_show_activity_hears_what_the_agent_does(core: Core) -> None:
    core.model.script([("retrieve_from_memory", {"keywords": ["train"]})], "一等座，好的。")
    shown = core.answer(message("出差只坐高铁一等座", message_id="om_13"), sink=ActivitySink())
    assert shown.kinds == ["status", "activity", "append", "finish", "close"]
    assert ("activity", "正在回忆你的出行偏好…") in shown.calls

    core.model.script([("retrieve_from_memory", {"keywords": ["train"]})], "OK.")
    plain = core.answer(message("trains please", message_id="om_14"))  # never asked
    assert plain.kinds == ["status", "append", "finish", "close"]


def test_a_failure_after_part_of_the_answer_is_shown_ends_it_with_the_reason(
    core: Core,
) -> None:
    core.model.script(Reply("Your plan: first take the", cut_after=4))
    sink = core.answer(message("plan my trip", message_id="om_15"))
    assert sink.kinds == ["status", "append", "finish", "close"]
    assert sink.text == "Your plan: first\n\n" + t("llm_unavailable", "en")
    assert ("fail", t("llm_unavailable", "en")) not in sink.calls
    # Nothing half-said enters the thread's history.
    follow_up = message("hello?", kind="thread", message_id="om_16", thread="om_15")
    core.model.script("Hi.")
    core.answer(follow_up)
    contents = [m["content"] for m in core.model.last_request["messages"]]
    assert contents[-2:] == ["plan my trip", "hello?"]


@dataclass
class ViewingChannel(QuietChannel):
    """A platform that says which channel the writer has open beside the chat."""

    def viewing(self, msg: IncomingMessage) -> str | None:
        return "<#C0OFFSITE|chengdu-offsite>"


def test_the_channel_the_writer_is_looking_at_reaches_the_agent(core: Core) -> None:
    core.model.script("Planning the offsite.")
    core.answer(
        message("plan a trip for this channel's offsite", message_id="om_17"), ViewingChannel()
    )
    system = core.model.last_request["messages"][0]["content"]
    assert "<#C0OFFSITE|chengdu-offsite>" in system
