"""Every Slack listener, registered by `register(app, slack, ...)`, one module per feature.

- `messages`: DMs, @mentions and thread follow-ups, through the core's pipeline;
- `prefs_command`: `/travel-prefs` and its "forget everything?" answers (the core's flows);
- `prefs_modal`: submitting the preferences modal;
- `home`: the App Home tab;
- `trips`: the "Save trip" button under a plan (the core's flow);
- `approvals`: the reason modal and the approver's *Approve* / *Reject* (the core's flow);
- `assistant`: the assistant pane (a new thread's greeting, the channel beside it);
- `agent`: the Agent messaging experience (the Messages tab's greeting, the stop button);
- `feedback`: the feedback buttons under every answer.

Buttons, commands and the Home event share one prelude (`interaction.on`): acknowledge,
read who acted, then the pipeline's first steps (count, drop what names nobody, claim
once).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.slack.listeners import (
    agent,
    approvals,
    assistant,
    feedback,
    home,
    messages,
    prefs_command,
    prefs_modal,
    trips,
)

if TYPE_CHECKING:
    from slack_bolt import App

    from bot.slack.channel import SlackChannel
    from bot.slack.preferences import Preferences


def register(app: App, slack: SlackChannel, prefs: Preferences, link_minutes: int) -> None:
    """Register every listener; the `travel_prefs.*` catch-alls go last."""
    pipeline = slack.pipeline
    metrics, claims = pipeline.metrics, pipeline.claims
    messages.register(app, pipeline, slack)
    prefs_command.register(app, pipeline, prefs, link_minutes, slack.code_command)
    prefs_modal.register(app, prefs, claims, metrics)
    home.register(
        app,
        pipeline,
        prefs,
        metrics,
        messages_tab=lambda it, event: pipeline.run_task(
            agent.messages_tab, slack, it.client, it.team, it.user, event
        ),
    )
    trips.register(app, pipeline, prefs)
    approvals.register(app, pipeline, prefs)
    assistant.register(app, pipeline, slack)
    agent.register(app, pipeline, slack)
    feedback.register(app, pipeline, metrics, pipeline.run_task)
    prefs_command.register_fallbacks(app, pipeline, prefs)


__all__ = ["register"]
