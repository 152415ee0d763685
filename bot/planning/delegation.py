"""Plans in Slack: planning for a colleague, and the "Save trip" button.

`delegate(...)` decides, before the agent runs, whether a message asks to plan for
someone else and whether the writer may: only a travel admin (`bot.planning.admins`) may, and
the run then reads the traveller's memory and cannot write it. After a run that planned
a trip, `after_plan(...)` saves admin-requested trips with dates at once and returns the
blocks of a small follow-up message with a "Save trip" button; `TripActions` saves the
trip when the traveller (or the admin who asked) clicks it. Saving twice saves once.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from bot.messages import t
from bot.planning.admins import AdminResolver, about_self, parse_plan_for
from bot.planning.planner import PlannedTrip
from bot.planning.trips import InvalidTrip, TripStore, canonical_city
from memory.errors import StoreUnavailable

if TYPE_CHECKING:
    from slack_bolt import Ack, App
    from slack_sdk.web import WebClient

log = logging.getLogger(__name__)

SAVE_TRIP_ACTION = "save_trip"
SAVE_TRIP_BLOCK = "save_trip_block"


@dataclass(frozen=True, slots=True)
class Delegation:
    """A request to plan for `traveller` (a Slack user id); `allowed` only for admins."""

    traveller: str
    namespace: str
    allowed: bool


def delegate(
    text: str,
    *,
    team_id: str,
    user_id: str,
    admins: AdminResolver | None,
    bot_user_id: str | None = None,
    thread_subject: str | None = None,
) -> Delegation | None:
    """None when the message is about the writer's own travel.

    `thread_subject` is the traveller an admin's earlier message in the same thread
    planned for: an admin's follow-up without a new mention keeps planning for them,
    unless it clearly speaks of the admin's own trip ("now plan my trip", "帮我订票");
    anyone else writing in that thread speaks for themselves.
    """
    traveller = parse_plan_for(text, bot_user_id=bot_user_id)
    is_admin = admins is not None and admins.is_admin(team_id, user_id)
    if traveller is None and thread_subject is not None and is_admin and not about_self(text):
        traveller = thread_subject
    if traveller is None or traveller == user_id:
        return None
    return Delegation(traveller=traveller, namespace=f"{team_id}:{traveller}", allowed=is_admin)


def _route(trip: PlannedTrip) -> tuple[str | None, str]:
    return canonical_city(trip.origin)[0] if trip.origin else None, canonical_city(
        trip.destination
    )[0]


def auto_save(
    trips: TripStore | None, trip: PlannedTrip, *, traveller_ns: str, requester_ns: str
) -> bool:
    """Save an admin-requested trip; True when it is (now or already) saved."""
    if trips is None:
        return False
    origin, destination = _route(trip)
    try:
        trips.add(traveller_ns, destination, trip.start, trip.end, origin, created_by=requester_ns)
    except (InvalidTrip, StoreUnavailable) as exc:
        log.warning("could not save an admin-requested trip (%s)", type(exc).__name__)
        return False
    return True


def trip_blocks(
    trip: PlannedTrip,
    *,
    traveller_ns: str,
    requester: str,
    lang: str,
    saved: bool,
) -> tuple[str, list[dict[str, Any]]]:
    """(fallback text, blocks) of the follow-up message under a plan.

    Besides the route and the button (or the auto-save note), it always says, whatever
    the model wrote, when the plan came from demo data and, for a colleague's plan,
    whose preferences were used.
    """
    summary = _summary(trip, lang)
    traveller = traveller_ns.split(":", 1)[-1]
    notes = _notes(trip.demo, traveller, requester, lang)
    blocks: list[dict[str, Any]] = [
        {"type": "section", "text": {"type": "mrkdwn", "text": summary}},
        *(_context(note) for note in notes),
    ]
    if saved:
        note = t("trip_auto_saved", lang, traveller=f"<@{traveller}>")
        blocks.append(_context(note))
        return "\n".join([summary, *notes, note]), blocks
    value = {
        "ns": traveller_ns,
        "by": requester,
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


def _notes(demo: bool, traveller: str, requester: str, lang: str) -> list[str]:
    """The demo-data notice and whose preferences were used, when they apply."""
    notes = [t("plan_demo_note", lang)] if demo else []
    if traveller != requester:
        notes.append(t("trip_preferences_of", lang, traveller=f"<@{traveller}>"))
    return notes


def _context(text: str) -> dict[str, Any]:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": text}]}


def _summary(trip: PlannedTrip, lang: str) -> str:
    dates = trip.start.isoformat()
    if trip.end and trip.end != trip.start:
        dates += f" – {trip.end.isoformat()}"
    return t("trip_summary", lang, origin=trip.origin, destination=trip.destination, dates=dates)


class TripActions:
    """The "Save trip" button."""

    def __init__(self, *, trips: TripStore | None) -> None:
        self.trips = trips

    def register(self, app: App) -> None:
        app.action(SAVE_TRIP_ACTION)(self.on_save)

    def on_save(self, ack: Ack, body: dict[str, Any], client: WebClient) -> None:
        ack()
        user = str((body.get("user") or {}).get("id") or "")
        team = str((body.get("team") or {}).get("id") or (body.get("user") or {}).get("team_id"))
        channel = str((body.get("channel") or {}).get("id") or "")
        message = body.get("message") or {}
        actions = body.get("actions") or [{}]
        try:
            value = json.loads(actions[0].get("value") or "")
            trip = PlannedTrip(
                origin=str(value["o"]),
                destination=str(value["d"]),
                start=date.fromisoformat(value["s"]),
                end=date.fromisoformat(value["e"]) if value.get("e") else None,
                demo=value.get("x") is True,
            )
            traveller_ns, requester, lang = str(value["ns"]), str(value["by"]), str(value["l"])
        except (ValueError, KeyError, TypeError, IndexError, AttributeError):
            log.warning("save-trip button with an unreadable value")
            return
        if f"{team}:{user}" != traveller_ns and user != requester:
            self._ephemeral(client, channel, user, message, t("trip_save_not_allowed", lang))
            return
        if self.trips is None:
            self._ephemeral(client, channel, user, message, t("trip_save_failed", lang))
            return
        origin, destination = _route(trip)
        try:
            _, created = self.trips.add(
                traveller_ns, destination, trip.start, trip.end, origin, created_by=f"{team}:{user}"
            )
        except (InvalidTrip, StoreUnavailable) as exc:
            log.warning("could not save a trip (%s)", type(exc).__name__)
            self._ephemeral(client, channel, user, message, t("trip_save_failed", lang))
            return
        key = "trip_saved" if created else "trip_already_saved"
        note = t(key, lang, user=f"<@{user}>")
        summary = _summary(trip, lang)
        notes = _notes(trip.demo, traveller_ns.split(":", 1)[-1], requester, lang)
        blocks: list[dict[str, Any]] = [
            {"type": "section", "text": {"type": "mrkdwn", "text": summary}},
            *(_context(text) for text in [*notes, note]),
        ]
        try:
            client.chat_update(
                channel=channel, ts=str(message.get("ts") or ""), text=note, blocks=blocks
            )
        except Exception as exc:
            log.info("could not update the save-trip message (%s)", type(exc).__name__)
            self._ephemeral(client, channel, user, message, note)

    @staticmethod
    def _ephemeral(
        client: WebClient, channel: str, user: str, message: dict[str, Any], text: str
    ) -> None:
        try:
            client.chat_postEphemeral(
                channel=channel,
                user=user,
                text=text,
                thread_ts=message.get("thread_ts") or message.get("ts"),
            )
        except Exception as exc:
            log.info("could not post an ephemeral message (%s)", type(exc).__name__)


def register(app: App, trips: TripStore | None) -> TripActions:
    """Wire the "Save trip" button into `app`."""
    actions = TripActions(trips=trips)
    actions.register(app)
    return actions


__all__ = [
    "SAVE_TRIP_ACTION",
    "Delegation",
    "TripActions",
    "auto_save",
    "delegate",
    "register",
    "trip_blocks",
]
