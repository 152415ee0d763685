"""DMs, @mentions and thread follow-ups: each becomes one turn of the conversation core.

The listener runs on Bolt's listener pool and only does quick work: count the event,
parse it (`bot.slack.incoming`) and hand it to `Conversation.accept` with its reply sink.
No Slack Web API call happens there: a slow or rate-limited Slack would otherwise hold
Bolt's threads and starve the acknowledgements of commands and actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from slack_sdk.web import WebClient

from bot.slack.incoming import bot_user_id, parse_event

if TYPE_CHECKING:
    from slack_bolt import App

    from bot.deps import Deps
    from bot.slack.channel import SlackChannel


def register(app: App, deps: Deps, slack: SlackChannel) -> None:
    """Wire the message listeners into `app`."""

    def on_event(
        body: dict[str, Any], event: dict[str, Any], context: Any, client: WebClient
    ) -> None:
        event_type = str(event.get("type") or "unknown")
        deps.metrics.inc("slack_events_total", type=event_type)
        msg = parse_event(body, event, bot_user_id=bot_user_id(body, context))
        if msg is None:
            deps.metrics.inc("slack_events_ignored_total", type=event_type)
            return
        deps.conversation.accept(msg, slack.sink(msg, notices=deps.pools.notices), slack)

    app.event("app_mention")(on_event)
    app.event("message")(on_event)


__all__ = ["register"]
