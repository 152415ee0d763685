"""A plan in Feishu: the card under an answer that planned a trip.

It shows the route and dates, each leg's scored candidates with their one-line basis
("红眼航班，用户明确避开"), and always says, whatever the model wrote, when the plan came
from demo data and, for a colleague's plan, whose preferences were used. Under it a
*Save trip* button (`SAVE_TRIP`) whose value carries the trip, or the note that an
admin's plan was saved already. Once saved, the card is replaced by `saved_card`.
Every name in it is escaped (`bot.feishu.markdown.escape`): the catalogue's and the
inventory's text is shown, never read as markup.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from bot.conversation.reply import PlanPart
from bot.feishu.cards import button, card, markdown, note
from bot.feishu.markdown import escape, mention
from bot.messages import t
from bot.planning.plan import LEGS, Candidate, PlannedTrip

SAVE_TRIP = "trip.save"
MAX_PER_LEG = 3


@dataclass(frozen=True, slots=True)
class SaveRequest:
    """What a *Save trip* button carries: the trip, whose it is, who asked, the language."""

    trip: PlannedTrip
    traveller_ns: str  # feishu:TENANT:OPEN_ID
    requester: str  # the open_id of who asked for the plan
    lang: str

    @property
    def traveller(self) -> str:
        """The traveller's open_id."""
        return self.traveller_ns.rsplit(":", 1)[-1]


def plan_card(part: PlanPart) -> dict[str, Any]:
    """The card under a plan (see the module docstring)."""
    trip, lang = part.trip, part.lang
    elements = _body(trip, part.traveller_user, part.requester, lang)
    if part.saved:
        who = mention(part.traveller_user)
        elements.append(note(t("trip_auto_saved", lang, traveller=who)))
    else:
        value = {
            "a": SAVE_TRIP,
            "ns": part.traveller,
            "by": part.requester,
            "o": trip.origin,
            "d": trip.destination,
            "s": trip.start.isoformat(),
            "e": trip.end.isoformat() if trip.end else None,
            "l": lang,
            "x": trip.demo,
            "c": [_pack(c) for c in _shown(trip.candidates)],
        }
        elements.append(button(t("trip_save_button", lang), value=value, kind="primary"))
    return card(elements, title=_title(trip, lang), summary=_title(trip, lang))


def read_save_request(value: Mapping[str, Any] | None) -> SaveRequest | None:
    """The trip a *Save trip* button carries, or None when its value is unreadable."""
    try:
        data: Mapping[str, Any] = value or {}
        trip = PlannedTrip(
            origin=str(data["o"]),
            destination=str(data["d"]),
            start=date.fromisoformat(data["s"]),
            end=date.fromisoformat(data["e"]) if data.get("e") else None,
            demo=data.get("x") is True,
            candidates=tuple(_unpack(row) for row in data.get("c") or []),
        )
        return SaveRequest(trip, str(data["ns"]), str(data["by"]), str(data["l"]))
    except (ValueError, KeyError, TypeError, AttributeError, IndexError):
        return None


def saved_card(request: SaveRequest, saved_note: str) -> dict[str, Any]:
    """The plan once saved: the same candidates and notes, and who saved it."""
    trip, lang = request.trip, request.lang
    elements = _body(trip, request.traveller, request.requester, lang)
    elements.append(note(saved_note))
    return card(elements, title=_title(trip, lang), template="green")


def _body(trip: PlannedTrip, traveller: str, requester: str, lang: str) -> list[dict[str, Any]]:
    elements: list[dict[str, Any]] = []
    if trip.demo:
        elements.append(note(t("plan_demo_note", lang)))
    if traveller != requester:
        elements.append(note(t("trip_preferences_of", lang, traveller=mention(traveller))))
    for leg in LEGS:
        rows = [c for c in _shown(trip.candidates) if c.leg == leg]
        if rows:
            lines = [f"**{t('plan_leg_' + leg, lang)}**"]
            lines += [
                f"**{c.score}** · {escape(c.option)}\n{escape(c.basis)}"
                if c.basis
                else f"**{c.score}** · {escape(c.option)}"
                for c in rows
            ]
            elements.append(markdown("\n".join(lines)))
    return elements


def _shown(candidates: tuple[Candidate, ...]) -> list[Candidate]:
    """The best few of each leg, in the planner's order."""
    shown: list[Candidate] = []
    for leg in LEGS:
        shown += [c for c in candidates if c.leg == leg][:MAX_PER_LEG]
    return shown


def _title(trip: PlannedTrip, lang: str) -> str:
    dates = trip.start.isoformat()
    if trip.end and trip.end != trip.start:
        dates += f" – {trip.end.isoformat()}"
    summary = t("trip_summary", lang, origin=trip.origin, destination=trip.destination, dates=dates)
    return summary.replace("*", "")


def _pack(c: Candidate) -> list[Any]:
    return [c.leg, c.kind, c.option[:120], c.score, c.basis[:120]]


def _unpack(row: Any) -> Candidate:
    leg, kind, option, score, basis = row
    return Candidate(str(leg), str(kind), str(option), int(score), str(basis))


__all__ = ["SAVE_TRIP", "SaveRequest", "plan_card", "read_save_request", "saved_card"]
