"""The "Save trip" button under a plan (`bot.slack.views.trip`).

Only the traveller, or the admin who asked for the plan, may save it, and only into a
namespace of the clicker's own workspace on Slack; the trip is saved
under catalogue city names (saving it twice saves once), and the message is replaced
by who saved it. Anything that fails leaves the message as it was and tells the clicker
in an ephemeral message.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from slack_sdk.web import WebClient

from bot.conversation.incoming import SLACK, in_workspace
from bot.messages import t
from bot.planning.trips import InvalidTrip, save_planned
from bot.slack.listeners.interaction import Interaction, on
from bot.slack.views.trip import SAVE_TRIP_ACTION, read_save_request, saved_blocks
from memory.errors import StoreUnavailable

if TYPE_CHECKING:
    from slack_bolt import App

    from bot.deps import Deps

log = logging.getLogger(__name__)


def register(app: App, deps: Deps) -> None:
    """Wire the "Save trip" button into `app`."""
    trips = deps.trips

    @on("block_actions", deps.metrics, once=deps.claims)
    def on_save(it: Interaction) -> None:
        channel = str((it.body.get("channel") or {}).get("id") or "")
        message: Mapping[str, Any] = it.body.get("message") or {}
        request = read_save_request(it.value)
        if request is None:
            log.warning("save-trip button with an unreadable value")
            return
        lang = request.lang

        def tell(text: str) -> None:
            _ephemeral(it.client, channel, it.user, message, text)

        allowed = it.namespace == request.traveller_ns or it.user == request.requester
        if not (allowed and in_workspace(request.traveller_ns, SLACK, it.team)):
            tell(t("trip_save_not_allowed", lang))
            return
        if trips is None:
            tell(t("trip_save_failed", lang))
            return
        try:
            _, created = save_planned(
                trips, request.trip, request.traveller_ns, created_by=it.namespace
            )
        except (InvalidTrip, StoreUnavailable) as exc:
            log.warning("could not save a trip (%s)", type(exc).__name__)
            tell(t("trip_save_failed", lang))
            return
        note = t("trip_saved" if created else "trip_already_saved", lang, user=f"<@{it.user}>")
        try:
            it.client.chat_update(
                channel=channel,
                ts=str(message.get("ts") or ""),
                text=note,
                blocks=saved_blocks(request, note),
            )
        except Exception as exc:
            log.info("could not update the save-trip message (%s)", type(exc).__name__)
            tell(note)

    app.action(SAVE_TRIP_ACTION)(on_save)


def _ephemeral(
    client: WebClient, channel: str, user: str, message: Mapping[str, Any], text: str
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


__all__ = ["register"]
