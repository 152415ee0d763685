"""DMs, @mentions and thread follow-ups: each goes the core's pipeline (count → parse →
claim once → conversation), with the Slack channel as its edge (`bot.slack.channel`).

The listener runs on Bolt's listener pool and only does quick work. No Slack Web API call
happens there: a slow or rate-limited Slack would otherwise hold Bolt's threads and starve
the acknowledgements of commands and actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from slack_bolt import App

    from bot.flows.pipeline import Pipeline
    from bot.slack.channel import SlackChannel


def register(app: App, pipeline: Pipeline, slack: SlackChannel) -> None:
    """Wire the message listeners into `app`."""

    def on_event(body: dict[str, Any], event: dict[str, Any], context: Any) -> None:
        kind = str(event.get("type") or "unknown")
        pipeline.message(slack, (body, event, context), kind=kind)

    app.event("app_mention")(on_event)
    app.event("message")(on_event)


__all__ = ["register"]
