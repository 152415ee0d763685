"""Block Kit for a plan in Slack: the message under an answer that planned a trip.

It shows the route and dates, the notes the core says under every plan (demo data, whose
preferences were used), and a "Save trip" button (`SAVE_TRIP_ACTION`) whose value is the
core's payload (`bot.flows.trips.encode`, without the candidates, which Slack's 2,000
characters would not hold), or who saved it. Once saved, the message is drawn again with
who saved it instead of the button.
"""

from __future__ import annotations

import json
from typing import Any

from bot.flows.views import PlanView
from bot.messages import t
from bot.planning.plan import PlannedTrip

SAVE_TRIP_ACTION = "save_trip"
SAVE_TRIP_BLOCK = "save_trip_block"


def plan_message(view: PlanView) -> tuple[str, list[dict[str, Any]]]:
    """(fallback text, blocks) of the message under a plan."""
    trip, lang = view.part.trip, view.part.lang
    summary = _summary(trip, lang)
    notes = list(view.notes)
    blocks: list[dict[str, Any]] = [_section(summary), *(_context(note) for note in notes)]
    if view.saved:
        blocks.append(_context(view.saved))
        return "\n".join([summary, *notes, view.saved]), blocks
    if view.save is not None:
        value = {k: v for k, v in view.save.data.items() if k != "c"}
        elements = [
            {
                "type": "button",
                "action_id": SAVE_TRIP_ACTION,
                "style": "primary",
                "text": {"type": "plain_text", "text": t("trip_save_button", lang)},
                "value": json.dumps(value, ensure_ascii=False),
            }
        ]
        # *Save with …* an out-of-policy option (needs approval): the option's index is the
        # only thing its value adds; the candidates come from the plan again on click.
        for index, (option, action) in enumerate(view.picks[:4]):
            label = t("approval_pick_button", lang, option=option)
            pick = {**value, "p": action.data.get("p")}
            elements.append(
                {
                    "type": "button",
                    "action_id": f"{SAVE_TRIP_ACTION}_pick_{index}",
                    "text": {"type": "plain_text", "text": label[:75]},
                    "value": json.dumps(pick, ensure_ascii=False),
                }
            )
        blocks.append({"type": "actions", "block_id": SAVE_TRIP_BLOCK, "elements": elements})
    return "\n".join([summary, *notes]), blocks


def _section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def _context(text: str) -> dict[str, Any]:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": text}]}


def _summary(trip: PlannedTrip, lang: str) -> str:
    dates = trip.start.isoformat()
    if trip.end and trip.end != trip.start:
        dates += f" – {trip.end.isoformat()}"
    return t("trip_summary", lang, origin=trip.origin, destination=trip.destination, dates=dates)


__all__ = ["SAVE_TRIP_ACTION", "SAVE_TRIP_BLOCK", "plan_message"]
