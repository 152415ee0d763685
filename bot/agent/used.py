"""Which remembered preferences a turn used, and when each was said.

What the turn's recall brought to the model (`ToolContext.recalled`: the summaries the
memory tools, the planner and a static recall read) is matched against the traveller's
current facts (their own words, `memory.types.MemoryItem`), so a channel can list them
under the answer with the day each was said (`bot.conversation.work`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.messages import t
from memory.lang import Lang
from memory.types import MemoryItem

MAX_USED = 10  # preferences listed under one answer


@dataclass(frozen=True, slots=True)
class UsedPreference:
    """A remembered preference the turn used, and when the person said it."""

    text: str
    said_at: datetime
    when: str  # "said on 2026-11-03" / "2026-11-03 说的", in the writer's time zone


def used_preferences(
    items: Iterable[MemoryItem], recalled: Sequence[str], *, lang: Lang, tz: str
) -> list[UsedPreference]:
    """The facts among `items` (current facts, newest first) that a summary in
    `recalled` brought to the model, newest first, at most `MAX_USED`."""
    summaries = [_fold(text) for text in recalled if text]
    if not summaries:
        return []
    zone = _zone(tz)
    used: list[UsedPreference] = []
    for item in items:
        text = " ".join(item.text.split()).rstrip(" .。．!！;；,，、")
        if not text or not any(_fold(text) in summary for summary in summaries):
            continue
        said_at = item.created_at.astimezone(zone)
        when = t("work_said_on", lang, date=said_at.date().isoformat())
        used.append(UsedPreference(text=text, said_at=item.created_at, when=when))
        if len(used) >= MAX_USED:
            break
    return used


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def _zone(tz: str) -> ZoneInfo:
    try:
        return ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


__all__ = ["MAX_USED", "UsedPreference", "used_preferences"]
