"""A plan's message once its trip is saved by a typed command, as a click would leave it.

A plan message offers *Save trip* and what to type instead (`save trip CODE`,
`bot.slack.views.trip`). Its code is made before the message is posted, so where the
message landed (channel and ts) is added to the code's data once Slack says (`placed`,
its TTL kept). A typed save (`save trip CODE` to the bot, `/travel-prefs save trip CODE`)
then draws that message again without the button, with who saved it (`redraw`), as the
button's `chat.update` does (`bot.slack.listeners.trips`). A save of a trip saved before
(`Outcome.unchanged`) draws nothing: the message says who saved it already, and "already
saved" in its place would only hide that. When Slack refuses the update
(`message_not_found`, `cant_update_message`, rate limits beyond a short wait), the save
stands and nobody is told more: the command's own answer already said it was saved.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING

from bot.flows.messengers import Sent
from bot.flows.views import PlanView, render
from bot.slack.api import patiently

if TYPE_CHECKING:
    from slack_sdk.web import WebClient

    from bot.flows.actions import Action
    from bot.flows.codes import PendingActions
    from bot.flows.views import Outcome
    from bot.slack.views.widgets import SlackMessage, SlackWidgets

log = logging.getLogger(__name__)

# Where a plan message is, in its code's data: {"channel": ..., "ts": ...}.
PLAN_AT = "plan_at"
# The longest a redraw waits out Slack's rate limits: it runs after the answer, on a
# listener thread or the agent pool, and is a nicety.
REDRAW_PATIENCE = 3.0


def placed(codes: PendingActions | None, drawn: SlackMessage, channel: str, ts: str) -> None:
    """Keep where the plan message `drawn` was posted with the code it offers."""
    if codes is None or not drawn.code or not channel or not ts:
        return
    if not codes.amend(drawn.code, {PLAN_AT: {"channel": channel, "ts": ts}}):
        log.info("a plan message's place was not kept; a typed save will not redraw it")


def redraw(client: WebClient, widgets: SlackWidgets, action: Action, outcome: Outcome) -> None:
    """After a typed save (`action`, read from its code), the plan message it names drawn
    as `outcome` shows the trip: saved, without the button. Nothing when the outcome
    is not the plan (refused, a reason to give) or the code kept no place."""
    where = action.data.get(PLAN_AT)
    if not outcome.replace or outcome.unchanged or not isinstance(outcome.view, PlanView):
        return
    if not isinstance(where, Mapping):
        return
    channel, ts = str(where.get("channel") or ""), str(where.get("ts") or "")
    if not channel or not ts:
        return
    drawn = render(widgets, outcome.view)
    blocks = drawn.blocks
    tried = patiently(
        lambda: client.chat_update(channel=channel, ts=ts, text=drawn.text, blocks=blocks),
        patience=REDRAW_PATIENCE,
    )
    if tried.sent == Sent.NOT_DELIVERED:
        log.info("the plan message was not drawn again (%s); the trip is saved", tried.error)


__all__ = ["PLAN_AT", "REDRAW_PATIENCE", "placed", "redraw"]
