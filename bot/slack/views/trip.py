"""Block Kit for a plan in Slack: the message under an answer that planned a trip.

It shows the route and dates, the notes the core says under every plan (demo data, whose
preferences were used), and a "Save trip" button (`SAVE_TRIP_ACTION`) whose value is the
core's payload (`bot.flows.trips.encode`, without the candidates, which Slack's 2,000
characters would not hold), with what to send instead (`save trip CODE`), or who saved
it. Once saved, the message is drawn again with who saved it instead of the button.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.flows.views import PlanView
from bot.messages import t
from bot.planning.plan import PlannedTrip

SAVE_TRIP_ACTION = "save_trip"
SAVE_TRIP_BLOCK = "save_trip_block"


def plan_message(view: PlanView, *, typed: str = "") -> tuple[str, list[dict[str, Any]]]:
    """(fallback text, blocks) of the message under a plan; `typed`: what a person may
    send to save it instead of clicking (a line under the buttons)."""
    trip, lang = view.part.trip, view.part.lang
    summary = _summary(trip, lang)
    notes = list(view.notes)
    blocks: list[dict[str, Any]] = [_section(summary), *(_context(note) for note in notes)]
    elements: list[dict[str, Any]] = []
    if view.save is not None and not view.saved:
        elements.append(
            {
                "type": "button",
                "action_id": SAVE_TRIP_ACTION,
                "style": "primary",
                "text": {"type": "plain_text", "text": t("trip_save_button", lang)},
                "value": json.dumps(_value(view.save.data), ensure_ascii=False),
            }
        )
    # *Save with …* an out-of-policy option (needs approval); like *Save trip*, its value
    # leaves the candidates out (Slack's 2,000 characters): the exceptions travel alone.
    for index, (option, action) in enumerate(view.picks[:4]):
        label = t("approval_pick_button", lang, option=option)
        elements.append(
            {
                "type": "button",
                "action_id": f"{SAVE_TRIP_ACTION}_pick_{index}",
                "text": {"type": "plain_text", "text": label[:75]},
                "value": json.dumps(_value(action.data), ensure_ascii=False),
            }
        )
    if view.saved:
        blocks.append(_context(view.saved))
    if elements:
        blocks.append({"type": "actions", "block_id": SAVE_TRIP_BLOCK, "elements": elements})
    if typed and view.save is not None and not view.saved:
        blocks.append(_context(t("slack_save_or_send", lang, command=f"`{typed}`")))
    return "\n".join([summary, *notes, *([view.saved] if view.saved else [])]), blocks


def _value(data: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "c"}


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
