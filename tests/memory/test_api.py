"""The public API of `memory` is what docs/memory.md documents (pinned, as httpx does)."""

from __future__ import annotations

from pathlib import Path

import memory
from memory.engine import Memory

DOC = Path(__file__).resolve().parents[2] / "docs" / "memory.md"
METHODS = (
    "record",
    "search",
    "retrieve",
    "recall",
    "warm",
    "profile",
    "scoped_profile",
    "update_profile",
    "forget",
    "export",
)


def _api_section() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("## The memory API")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def test_exported_names_are_documented() -> None:
    assert sorted(memory.__all__) == [
        "InvalidSlotValue",
        "MemoryEngineError",
        "MemoryItem",
        "Recall",
        "RecordOutcome",
        "ScopedValue",
        "StoreUnavailable",
        "open_memory",
    ]
    section = _api_section()
    for name in memory.__all__:
        assert f"`{name}`" in section or f"{name}(" in section, name


def test_memory_methods_are_documented() -> None:
    section = _api_section()
    for method in METHODS:
        assert callable(getattr(Memory, method))
        assert f"mem.{method}(" in section, method


def test_the_bailian_memory_has_the_same_methods() -> None:
    """`open_memory()` may return either; the bot cannot tell them apart by their API."""
    import inspect

    from memory.bailian import BailianMemory

    for method in (*METHODS, "items", "health", "close"):
        ours, theirs = getattr(Memory, method), getattr(BailianMemory, method)
        assert list(inspect.signature(ours).parameters) == list(
            inspect.signature(theirs).parameters
        ), method
