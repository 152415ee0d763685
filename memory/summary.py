"""The budgeted natural-language summary that recall returns."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from memory.lang import Lang, detect_lang, dominant_lang
from memory.types import MemoryItem
from memory.views import (
    change_marks,
    change_note,
    change_notes,
    newer_first,
    newer_first_of,
    shown,
)

if TYPE_CHECKING:
    from memory.facts import Facts

_HARD_EN = re.compile(
    r"\b(never|always|must|only|cannot|can't|won't|don't|do not|avoid|refuse|allergic|no longer)\b",
    re.IGNORECASE,
)
_HARD_ZH = re.compile(
    r"从不|绝不|不坐|不要|不吃|不住|不能|只坐|只住|只要|只|必须|一定|务必|避免|避开|过敏"
)
# The version of how a summary is rendered (order, separators, stops, change notes,
# truncation): part of every cached summary's field (`memory.cache.query_field`), so a
# deploy that renders summaries differently never serves a summary cached before it.
# Bump it with any change to what this module (or `memory.views`' notes) writes;
# tests/memory/test_cache_summary_format.py pins the rendering of each version and fails until
# it is bumped. Version 1 was the unversioned field (`q:<digest>`, before this number).
FORMAT_VERSION = 2
# Facts passed over for being too long for what is left of the budget, before it is full.
_PASS_OVER = 8
# The separator after a fact and the stop closing the last one, in the fact's language.
_MARKS: dict[str, tuple[str, str]] = {"zh": ("；", "。"), "en": ("; ", ".")}
_END_CHARS = 1  # "。" and "." alike


def _mark(lang: str, text: str) -> tuple[str, str]:
    """The separator and stop after a fact: those of the language stored with it (no reading
    of its text on the recall path), else of the language its text is written in."""
    return _MARKS.get(lang) or _MARKS[detect_lang(text)]


def _joined(parts: Sequence[str], marks: Sequence[tuple[str, str]]) -> str:
    """The facts, each followed by the separator of its language and the last by its stop,
    so English facts are never joined by "；" nor a Chinese one closed by "."."""
    if not parts:
        return ""
    body = "".join(part + sep for part, (sep, _) in zip(parts[:-1], marks, strict=False))
    return body + parts[-1] + marks[len(parts) - 1][1]


def is_hard(item: MemoryItem) -> bool:
    """A must/avoid constraint: typed slots know their polarity; free text is read for it."""
    if item.polarity is not None:
        return item.polarity in ("must", "avoid")
    return bool(_HARD_EN.search(item.text) or _HARD_ZH.search(item.text))


def summarize(items: Sequence[MemoryItem], *, max_facts: int, max_chars: int) -> str:
    """Hard constraints first, then the rest in the given (relevance) order, within budget.

    Facts keep the words and language they were stated in, and so does the punctuation
    after each ("；" and "。" after a Chinese fact, "; " and "." after an English one),
    whatever the request's language. Of two facts where the newer may replace the
    older (an unsure change of mind), the newer comes first and each says when it was said.
    """
    ordered = [item for item in items if is_hard(item)] + [
        item for item in items if not is_hard(item)
    ]
    ordered = newer_first(ordered)
    notes = change_notes(ordered)
    parts: list[str] = []
    marks: list[tuple[str, str]] = []
    used = _END_CHARS
    for item in ordered:
        if len(parts) >= max_facts:
            break
        text = shown(item.text)
        if not text:
            continue
        mark = _mark(item.lang, text)
        text += notes.get(item.id, "")
        cost = len(text) + (len(marks[-1][0]) if parts else 0)
        if used + cost > max_chars:
            if parts:
                break
            text = text[: max(1, max_chars - used - 1)] + "…"
            cost = len(text)
        parts.append(text)
        marks.append(mark)
        used += cost
    return _joined(parts, marks)


def summarize_facts(
    facts: Facts,
    query: str,
    *,
    rank: Callable[[Facts, str], Sequence[int]],
    max_facts: int,
    max_chars: int,
) -> tuple[str, Lang, bool]:
    """The summary of `facts` for `query`, the language it is for, and whether it
    fits every request (then it would be cached for every request in that language).
    Since issue 22 no non-empty summary does: a summary is ordered for its request, and
    the whole profile is cached under the empty request's own field.

    For a request, every fact in the order `rank` gives (positions, best first: typed
    slots and free text alike), as many as the budget holds: what matters for the
    request comes first, and a constraint unrelated to it is included only after every
    fact ranked above it (issue 22: "hard" constraints first filled the old 8-fact budget
    with unrelated ones). With no request, the whole profile: hard constraints first,
    newest first (typed slots before free text when not everything fits).

    The language returned is the request's; with no request, the language most facts
    are written in. Punctuation follows each fact's own (`summarize`).
    """
    if not facts:
        return "", "en", True
    lang = detect_lang(query) if query.strip() else dominant_lang(facts.texts)
    if query.strip():
        return _ranked(facts, list(rank(facts, query)), max_facts, max_chars), lang, False
    items = list(reversed(facts.items))  # newest first
    everything = summarize(items, max_facts=len(items), max_chars=10**9)
    if len(items) <= max_facts and len(everything) <= max_chars:
        return everything, lang, False
    slots = list(reversed(facts.typed()))
    free = list(reversed(facts.free().items))
    return summarize(slots + free, max_facts=max_facts, max_chars=max_chars), lang, False


def _ranked(facts: Facts, order: list[int], max_facts: int, max_chars: int) -> str:
    """The facts at `order`'s positions, in that order, within budget; read from the
    columns of `facts` (items are built only for the facts shown with a note of a change
    of mind the engine was unsure of). A fact too long for what is left is passed over
    for the next (up to `_PASS_OVER` of them: a traveller with hundreds of facts is not
    read to the end)."""
    notes: dict[int, str] = {}
    if facts.contested.count(None) != len(facts.contested):
        position = {facts.ids[i]: n for n, i in enumerate(order)}
        if any(facts.contested[i] in position for i in order):
            ids, contested = facts.ids, facts.contested
            order = newer_first_of(order, ids.__getitem__, contested.__getitem__)
            notes = change_marks(order, ids.__getitem__, contested.__getitem__)
    parts: list[str] = []
    marks: list[tuple[str, str]] = []
    used = _END_CHARS
    passed = 0
    for i in order:
        if len(parts) >= max_facts or passed > _PASS_OVER:
            break
        text = facts.shown_at(i)
        if not text:
            continue
        mark = _mark(facts.langs[i], text)
        if notes and i in notes:
            text += change_note(facts.items[i], notes[i])
        cost = len(text) + (len(marks[-1][0]) if parts else 0)
        if used + cost > max_chars:
            if parts:
                passed += 1
                continue
            text = text[: max(1, max_chars - used - 1)] + "…"
            cost = len(text)
        parts.append(text)
        marks.append(mark)
        used += cost
    return _joined(parts, marks)
