"""The "Save trip" button under a plan (`bot.slack.views.trip`), and its *Save with …*
buttons for an out-of-policy option.

The core's flows decide and save (`bot.flows.trips`: the traveller, or a travel admin of
the same workspace; saved under catalogue city names, saving twice saves once); the
message is then drawn again with who saved it. Anything that fails leaves the message as
it was and tells the clicker in an ephemeral message. An out-of-policy choice opens the
reason modal (`bot.slack.views.approval`) with the click's trigger; when Slack will not
open it (the trigger expired), the clicker is asked in a message whose *Give a reason*
opens it (`reason_message`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.flows.actions import SAVE_TRIP, Action
from bot.flows.approvals import Sent
from bot.flows.views import render
from bot.slack.answers import Answers, update
from bot.slack.listeners.interaction import Interaction, on
from bot.slack.views.trip import SAVE_TRIP_ACTION
from bot.slack.views.widgets import read_value

if TYPE_CHECKING:
    from slack_bolt import App

    from bot.flows.pipeline import Pipeline
    from bot.slack.preferences import Preferences
    from memory.lang import Lang

log = logging.getLogger(__name__)


def register(app: App, pipeline: Pipeline, prefs: Preferences) -> None:
    """Wire the "Save trip" button into `app`."""

    @on("block_actions", pipeline, once=True)
    def on_save(it: Interaction) -> None:
        prefs.run(save, it, Action(SAVE_TRIP, read_value(it.value)))

    def save(it: Interaction, action: Action) -> None:
        channel = str((it.body.get("channel") or {}).get("id") or "")
        message: Mapping[str, Any] = it.body.get("message") or {}
        lang: Lang = "zh" if action.data.get("l") == "zh" else "en"  # the plan's language
        thread = str(message.get("thread_ts") or message.get("ts") or "")
        where = {"conversation": channel, "thread": thread} if channel else {}
        outcome = prefs.handle(it, action, lang, where=where)
        drawn = render(prefs.widgets, outcome.view)
        if drawn.modal is not None:  # an out-of-policy choice: why?
            try:
                it.client.views_open(trigger_id=it.trigger_id, view=drawn.modal)
                return
            except Exception as exc:
                log.info("could not open the reason form (%s)", type(exc).__name__)
        tell = Answers(it.client, pipeline.metrics).tell
        url = (it.respond.response_url if it.respond is not None else None) or ""
        thread_ts = message.get("thread_ts") or message.get("ts")
        if not outcome.replace:
            extra = {"blocks": drawn.blocks} if drawn.blocks else {}
            tell(
                it.user,
                drawn.text,
                lang=lang,
                channel=channel,
                response_url=url,
                thread_ts=thread_ts,
                **extra,
            )
            return
        ts = str(message.get("ts") or "")
        if (
            update(it.client, channel, ts, outcome.text, blocks=drawn.blocks).sent
            == Sent.NOT_DELIVERED
        ):
            tell(
                it.user,
                outcome.text,
                lang=lang,
                channel=channel,
                response_url=url,
                thread_ts=thread_ts,
            )

    app.action(re.compile(rf"^{SAVE_TRIP_ACTION}(?:_pick_\d+)?$"))(on_save)


__all__ = ["register"]
