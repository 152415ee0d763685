"""Every Slack listener, registered by `register(app, deps, slack)`, one module per feature.

- `messages`: DMs, @mentions and thread follow-ups, handed to the conversation core;
- `prefs_command`: `/travel-prefs` and its "forget everything?" answers;
- `prefs_modal`: submitting the preferences modal;
- `home`: the App Home tab;
- `trips`: the "Save trip" button under a plan;
- `assistant`: the assistant pane (a new thread's greeting, the channel beside it);
- `feedback`: the feedback buttons under every answer.

Buttons, commands and the Home event share one prelude (`interaction.on`): count,
acknowledge, read who acted, drop what names nobody.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.slack.listeners import (
    assistant,
    feedback,
    home,
    messages,
    prefs_command,
    prefs_modal,
    trips,
)
from bot.slack.preferences import Preferences

if TYPE_CHECKING:
    from slack_bolt import App

    from bot.deps import Deps
    from bot.slack.channel import SlackChannel


def register(app: App, deps: Deps, slack: SlackChannel) -> None:
    """Register every listener; the `travel_prefs.*` catch-alls go last."""
    prefs = Preferences(deps, slack)
    messages.register(app, deps, slack)
    prefs_command.register(app, deps, prefs)
    prefs_modal.register(app, deps, prefs)
    home.register(app, deps, prefs)
    trips.register(app, deps)
    assistant.register(app, deps, slack)
    feedback.register(app, deps)
    prefs_command.register_fallbacks(app, deps, prefs)


__all__ = ["register"]
