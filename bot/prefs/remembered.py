"""What is remembered about a person, for them to see and erase, whatever the platform.

`/travel-prefs show` and the Home tab's summary, `/travel-prefs forget` and the Home
tab's "Forget everything" (which also ends every link to the person's preferences page
and every page session: `bot.prefs.revocations`), and forgetting one fact. The
namespace is always the person's own: an item id from anyone else's memory matches
nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.messages import t
from bot.prefs.revocations import Revocations, forget_everything
from memory.errors import MemoryEngineError
from memory.lang import Lang

if TYPE_CHECKING:
    from bot.metrics import Metrics
    from memory.protocol import LongTermMemory


def show(
    memory: LongTermMemory, namespace: str, lang: Lang, *, escape: Callable[[str], str] = str
) -> str:
    """The summary of what is remembered, and how many facts, in the person's language.

    `escape` makes the remembered text inert in the platform's markup (Slack's `<!channel>`
    in a stored fact must never ping anyone).
    """
    try:
        count = len(memory.items(namespace))
        summary = memory.retrieve(namespace) if count else ""
    except MemoryEngineError:
        return t("home_unavailable", lang)
    text = t("prefs_show", lang, count=count, summary=escape(summary)) if count else ""
    return text or t("prefs_show_empty", lang)


def forget_all(
    memory: LongTermMemory,
    namespace: str,
    lang: Lang,
    metrics: Metrics,
    *,
    revocations: Revocations | None,
) -> str:
    """Erase everything remembered about the person and end their links and page
    sessions; what to tell them."""
    try:
        count = forget_everything(memory, revocations, namespace)
    except MemoryEngineError:
        return t("memory_unavailable", lang)
    metrics.inc("prefs_forgotten_total", count, scope="all")
    return t("prefs_forgot_all", lang, count=count) if count else t("prefs_forget_nothing", lang)


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


__all__ = ["forget_all", "forget_one", "show", "source_label"]
