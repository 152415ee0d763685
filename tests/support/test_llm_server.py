"""Self-test: the official `openai` client talks to the scripted model like to a real one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import openai
import pytest
from openai import OpenAI

from tests.support.llm_server import Delay, Drop, Fail, Reply, ScriptedModel


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


def test_streaming(model: ScriptedModel) -> None:
    model.script("streamed", [("retrieve_from_memory", {"keywords": ["trip"]})])
    client = _client(model)
    messages: Any = [{"role": "user", "content": "hi"}]
    text = "".join(
        chunk.choices[0].delta.content or ""
        for chunk in client.chat.completions.create(model="m", messages=messages, stream=True)
        if chunk.choices
    )
    assert text == "streamed"
    chunks = list(client.chat.completions.create(model="m", messages=messages, stream=True))
    call = chunks[0].choices[0].delta.tool_calls
    assert call is not None and call[0].function is not None
    assert call[0].function.name == "retrieve_from_memory"
