"""Options named as one list in a fact ("Hyatt or Hilton", "done with Hilton and Marriott",
"汉庭和如家"): given up together, and dropped from the list in the fact's own words when a
newer fact gives up one of them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol, TypeVar

Span = tuple[int, int]


class Named(Protocol):
    """A slot's phrase found in a fact (`memory.profile`'s hits)."""

    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def slot(self) -> str: ...
    @property
    def option(self) -> str | None: ...


H = TypeVar("H", bound=Named)
# Between two options of one list: a comma, a conjunction, or both ("A, B and C").
_JOIN = re.compile(r"^\s*[,，]?\s*(?:(?:and|or|nor|&|/)\b|[&/、和或与跟及]|或者)?\s*$", re.I)


def listed(spans: Sequence[Span], at: int, text: str) -> tuple[int, int]:
    """The first and last index of the list in `text` that the option at `spans[at]` is
    in (`spans`: one slot's options, in order): a list ends at its last "and" / "or", so a
    name after a comma alone is the rest of the fact ("I'm done with Hilton, Marriott from
    now on"), not a third option given up."""
    lo = hi = at
    while lo > 0 and _JOIN.match(text[spans[lo - 1][1] : spans[lo][0]]):
        lo -= 1
    while hi + 1 < len(spans) and _JOIN.match(text[spans[hi][1] : spans[hi + 1][0]]):
        hi += 1
    ends = [i + 1 for i in range(lo, hi) if text[spans[i][1] : spans[i + 1][0]].strip(" ,，")]
    if not ends or at > ends[-1]:
        return at, at
    return lo, ends[-1]


def without(text: str, spans: Sequence[Span], dropped: set[int]) -> str | None:
    """`text` with the options at `dropped` (indices into `spans`, one slot's options in
    order) taken out of the list they are in, with their joining words ("I only stay at
    Hyatt or Hilton" without Hyatt: "I only stay at Hilton"); None when one of them is
    not in a list with an option that stays (the fact is then said again in the slot's
    words)."""
    cuts: list[Span] = []
    for index in sorted(dropped):
        lo, hi = listed(spans, index, text)
        kept = [i for i in range(lo, hi + 1) if i not in dropped]
        if not kept:
            return None
        # take the option with the join before it ("A, B and C" without B: "A and C"), or
        # (the first of a list, or after options dropped too) with the join after it
        if any(i < index for i in kept):
            cuts.append((spans[index - 1][1], spans[index][1]))
        else:
            cuts.append((spans[index][0], spans[index + 1][0]))
    merged: list[Span] = []
    for start, end in sorted(cuts):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    for start, end in reversed(merged):
        text = text[:start] + text[end:]
    return " ".join(text.split()) if not re.search(r"[\u4e00-\u9fff]", text) else text


def same_list(hit: H, hits: Sequence[H], text: str) -> list[H]:
    """The options one list names with `hit` (of its slot), itself included."""
    same = sorted((h for h in hits if h.slot == hit.slot and h.option), key=lambda h: h.start)
    if hit not in same:
        return [hit]
    lo, hi = listed([(h.start, h.end) for h in same], same.index(hit), text)
    return same[lo : hi + 1]


def clause_ends(
    separators: re.Pattern[str], masked: str, hits: Sequence[Named]
) -> list[re.Match[str]]:
    """Where `separators` end a clause of `masked`, except inside a list of one slot's
    options: "汉庭和如家不住了" gives up both, it does not choose the first."""
    gaps = []
    for hit in hits:
        nxt = same_list(hit, hits, masked)
        at = nxt.index(hit)
        if at + 1 < len(nxt):
            gaps.append((hit.end, nxt[at + 1].start))
    found = separators.finditer(masked)
    return [m for m in found if not any(a <= m.start() < b for a, b in gaps)]


__all__ = ["clause_ends", "listed", "same_list", "without"]
