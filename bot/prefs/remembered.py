"""Forgetting one remembered fact, and where a fact came from, whatever the platform.

Showing what is remembered and forgetting everything are the core's flows
(`bot.flows.preferences`); a page or tab that lists the facts one by one forgets one
here. The namespace is always the person's own: an item id from anyone else's memory
matches nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.messages import t
from memory.lang import Lang

if TYPE_CHECKING:
    from bot.metrics import Metrics
    from memory.protocol import LongTermMemory


def forget_one(memory: LongTermMemory, namespace: str, item_id: str, metrics: Metrics) -> int:
    """Erase one fact (`MemoryEngineError` when memory is down); how many were erased."""
    count = memory.forget(namespace, item_id)
    metrics.inc("prefs_forgotten_total", count, scope="item")
    return count


def source_label(source: str, lang: Lang) -> str:
    """Where a fact came from ("from chat", "from the form", ...), in the person's language."""
    if source in ("chat", "form", "admin"):
        return t(f"home_source_{source}", lang)
    return t("home_source_other", lang, source=source)


__all__ = ["forget_one", "source_label"]
