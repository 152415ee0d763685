"""The readable view of a memory, forgetting one fact, and where a fact came from.

Showing what is remembered and forgetting everything are the core's flows
(`bot.flows.preferences`); a page or tab that lists the facts one by one forgets one
here. The namespace is always the person's own: an item id from anyone else's memory
matches nothing.

`read_view` is the one readable view of a memory, in the person's language, in the
page's words: the summary, the profile as phrases ("Takes first-class seats on trains"),
values that hold only for some trips, and each fact with where it came from, its date
and a short id. The web page draws its facts from `fact_view`; the terminal console's
`/prefs` and `travel-bot memory show` print `view_lines`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.messages import t
from bot.prefs.form import scoped_labels
from bot.prefs.prefill import structured_profile
from memory.lang import Lang
from memory.scope import scope_label

if TYPE_CHECKING:
    from bot.metrics import Metrics
    from memory.protocol import LongTermMemory
    from memory.types import MemoryItem

SHORT_ID_CHARS = 8  # ids are shown this long, or longer where two would look alike


def forget_one(memory: LongTermMemory, namespace: str, item_id: str, metrics: Metrics) -> int:
    """Erase one fact (`MemoryEngineError` when memory is down); how many were erased."""
    count = memory.forget(namespace, item_id)
    metrics.inc("prefs_forgotten_total", count, scope="item")
    return count


def forget_fact(
    memory: LongTermMemory, namespace: str, item_id: str, metrics: Metrics
) -> tuple[int, str]:
    """Erase one fact: how many were erased (with the versions it replaced, which the
    person never saw as facts of their own) and its words, to say which one went ("" when
    it was not a current fact of `namespace`)."""
    texts = {item.id: item.text for item in memory.items(namespace)}
    count = forget_one(memory, namespace, item_id, metrics)
    return count, texts.get(item_id, "") if count else ""


def source_label(source: str, lang: Lang) -> str:
    """Where a fact came from ("from chat", "from the form", ...), in the person's language."""
    if source in ("chat", "form", "admin", "console", "import"):
        return t(f"home_source_{source}", lang)
    return t("home_source_other", lang, source=source)


# -- the readable view ----------------------------------------------------------------------


@dataclass(frozen=True)
class FactView:
    """One current fact as a person reads it."""

    id: str
    short_id: str  # the shortest prefix of `id` (at least 8 characters) no other fact shares
    text: str
    lang: Lang  # the language the fact is written in
    source: str  # "from chat", "来自表单", ...
    iso: str  # when it was said, ISO 8601
    date: str  # YYYY-MM-DD
    scope: str  # "only for: trains", or "" for a general fact


@dataclass(frozen=True)
class MemoryView:
    summary: str
    profile: str  # "Takes first-class seats on trains; avoids red-eye flights." ("": none)
    scoped: tuple[str, ...]  # values that hold only for some trips: "trains: Window"
    facts: tuple[FactView, ...]


def read_view(memory: LongTermMemory, namespace: str, lang: Lang) -> MemoryView:
    """Everything remembered for `namespace`, in words (`MemoryEngineError` when memory is
    down)."""
    items = memory.items(namespace)
    if not items:
        return MemoryView("", "", (), ())
    schema = memory.schema
    profile = schema.render_sentence(structured_profile(memory, namespace), lang)
    scoped = scoped_labels(schema, memory.scoped_profile(namespace), lang)
    shown = short_ids(item.id for item in items)
    facts = tuple(fact_view(item, lang, shown[item.id]) for item in items)
    return MemoryView(memory.retrieve(namespace), profile, scoped, facts)


def fact_view(item: MemoryItem, lang: Lang, short_id: str = "") -> FactView:
    return FactView(
        id=item.id,
        short_id=short_id or item.id,
        text=item.text,
        lang="zh" if item.lang == "zh" else "en",
        source=source_label(item.source, lang),
        iso=item.created_at.isoformat(),
        date=item.created_at.date().isoformat(),
        scope=t("home_scope", lang, scope=scope_label(item.scope, lang)) if item.scope else "",
    )


def view_lines(view: MemoryView, lang: Lang) -> list[str]:
    """The view as plain text, a line each: for a terminal (`/prefs`, `memory show`)."""
    lines = [f"{t('page_summary_heading', lang)}{_COLON[lang]}{view.summary}"]
    if view.profile:
        lines.append(t("prefs_saved_profile", lang, sentence=view.profile))
    if view.scoped:
        lines.append(t("prefs_scoped_hint", lang, values=_SCOPED_SEP[lang].join(view.scoped)))
    lines.append(t("page_facts_heading", lang, count=len(view.facts)) + _COLON[lang].rstrip())
    for fact in view.facts:
        about = " · ".join(part for part in (fact.source, fact.date, fact.scope) if part)
        lines.append(f"  - {fact.text}  ({about})  [{fact.short_id}]")
    return lines


def short_ids(ids: Iterable[str], *, least: int = SHORT_ID_CHARS) -> dict[str, str]:
    """Each id's shortest prefix of at least `least` characters that no other id starts with."""
    unique = sorted(set(ids))
    shown: dict[str, str] = {}
    for n, full in enumerate(unique):
        size = least
        for other in unique[max(0, n - 1) : n] + unique[n + 1 : n + 2]:  # sorted neighbours
            size = max(size, _shared(full, other) + 1)
        shown[full] = full[:size]
    return shown


def match_id(prefix: str, ids: Sequence[str]) -> list[str]:
    """The ids `prefix` names: itself when it is one, else those it begins (for a prefix as
    the views show them; several when it is ambiguous, none when it names nothing)."""
    prefix = prefix.strip()
    if not prefix or prefix in ids:
        return [prefix] if prefix else []
    return [full for full in dict.fromkeys(ids) if full.startswith(prefix)]


def _shared(a: str, b: str) -> int:
    """How many characters `a` and `b` begin with alike."""
    pairs = enumerate(zip(a, b, strict=False))
    return next((n for n, (x, y) in pairs if x != y), min(len(a), len(b)))


_COLON = {"en": ": ", "zh": "："}
_SCOPED_SEP = {"en": "; ", "zh": "；"}


__all__ = [
    "FactView",
    "MemoryView",
    "fact_view",
    "forget_one",
    "match_id",
    "read_view",
    "short_ids",
    "source_label",
    "view_lines",
]
