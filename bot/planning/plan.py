"""A plan as data: what the turn's `plan_itinerary` call planned, read back from its result.

After a turn, the conversation asks `planned_trip(reply.tool_calls)` for the route and
dates of the last successful plan, with its scored candidates, so every channel can
offer to save the trip and show the options in its own widgets.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Protocol

TOOL_NAME = "plan_itinerary"
LEGS = ("outbound", "return", "hotel")


class ToolCallLike(Protocol):
    """A tool call of an agent turn (`bot.agent.loop.ToolCall` fits)."""

    @property
    def name(self) -> str: ...

    @property
    def result(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Candidate:
    """One scored option of a plan, as the planner listed it (best first per leg)."""

    leg: str  # "outbound", "return" or "hotel"
    kind: str  # "flight", "train" or "hotel"
    option: str  # one line describing it, in the traveller's language
    score: int  # 0-100
    basis: str  # why it scored so, e.g. "red-eye, the traveller avoids red-eyes"
    # With a travel policy: whether it is in policy, and the rules it breaks in words
    # (None and () without one).
    in_policy: bool | None = None
    breaks: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PlannedTrip:
    """The trip the last successful `plan_itinerary` call of a turn planned.

    `demo` says the candidates came from the bundled demo inventory; it describes the
    plan, not the trip, so two plans of one route and dates are the same trip. So do
    the `candidates`.
    """

    origin: str
    destination: str
    start: date
    end: date | None
    demo: bool = field(default=False, compare=False)
    candidates: tuple[Candidate, ...] = field(default=(), compare=False)


def planned_trip(calls: Sequence[ToolCallLike]) -> PlannedTrip | None:
    """The route, dates and candidates of the turn's last successful plan, or None."""
    for call in reversed(calls):
        if call.name != TOOL_NAME or call.result.startswith("error:"):
            continue
        try:
            plan = json.loads(call.result)
            route = plan["route"]
            end = route.get("return_date")
            return PlannedTrip(
                origin=str(route["origin"]),
                destination=str(route["destination"]),
                start=date.fromisoformat(route["depart_date"]),
                end=date.fromisoformat(end) if end else None,
                demo=plan.get("demo_data") is True,
                candidates=_candidates(plan.get("legs")),
            )
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
    return None


def _candidates(legs: object) -> tuple[Candidate, ...]:
    """The listed options of every leg; anything malformed is left out."""
    if not isinstance(legs, Mapping):
        return ()
    found: list[Candidate] = []
    for leg in LEGS:
        entry: Any = legs.get(leg)
        rows = entry.get("options") if isinstance(entry, Mapping) else None
        for row in rows if isinstance(rows, list) else []:
            if not isinstance(row, Mapping):
                continue
            score = row.get("score")
            if isinstance(score, bool) or not isinstance(score, int | float):
                continue
            found.append(
                Candidate(
                    leg=leg,
                    kind=str(row.get("kind") or ""),
                    option=str(row.get("option") or ""),
                    score=int(score),
                    basis=str(row.get("basis") or ""),
                    in_policy=_flag(row.get("in_policy")),
                    breaks=_texts(row.get("policy_breaks")),
                )
            )
    return tuple(found)


def _flag(value: object) -> bool | None:
    return value if isinstance(value, bool) else None


def _texts(value: object) -> tuple[str, ...]:
    return tuple(str(v) for v in value if isinstance(v, str)) if isinstance(value, list) else ()


__all__ = ["LEGS", "TOOL_NAME", "Candidate", "PlannedTrip", "ToolCallLike", "planned_trip"]
