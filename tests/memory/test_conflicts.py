"""Free-text conflicts resolved by the fast model (a scripted OpenAI-compatible server)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from memory.engine import Memory
from tests.conftest import MemoryFactory
from tests.support.llm_server import Fail, ScriptedModel

SPICY = "我喜欢吃辣"
NOT_SPICY = "我现在不吃辣了"


@pytest.fixture
def fast_model() -> Iterator[ScriptedModel]:
    with ScriptedModel() as model:
        yield model


@pytest.fixture
def judged(make_memory: MemoryFactory, fast_model: ScriptedModel) -> Memory:
    return make_memory(llm_fast_model="fast", openai_base_url=fast_model.base_url, redis_url="")


def _ids_in(request: dict[str, Any]) -> list[str]:
    prompt = request["messages"][-1]["content"]
    return re.findall(r"^([0-9a-f]{32}): ", prompt, re.MULTILINE)


def test_the_fast_model_supersedes_a_contradicted_fact(
    judged: Memory, fast_model: ScriptedModel, namespace: str
) -> None:
    old = judged.record(namespace, [SPICY])[0]
    fast_model.script(lambda req: json.dumps({"action": "update", "replaces": _ids_in(req)}))
    outcome = judged.record(namespace, [NOT_SPICY])[0]
    assert outcome.status == "updated"
    assert SPICY in outcome.reason
    assert [i.text for i in judged.items(namespace)] == [NOT_SPICY]
    history = {i["id"]: i for i in judged.export(namespace)["items"]}
    assert history[old.item_id]["superseded_by"] == outcome.item_id
    # the model was shown the existing fact and the new one, nothing of other people
    prompt = fast_model.last_request["messages"][-1]["content"]
    assert SPICY in prompt and NOT_SPICY in prompt


def test_the_fast_model_can_call_a_rephrasing_a_duplicate(
    judged: Memory, fast_model: ScriptedModel, namespace: str
) -> None:
    old = judged.record(namespace, ["I prefer hotels close to the metro"])[0]
    fast_model.script(lambda req: json.dumps({"action": "duplicate", "replaces": _ids_in(req)}))
    outcome = judged.record(namespace, ["I like staying near subway stations"])[0]
    assert outcome.status == "duplicate"
    assert outcome.item_id == old.item_id
    assert len(judged.items(namespace)) == 1


@pytest.mark.parametrize(
    "answer",
    [
        Fail(500),
        "not json at all",
        json.dumps({"action": "update", "replaces": ["made-up"]}),
        json.dumps({"action": "overwrite everything"}),
    ],
    ids=["server-error", "malformed", "unknown-id", "unknown-action"],
)
def test_a_failing_or_confused_model_never_loses_a_fact(
    judged: Memory, fast_model: ScriptedModel, namespace: str, answer: object
) -> None:
    """Without a usable answer the offline rule decides: here it reads a change of mind,
    so the old fact is superseded, and kept in history."""
    [old] = judged.record(namespace, [SPICY])
    fast_model.script(answer, answer, answer)  # the client may retry a 500
    outcome = judged.record(namespace, [NOT_SPICY])[0]
    assert fast_model.requests, "the model was asked"
    assert outcome.status == "updated"
    assert outcome.replaced_ids == (old.item_id,)
    assert [i.text for i in judged.items(namespace)] == [NOT_SPICY]
    history = {row["text"]: row for row in judged.export(namespace)["items"]}
    assert history[SPICY]["superseded_by"] == outcome.item_id


def test_a_failing_model_keeps_both_when_the_offline_rule_reads_no_change(
    judged: Memory, fast_model: ScriptedModel, namespace: str
) -> None:
    judged.record(namespace, ["I like hotels with a gym"])
    fast_model.script(Fail(500), Fail(500), Fail(500))
    outcome = judged.record(namespace, ["A pool would be nice as well"])[0]
    assert fast_model.requests, "the model was asked"
    assert outcome.status == "added"
    texts = {i.text for i in judged.items(namespace)}
    assert texts == {"I like hotels with a gym", "A pool would be nice as well"}


def test_unrelated_facts_do_not_ask_the_model(
    judged: Memory, fast_model: ScriptedModel, namespace: str
) -> None:
    judged.record(namespace, ["I never take red-eye flights"])
    judged.record(namespace, ["Museums are my favourite thing on a city trip"])
    assert fast_model.requests == []
