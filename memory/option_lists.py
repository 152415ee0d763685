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
# The kind's own word may follow a name ("如家酒店和全季酒店", "Hilton hotels and Marriott").
_JOIN = re.compile(
    r"^\s*(?:酒店|宾馆|hotels?|resorts?)?\s*[,，]?\s*"
    r"(?P<conj>(?:and|or|nor|&|/)\b|[&/、和或与跟及]|或者)?\s*$",
    re.I,
)
# A verb said of one name after a list's last name: that name begins a clause of its own
# ("I'm done with Hilton and Marriott is my go-to now"), a list's verb agrees with it all.
_ITS_OWN = re.compile(r"\s*(?:is|was|has|'s|does)\b", re.I)


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
    joins = [_JOIN.match(text[spans[i][1] : spans[i + 1][0]]) for i in range(lo, hi)]
    ends = [lo + i + 1 for i, join in enumerate(joins) if join and join["conj"]]
    while ends and _ITS_OWN.match(text, spans[ends[-1]][1]):
        ends.pop()  # "done with Hilton and Marriott is fine": Marriott says its own clause
    if not ends or at > ends[-1]:
        return at, at
    return lo, ends[-1]


def without(text: str, spans: Sequence[Span], dropped: set[int]) -> str | None:
    """`text` with the options at `dropped` (indices into `spans`, one slot's options in
    order) taken out of the list they are in, the rest joined by the list's own last
    joins ("I only stay at Hyatt or Hilton" without Hyatt: "I only stay at Hilton";
    "Hyatt, Hilton and Marriott" without Marriott: "Hyatt and Hilton"); None when one of
    them is not in a list with an option that stays, or the cut would change what the
    rest says ("neither Hyatt nor Hilton"; "Hyatt or Hilton Garden Inn" without Hilton):
    the fact is then said again in the slot's words."""
    lists = {listed(spans, index, text) for index in dropped}
    for lo, hi in sorted(lists, reverse=True):
        kept = [i for i in range(lo, hi + 1) if i not in dropped]
        if not kept or (hi in dropped and _GOES_ON.match(text, spans[hi][1])):
            return None
        joins = [text[spans[i][1] : spans[i + 1][0]] for i in range(lo, hi)]
        joins = joins[len(joins) - len(kept) + 1 :]
        if len(kept) == 2 and joins[0].strip(" ,，"):
            joins[0] = joins[0].lstrip(" ,，")
            joins[0] = joins[0] if _CJK.match(joins[0]) else " " + joins[0]
        names = [text[spans[i][0] : spans[i][1]] for i in kept]
        rest = names[0] + "".join(j + n for j, n in zip(joins, names[1:], strict=True))
        before = text[: spans[lo][0]]
        if len(kept) == 1:
            if _NEITHER.search(before):
                return None  # its "no" would go with the list
            before = _PAIRED.sub("", before)
        text = before + rest + text[spans[hi][1] :]
    return " ".join(text.split()) if not _CJK.search(text) else text


_CJK = re.compile(r"[\u4e00-\u9fff]")
# A word that pairs the options of a list: with one option left "either" / "both" go too,
# and "neither" would leave the "no" it says with nothing to say it of.
_PAIRED = re.compile(r"\b(?:either|both)\s+$", re.I)
_NEITHER = re.compile(r"\bneither\s+$", re.I)
# The rest of a name after an option ("Hilton Garden Inn", "希尔顿欢朋"): cut before it, it
# would name another hotel.
_GOES_ON = re.compile(
    r"\s+(?!I\b)[A-Z][a-z]|[\u4e00-\u9fff](?<![酒宾都也的了等不就还吧呢啊这那我系集会之])"
)


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
