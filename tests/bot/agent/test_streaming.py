"""The agent streams its answers: text as it arrives, tool calls assembled from deltas."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest
from openai import OpenAI

from bot.agent.completion import BrokenStream, StreamReader
from bot.agent.loop import Agent
from bot.agent.tools import ToolContext
from bot.errors import LLMUnavailable
from bot.messages import t
from bot.metrics import Metrics
from memory.engine import Memory
from tests.support.llm_server import Fail, Reply, ScriptedModel, tokens

RED_EYE = "I never take red-eye flights"


@pytest.fixture
def agent(scripted_model: ScriptedModel, sqlite_memory: Memory) -> Iterator[Agent]:
    client = OpenAI(base_url=scripted_model.base_url, api_key="test")
    yield Agent(
        llm=client,
        model="scripted",
        memory=sqlite_memory,
        request_timeout_seconds=2.0,
        timeout_seconds=10.0,
        backoff_seconds=0.01,
        max_backoff_seconds=0.05,
        clock=lambda: datetime(2026, 3, 2, 1, 30, tzinfo=UTC),
        metrics=Metrics(),
    )
    client.close()


def _ctx(**kwargs: Any) -> ToolContext:
    return ToolContext(namespace="T1:U1", tenant="T1", user_id="U1", **kwargs)


def test_the_answer_arrives_token_by_token_and_is_the_reply(
    agent: Agent, scripted_model: ScriptedModel
) -> None:
    answer = "Here is a **morning flight** to Chengdu, 上午十点起飞。"
    scripted_model.script(answer)
    heard: list[str] = []
    reply = agent.run(_ctx(), "plan my trip", on_text=heard.append)
    assert heard == tokens(answer)
    assert reply.text == answer
    assert scripted_model.last_request["stream"] is True
    assert agent.metrics is not None
    assert "llm_first_token_seconds_count 1" in agent.metrics.render()
    assert reply.usage.completion_tokens > 0  # the usage chunk was asked for and read


def test_text_before_a_tool_call_stays_and_the_answer_goes_on_after_it(
    agent: Agent, scripted_model: ScriptedModel, sqlite_memory: Memory
) -> None:
    scripted_model.script(
        Reply("Let me note that.", [("record_to_memory", {"thinking": "t", "content": [RED_EYE]})]),
        "Done: no red-eyes.",
    )
    heard: list[str] = []
    reply = agent.run(_ctx(), RED_EYE, on_text=heard.append)
    assert "".join(heard) == "Let me note that.\n\nDone: no red-eyes." == reply.text
    assert [i.text for i in sqlite_memory.items("T1:U1")] == [RED_EYE]
    # The model saw its own text and the call it made in one assistant message.
    [assistant] = [m for m in scripted_model.last_request["messages"] if m["role"] == "assistant"]
    assert assistant["content"] == "Let me note that."
    assert assistant["tool_calls"][0]["function"]["name"] == "record_to_memory"


def test_each_tool_says_what_the_agent_is_doing_in_the_persons_language(
    agent: Agent, scripted_model: ScriptedModel
) -> None:
    scripted_model.script(
        [("retrieve_from_memory", {"keywords": ["高铁"]})],
        [("record_to_memory", {"thinking": "t", "content": ["出差只坐高铁一等座"]})],
        "好的。",
    )
    said: list[str] = []
    agent.run(_ctx(progress=said.append), "出差只坐高铁一等座")
    assert said == ["正在回忆你的出行偏好…", "正在记下你的出行偏好…"]


def test_a_stream_that_breaks_before_any_text_is_retried(
    agent: Agent, scripted_model: ScriptedModel
) -> None:
    call = [("retrieve_from_memory", {"keywords": ["trip"]})]
    scripted_model.script(Reply(tool_calls=call, cut_after=2), call, "All set.")
    heard: list[str] = []
    reply = agent.run(_ctx(), "plan my trip", on_text=heard.append)
    assert reply.text == "All set." and "".join(heard) == "All set."
    assert len(scripted_model.requests) == 3
    assert [c.name for c in reply.tool_calls] == ["retrieve_from_memory"]


def test_a_stream_that_breaks_after_text_is_shown_ends_the_turn(
    agent: Agent, scripted_model: ScriptedModel
) -> None:
    scripted_model.script(Reply("Your plan: first take the", cut_after=4), "never asked")
    heard: list[str] = []
    with pytest.raises(LLMUnavailable) as failed:
        agent.run(_ctx(), "plan my trip", on_text=heard.append)
    assert failed.value.kind == "broke_off"
    assert "".join(heard) == "Your plan: first"  # what was shown is not shown twice
    assert len(scripted_model.requests) == 1


def test_errors_before_the_stream_starts_are_retried_as_before(
    agent: Agent, scripted_model: ScriptedModel
) -> None:
    scripted_model.script(Fail(503), Fail(429, retry_after=0), "Hello!")
    heard: list[str] = []
    assert agent.run(_ctx(), "hi", on_text=heard.append).text == "Hello!"
    assert heard == ["Hello!"] and len(scripted_model.requests) == 3


def test_an_empty_answer_is_replaced_and_the_replacement_is_heard(
    agent: Agent, scripted_model: ScriptedModel
) -> None:
    scripted_model.script("  \n ")
    heard: list[str] = []
    reply = agent.run(_ctx(), "hmm", on_text=heard.append)
    assert reply.text == t("agent_empty_reply", "en") == "".join(heard)


def test_a_failing_listener_never_stops_the_turn(
    agent: Agent, scripted_model: ScriptedModel
) -> None:
    scripted_model.script("Still answered.")

    def broken(text: str) -> None:
        raise RuntimeError("slack is down")

    assert agent.run(_ctx(progress=broken), "hi", on_text=broken).text == "Still answered."


def test_without_streaming_each_step_is_heard_whole(
    scripted_model: ScriptedModel, sqlite_memory: Memory
) -> None:
    client = OpenAI(base_url=scripted_model.base_url, api_key="test")
    agent = Agent(llm=client, model="scripted", memory=sqlite_memory, stream=False)
    scripted_model.script(
        Reply("Checking.", [("retrieve_from_memory", {"keywords": ["trip"]})]), "Here it is."
    )
    heard: list[str] = []
    reply = agent.run(_ctx(), "plan", on_text=heard.append)
    client.close()
    assert heard == ["Checking.", "\n\n", "Here it is."]
    assert reply.text == "Checking.\n\nHere it is."
    assert all("stream" not in request for request in scripted_model.requests)


def _chunk(*, content: str | None = None, calls: Any = None, finish: str | None = None) -> Any:
    delta = SimpleNamespace(content=content, tool_calls=calls)
    choice = SimpleNamespace(index=0, delta=delta, finish_reason=finish)
    return SimpleNamespace(choices=[choice], usage=None)


def _call(index: int | None, *, id: str = "", name: str = "", arguments: str = "") -> Any:
    function = SimpleNamespace(name=name or None, arguments=arguments or None)
    return SimpleNamespace(index=index, id=id or None, type="function", function=function)


def test_the_reader_copes_with_how_endpoints_differ() -> None:
    reader = StreamReader()
    reader.feed(_chunk(calls=[_call(None, id="a", name="retrieve_from_memory")]))
    reader.feed(_chunk(calls=[_call(None, arguments='{"keywords": ')]))
    reader.feed(_chunk(calls=[_call(None, arguments='["x"]}', name="retrieve_from_memory")]))
    reader.feed(_chunk(calls=[_call(None, id="b", name="plan_itinerary", arguments="{}")]))
    reader.feed(_chunk(finish="tool_calls"))
    message = reader.message()
    assert [(c.id, c.name, c.arguments) for c in message.calls] == [
        ("a", "retrieve_from_memory", '{"keywords": ["x"]}'),
        ("b", "plan_itinerary", "{}"),
    ]
    assert message.finish_reason == "tool_calls"

    with pytest.raises(BrokenStream):  # nothing came, not even a finish reason
        StreamReader().message()
