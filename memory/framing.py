"""Two facts as sequences of units (English words, Chinese characters): whether the newer
is the older with one part replaced ("I stay at Marriott" -> "I stay at Hilton")."""

from __future__ import annotations

import re
from collections.abc import Sequence

CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
UNIT = re.compile(r"[a-z0-9][a-z0-9'-]*|[\u3400-\u9fff\uf900-\ufaff]")


def frame(
    old: Sequence[str],
    new: Sequence[str],
    stop: frozenset[str],
    generic: re.Pattern[str] | None = None,
) -> bool:
    """`new` is `old` with one part replaced: a shared start and end at least two thirds
    as long as the longer differing part, more than a stance, more than the words nearly
    every fact of a kind has (`generic`), and differing middles that are more than stop
    words."""
    shortest = min(len(old), len(new))
    start = 0
    while start < shortest and old[start] == new[start]:
        start += 1
    end = 0
    while end < shortest - start and old[-1 - end] == new[-1 - end]:
        end += 1
    kept = start + end
    middles = (old[start : len(old) - end], new[start : len(new) - end])
    if kept * 3 < 2 * max(len(m) for m in middles):
        return False
    frame = [*old[:start], *old[len(old) - end :]]
    if len(frame) < 3 and all(unit in stop for unit in frame):
        return False  # "I prefer X" / "I prefer Y": nothing but the stance is shared
    if generic is not None and not bare(frame, stop, generic):
        return False  # "酒店房间要无烟的" / "酒店房间要有办公桌": a room, said twice
    return all(any(unit not in stop for unit in middle) for middle in middles)


def bare(units: Sequence[str], stop: frozenset[str], generic: re.Pattern[str]) -> bool:
    """Whether `units` say something beyond stop and generic words."""
    text = "".join(u if CJK_RUN.fullmatch(u) else f" {u} " for u in units)
    return any(u not in stop for u in UNIT.findall(generic.sub(" ", text)))


def stem(word: str) -> str:
    """A light English stem, the same for "surf", "surfs" and "surfing", "hike" and
    "hiking", "run" and "running" (compared with one another only)."""
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
        if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
            word = word[:-1]  # running -> run
    if len(word) > 3 and word.endswith("e") and not word.endswith("ee"):
        word = word[:-1]  # hike -> hik, as hiking
    return word


__all__ = ["CJK_RUN", "UNIT", "bare", "frame", "stem"]
