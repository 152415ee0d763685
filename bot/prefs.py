"""`/travel-prefs` and App Home (placeholders until the preferences form lands).

`register(app, deps)` is what `bot.app.build_app` calls; the preferences issue replaces
the listeners here with the modal and the Home tab.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.messages import t

if TYPE_CHECKING:
    from slack_bolt import Ack, App

    from bot.app import Deps

COMMAND = "/travel-prefs"


def register(app: App, deps: Deps) -> None:
    def on_command(ack: Ack, command: dict[str, Any]) -> None:
        deps.metrics.inc("slack_events_total", type="command")
        locale = str(command.get("locale") or "")
        lang = "zh" if locale.startswith("zh") else "en"
        ack(text=t("prefs_placeholder", lang), response_type="ephemeral")

    def on_home_opened(event: dict[str, Any]) -> None:
        deps.metrics.inc("slack_events_total", type="app_home_opened")

    app.command(COMMAND)(on_command)
    app.event("app_home_opened")(on_home_opened)


__all__ = ["COMMAND", "register"]
