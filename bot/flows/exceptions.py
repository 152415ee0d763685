"""The out-of-policy options a *Save trip* chooses, as its payload carries them.

A plan's save payload (`bot.flows.trips.encode`) carries, beside its candidates, the
out-of-policy ones in a few words ("q": index, whether it leads its leg, the option, the
rules it breaks), small enough for any platform's button (one that cannot hold the
candidates drops them, never these).
`chosen` reads back what a save chooses: the option picked with *Save with …* ("p"), else
the plan's leading option of each leg, when it is out of policy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.conversation.reply import PlanPart
from bot.planning.plan import LEGS, Candidate

_TEXT = 120  # characters of an option's words and of a rule's a payload keeps


@dataclass(frozen=True, slots=True)
class Exceptional:
    """An out-of-policy option a save would choose: its index among the payload's
    candidates, whether it leads its leg, its words and the rules it breaks in words."""

    index: int
    leading: bool
    option: str
    breaks: tuple[str, ...]


def exceptions(candidates: Sequence[Candidate]) -> list[list[Any]]:
    """The out-of-policy options of a plan's shown `candidates`, as a save payload carries
    them ("q"), small enough for any button: `[index, leading, option, breaks]`."""
    leading = {id(c) for c in _leading(candidates)}
    return [
        [i, id(c) in leading, c.option[:_TEXT], [b[:_TEXT] for b in c.breaks[:3]]]
        for i, c in enumerate(candidates)
        if c.in_policy is False
    ]


def chosen(data: Mapping[str, Any]) -> list[Exceptional]:
    """The out-of-policy options a save payload chooses: the one picked ("p"), else the
    plan's leading option of each leg."""
    found: list[Exceptional] = []
    for row in data.get("q") or []:
        try:
            index, leading, option, breaks = row
            found.append(
                Exceptional(int(index), bool(leading), str(option), tuple(map(str, breaks)))
            )
        except (ValueError, TypeError):
            continue
    pick = data.get("p")
    if isinstance(pick, int) and not isinstance(pick, bool):
        return [e for e in found if e.index == pick]
    return [e for e in found if e.leading]


def _leading(candidates: Sequence[Candidate]) -> list[Candidate]:
    first = (next((c for c in candidates if c.leg == leg), None) for leg in LEGS)
    return [c for c in first if c is not None]


def trip_words(part: PlanPart) -> str:
    trip = part.trip
    dates = trip.start.isoformat()
    if trip.end and trip.end != trip.start:
        dates += f" – {trip.end.isoformat()}"
    return f"{trip.origin} → {trip.destination} ({dates})"


__all__ = ["Exceptional", "chosen", "exceptions", "trip_words"]
