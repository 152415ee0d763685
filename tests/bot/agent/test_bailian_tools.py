"""The memory tools on a Bailian-backed memory: "saved" only when the service accepted."""

from __future__ import annotations

from bot.agent.memory_tools import NOTHING_SAVED, memory_tools
from bot.agent.tools import Tool, ToolContext
from memory.bailian import BailianMemory
from tests.conftest import BailianFactory
from tests.support.bailian_api import Fail, FakeBailian


def _tool(memory: BailianMemory, name: str) -> Tool:
    return next(t for t in memory_tools(memory) if t.name == name)


def test_saved_only_when_the_service_accepted(
    bailian_memory: BailianMemory, bailian: FakeBailian, namespace: str
) -> None:
    record = _tool(bailian_memory, "record_to_memory")
    ctx = ToolContext(namespace=namespace)
    arguments = {"thinking": "a seat preference", "content": ["I prefer aisle seats"]}
    bailian.fault(*[Fail(500)] * 4, path="add-async")
    assert record.invoke(ctx, arguments) == NOTHING_SAVED
    said = record.invoke(ctx, arguments)
    assert said.startswith("saved 1 of 1 item(s):")
    assert "added" in said and "accepted" in said


def test_an_unavailable_service_is_told_as_unknown_not_absent(
    make_bailian: BailianFactory, namespace: str
) -> None:
    memory = make_bailian(dashscope_api_key="sk-wrong")
    said = _tool(memory, "retrieve_from_memory").invoke(
        ToolContext(namespace=namespace), {"keywords": ["Chengdu", "flight"]}
    )
    assert said.startswith("Memory is unavailable right now")
