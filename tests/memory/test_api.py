"""The public API of `memory` is what the README documents (pinned, as httpx does)."""

from __future__ import annotations

from pathlib import Path

import memory
from memory.engine import Memory

README = Path(__file__).resolve().parents[2] / "README.md"
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
    text = README.read_text(encoding="utf-8")
    start = text.index("## The memory API")
    return text[start : text.index("\n## ", start + 1)]


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
