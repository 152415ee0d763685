"""Self-test: the official `openai` client talks to the scripted model like to a real one."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import openai
import pytest
from openai import OpenAI

from tests.support.llm_server import Delay, Drop, Fail, Reply, ScriptedModel, tokens


@pytest.fixture
def model() -> Iterator[ScriptedModel]:
    with ScriptedModel() as scripted:
        yield scripted


def _client(model: ScriptedModel, **kwargs: Any) -> OpenAI:
    kwargs.setdefault("max_retries", 0)
    return OpenAI(base_url=model.base_url, api_key="test", **kwargs)


def test_text_then_tool_calls_then_default(model: ScriptedModel) -> None:
    model.script(
        "Hello there",
        [
            ("record_to_memory", {"thinking": "preference", "content": ["No red-eyes"]}),
            ("retrieve_from_memory", '{"keywords": ['),
        ],
    )
    client = _client(model)
    messages: Any = [{"role": "user", "content": "hi"}]

    first = client.chat.completions.create(model="m", messages=messages)
    assert first.choices[0].message.content == "Hello there"
    assert first.choices[0].finish_reason == "stop"
    assert first.usage is not None and first.usage.total_tokens > 0

    second = client.chat.completions.create(model="m", messages=messages)
    calls = second.choices[0].message.tool_calls
    assert second.choices[0].finish_reason == "tool_calls"
    assert calls is not None and len(calls) == 2
    record, retrieve = calls
    assert record.type == "function" and retrieve.type == "function"
    assert record.id != retrieve.id
    assert json.loads(record.function.arguments)["content"] == ["No red-eyes"]
    assert retrieve.function.arguments == '{"keywords": ['  # malformed on purpose

    third = client.chat.completions.create(model="m", messages=messages)
    assert third.choices[0].message.content == "OK"
    assert [r["messages"] for r in model.requests] == [messages] * 3


def test_errors_delays_and_dynamic_replies(model: ScriptedModel) -> None:
    model.script(
        Fail(429, retry_after=0),
        Fail(500),
        Drop(),
        Delay(2, then="late"),
        lambda body: f"you said {body['messages'][-1]['content']}",
        Reply(content='{"a": 1}'),
    )
    client = _client(model, timeout=0.5)
    messages: Any = [{"role": "user", "content": "ping"}]
    with pytest.raises(openai.RateLimitError) as limited:
        client.chat.completions.create(model="m", messages=messages)
    assert limited.value.response.headers["retry-after"] == "0"
    with pytest.raises(openai.InternalServerError):
        client.chat.completions.create(model="m", messages=messages)
    with pytest.raises(openai.APIConnectionError):
        client.chat.completions.create(model="m", messages=messages)
    with pytest.raises(openai.APITimeoutError):
        client.chat.completions.create(model="m", messages=messages)
    dynamic = client.chat.completions.create(model="m", messages=messages)
    assert dynamic.choices[0].message.content == "you said ping"
    as_json = client.chat.completions.create(
        model="m", messages=messages, response_format={"type": "json_object"}
    )
    assert json.loads(as_json.choices[0].message.content or "") == {"a": 1}
    assert model.last_request["response_format"] == {"type": "json_object"}


def test_streaming_sends_tokens_then_tool_call_deltas(model: ScriptedModel) -> None:
    model.script(
        "Streamed, 一个字一个字。",
        Reply("Let me look.", [("retrieve_from_memory", {"keywords": ["trip", "成都"]})]),
    )
    client = _client(model)
    messages: Any = [{"role": "user", "content": "hi"}]
    stream = client.chat.completions.create(
        model="m", messages=messages, stream=True, stream_options={"include_usage": True}
    )
    chunks = list(stream)
    pieces = [
        c.choices[0].delta.content for c in chunks if c.choices and c.choices[0].delta.content
    ]
    assert "".join(pieces) == "Streamed, 一个字一个字。"
    assert pieces == tokens("Streamed, 一个字一个字。") and len(pieces) == 8
    assert chunks[-1].usage is not None and chunks[-1].usage.total_tokens > 0

    chunks = list(client.chat.completions.create(model="m", messages=messages, stream=True))
    deltas = [d for c in chunks if c.choices for d in c.choices[0].delta.tool_calls or []]
    assert len(deltas) > 2  # the arguments arrive in pieces
    assert deltas[0].id and deltas[0].function is not None
    assert deltas[0].function.name == "retrieve_from_memory"
    arguments = "".join(d.function.arguments or "" for d in deltas if d.function)
    assert json.loads(arguments) == {"keywords": ["trip", "成都"]}
    assert chunks[-1].choices[0].finish_reason == "tool_calls"
    assert model.requests[-1]["stream"] is True


def test_streaming_is_paced_and_can_break_halfway(model: ScriptedModel) -> None:
    model.tokens_per_second = 20
    model.first_token_seconds = 0.2
    model.script("one two three four five six", Reply("one two three four", cut_after=3))
    client = _client(model)
    messages: Any = [{"role": "user", "content": "hi"}]
    started = time.monotonic()
    seen: list[float] = []
    for chunk in client.chat.completions.create(model="m", messages=messages, stream=True):
        if chunk.choices and chunk.choices[0].delta.content:
            seen.append(time.monotonic() - started)
    assert len(seen) == 6
    assert seen[0] >= 0.2  # the prefill
    assert seen[-1] - seen[0] >= 5 * 0.05 * 0.9  # twenty tokens a second
    [timing] = model.timings
    assert timing.done_at > timing.first_token_at > 0

    text = ""
    with pytest.raises(httpx.RemoteProtocolError):
        for chunk in client.chat.completions.create(model="m", messages=messages, stream=True):
            text += (chunk.choices[0].delta.content or "") if chunk.choices else ""
    assert text == "one two"  # the role chunk, then two tokens, then the connection drops
