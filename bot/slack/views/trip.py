"""Block Kit for a plan in Slack: the message under an answer that planned a trip.

It shows the route and dates and always says, whatever the model wrote, when the plan
came from demo data and, for a colleague's plan, whose preferences were used. Under it
a "Save trip" button (`SAVE_TRIP_ACTION`), whose value carries the trip, or the note
that an admin's plan was saved already. Once saved, the message is replaced by
`saved_blocks`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import Any

from bot.conversation.reply import PlanPart
from bot.messages import t
from bot.payloads import parse_json
from bot.planning.plan import PlannedTrip

SAVE_TRIP_ACTION = "save_trip"
SAVE_TRIP_BLOCK = "save_trip_block"


@dataclass(frozen=True, slots=True)
class SaveRequest:
    """What a "Save trip" button carries: the trip, whose it is, who asked, the language."""

    trip: PlannedTrip
    traveller_ns: str
    requester: str
    lang: str

    @property
    def traveller(self) -> str:
        """The traveller's Slack user id (the namespace is `TEAM:USER`)."""
        return self.traveller_ns.split(":", 1)[-1]


def plan_message(part: PlanPart) -> tuple[str, list[dict[str, Any]]]:
    """(fallback text, blocks) of the message under a plan."""
    trip, lang = part.trip, part.lang
    summary = _summary(trip, lang)
    notes = _notes(trip.demo, part.traveller_user, part.requester, lang)
    blocks: list[dict[str, Any]] = [_section(summary), *(_context(note) for note in notes)]
    if part.saved:
        note = t("trip_auto_saved", lang, traveller=f"<@{part.traveller_user}>")
        blocks.append(_context(note))
        return "\n".join([summary, *notes, note]), blocks
    value = {
        "ns": part.traveller,
        "by": part.requester,
        "o": trip.origin,
        "d": trip.destination,
        "s": trip.start.isoformat(),
        "e": trip.end.isoformat() if trip.end else None,
        "l": lang,
        "x": trip.demo,
    }
    blocks.append(
        {
            "type": "actions",
            "block_id": SAVE_TRIP_BLOCK,
            "elements": [
                {
                    "type": "button",
                    "action_id": SAVE_TRIP_ACTION,
                    "style": "primary",
                    "text": {"type": "plain_text", "text": t("trip_save_button", lang)},
                    "value": json.dumps(value, ensure_ascii=False),
                }
            ],
        }
    )
    return "\n".join([summary, *notes]), blocks


def read_save_request(value: object) -> SaveRequest | None:
    """The trip a "Save trip" button carries, or None when its value is unreadable."""
    try:
        data = parse_json(value if isinstance(value, str) else "")
        trip = PlannedTrip(
            origin=str(data["o"]),
            destination=str(data["d"]),
            start=date.fromisoformat(data["s"]),
            end=date.fromisoformat(data["e"]) if data.get("e") else None,
            demo=data.get("x") is True,
        )
        return SaveRequest(trip, str(data["ns"]), str(data["by"]), str(data["l"]))
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def saved_blocks(request: SaveRequest, note: str) -> list[dict[str, Any]]:
    """The message once the trip is saved: the route, its notes, and who saved it."""
    lang = request.lang
    notes = _notes(request.trip.demo, request.traveller, request.requester, lang)
    return [_section(_summary(request.trip, lang)), *(_context(x) for x in [*notes, note])]


def _notes(demo: bool, traveller: str, requester: str, lang: str) -> list[str]:
    """The demo-data notice and whose preferences were used, when they apply."""
    notes = [t("plan_demo_note", lang)] if demo else []
    if traveller != requester:
        notes.append(t("trip_preferences_of", lang, traveller=f"<@{traveller}>"))
    return notes


def _section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def _context(text: str) -> dict[str, Any]:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": text}]}


def _summary(trip: PlannedTrip, lang: str) -> str:
    dates = trip.start.isoformat()
    if trip.end and trip.end != trip.start:
        dates += f" – {trip.end.isoformat()}"
    return t("trip_summary", lang, origin=trip.origin, destination=trip.destination, dates=dates)


__all__ = [
    "SAVE_TRIP_ACTION",
    "SAVE_TRIP_BLOCK",
    "SaveRequest",
    "plan_message",
    "read_save_request",
    "saved_blocks",
]
