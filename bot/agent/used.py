"""Which remembered preferences a turn used, and when each was said.

What the turn's recall brought to the model (`ToolContext.recalled`: the summaries the
memory tools, the planner and a static recall read) is matched against the traveller's
current facts (their own words, `memory.types.MemoryItem`), so a channel can list them
under the answer with the day each was said (`bot.conversation.work`).

A summary holds the person's whole profile when it fits (issue 22), ordered so that what
matters for the request comes first. So the list follows the summary's order, not the
facts' age, and stops at `MAX_USED`: the preferences most relevant to this request, not
the most recently said ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.messages import t
from memory.lang import Lang
from memory.types import MemoryItem

MAX_USED = 5  # preferences listed under one answer, the most relevant first


@dataclass(frozen=True, slots=True)
class UsedPreference:
    """A remembered preference the turn used, and when the person said it."""

    text: str
    said_at: datetime
    when: str  # "said on 2026-11-03" / "2026-11-03 说的", in the writer's time zone


def used_preferences(
    items: Iterable[MemoryItem], recalled: Sequence[str], *, lang: Lang, tz: str
) -> list[UsedPreference]:
    """The facts among `items` (current facts) that a summary in `recalled` brought to
    the model, in the order the turn's first summary holding them gave them (its
    relevance order), at most `MAX_USED`."""
    summaries = [_fold(text) for text in recalled if text]
    if not summaries:
        return []
    zone = _zone(tz)
    found: list[tuple[tuple[int, int], str, MemoryItem]] = []
    for item in items:
        text = " ".join(item.text.split()).rstrip(" .。．!！;；,，、")
        where = _where(_fold(text), summaries) if text else None
        if where is not None:
            found.append((where, text, item))
    found.sort(key=lambda entry: entry[0])
    used: list[UsedPreference] = []
    for _, text, item in found[:MAX_USED]:
        said_at = item.created_at.astimezone(zone)
        when = t("work_said_on", lang, date=said_at.date().isoformat())
        used.append(UsedPreference(text=text, said_at=item.created_at, when=when))
    return used


def _where(text: str, summaries: Sequence[str]) -> tuple[int, int] | None:
    """(which summary, where in it) a fact first appears, or None."""
    for index, summary in enumerate(summaries):
        at = summary.find(text)
        if at >= 0:
            return index, at
    return None


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def _zone(tz: str) -> ZoneInfo:
    try:
        return ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


__all__ = ["MAX_USED", "UsedPreference", "used_preferences"]
