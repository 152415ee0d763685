"""What a traveller would see after telling the memory something newer, checked one way by
every change-of-mind test: the older preference replaced (gone from what the agent receives,
kept in history), or both kept as they were (nothing marked newer)."""

from __future__ import annotations

from typing import Any

from memory.engine import Memory


def history(memory: Memory, namespace: str) -> dict[str, dict[str, Any]]:
    """Every fact ever kept for `namespace` (current or not), by its text."""
    return {row["text"]: row for row in memory.export(namespace)["items"]}


def said_after(memory: Memory, namespace: str, old: str, new: str) -> Any:
    """The traveller tells `old`, then later `new`: the outcome of recording `new`."""
    memory.record(namespace, [old])
    [outcome] = memory.record(namespace, [new])
    return outcome


def assert_replaced(memory: Memory, namespace: str, old: str, outcome: Any) -> None:
    """`outcome` (the newer fact's) replaced `old`: the agent no longer receives it, history
    keeps it, pointing at the newer fact."""
    assert outcome.status == "updated", outcome
    assert old not in memory.retrieve(namespace, "")
    kept = history(memory, namespace)
    assert kept[old]["current"] is False
    assert kept[old]["superseded_by"] == outcome.item_id


def assert_kept_both_unmarked(
    memory: Memory, namespace: str, old: str, new: str, outcome: Any
) -> None:
    """No change of mind: both facts current, neither contested, the agent receives the older
    one without being told that something is newer."""
    assert outcome.status == "added", outcome
    assert {i.text for i in memory.items(namespace)} == {old, new}
    assert all(i.contested_by is None for i in memory.items(namespace))
    summary = memory.retrieve(namespace, "")
    assert old in summary and "newer" not in summary and "较新" not in summary


def assert_kept_both_marked_newer(
    memory: Memory, namespace: str, old: str, new: str, outcome: Any
) -> None:
    """Maybe a change: both facts current, the older marked as contested by the newer, and the
    agent receives the newer first, told it is the newer one."""
    assert outcome.status == "added", outcome
    current = {i.text: i for i in memory.items(namespace)}
    assert {old, new} <= set(current)
    assert current[old].contested_by == outcome.item_id
    summary = memory.retrieve(namespace, "")
    assert 0 <= summary.find(new) < summary.find(old)
    assert "newer" in summary or "较新" in summary
