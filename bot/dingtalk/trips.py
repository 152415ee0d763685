"""Saving a planned trip from DingTalk: the offer under a plan, and the command that takes it.

Under a plan the sink asks `TripOffers.offer(part)` for a code (kept
`OFFER_TTL_SECONDS`) naming the trip, whose it is and who asked; the card's button (or,
in a group, the text to send) is `保存行程 CODE` / `save trip CODE`. When that command
arrives, `save(...)` checks the sender is the traveller or the admin who asked for the
plan, saves it with `bot.planning.trips.save_planned` under catalogue city names (saving
twice saves once) and says so.
"""

from __future__ import annotations

import logging
from datetime import date
from typing import TYPE_CHECKING

from bot.conversation.reply import PlanPart
from bot.messages import t
from bot.planning.plan import PlannedTrip
from bot.planning.trips import InvalidTrip, save_planned
from memory.errors import StoreUnavailable

if TYPE_CHECKING:
    from bot.conversation.incoming import IncomingMessage
    from bot.dingtalk.actions import PendingActions
    from bot.metrics import Metrics
    from bot.planning.trips import TripStore

log = logging.getLogger(__name__)

OFFER_TTL_SECONDS = 7 * 24 * 3600
KIND = "save_trip"


class TripOffers:
    """Plans offered for saving, and saving them on request."""

    def __init__(
        self, *, actions: PendingActions, trips: TripStore | None, metrics: Metrics
    ) -> None:
        self.actions = actions
        self.trips = trips
        self.metrics = metrics

    def offer(self, part: PlanPart) -> str | None:
        """The code of a "Save trip" offer for `part` (None when trips cannot be saved)."""
        if self.trips is None:
            return None
        trip = part.trip
        data = {
            "kind": KIND,
            "ns": part.traveller,
            "by": part.requester,
            "o": trip.origin,
            "d": trip.destination,
            "s": trip.start.isoformat(),
            "e": trip.end.isoformat() if trip.end else None,
            "x": trip.demo,
        }
        return self.actions.put(data, ttl_seconds=OFFER_TTL_SECONDS)

    def save(self, msg: IncomingMessage, code: str) -> str:
        """Save the trip `code` offers, if `msg`'s writer may; what to tell them."""
        lang = msg.lang
        offer = self.actions.get(code)
        if offer is None or offer.get("kind") != KIND:
            return t("dingtalk_save_unknown", lang)
        try:
            traveller = str(offer["ns"])
            requester = str(offer["by"])
            trip = PlannedTrip(
                origin=str(offer["o"]),
                destination=str(offer["d"]),
                start=date.fromisoformat(offer["s"]),
                end=date.fromisoformat(offer["e"]) if offer.get("e") else None,
                demo=offer.get("x") is True,
            )
        except (KeyError, TypeError, ValueError):
            return t("dingtalk_save_unknown", lang)
        if msg.namespace != traveller and msg.namespace != msg.namespace_of(requester):
            self.metrics.inc("dingtalk_trip_saves_total", outcome="not_allowed")
            return t("trip_save_not_allowed", lang)
        if self.trips is None:
            return t("trip_save_failed", lang)
        try:
            _, created = save_planned(self.trips, trip, traveller, created_by=msg.namespace)
        except (InvalidTrip, StoreUnavailable) as exc:
            log.warning("could not save a trip (%s)", type(exc).__name__)
            self.metrics.inc("dingtalk_trip_saves_total", outcome="failed")
            return t("trip_save_failed", lang)
        self.metrics.inc("dingtalk_trip_saves_total", outcome="saved" if created else "duplicate")
        if not created:
            return t("trip_already_saved", lang)
        return t("trip_saved", lang, user=f"<@{msg.user}>")


__all__ = ["OFFER_TTL_SECONDS", "TripOffers"]
