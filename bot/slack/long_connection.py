"""Slack over Socket Mode: `travel-bot socket`, for a bot without a public URL.

The same Bolt app as HTTP mode (`bot.slack.app`), connected over Slack's websocket with
the app-level token (`SLACK_APP_TOKEN`, scope `connections:write`) until interrupted.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from slack_bolt.adapter.socket_mode import SocketModeHandler

if TYPE_CHECKING:
    from slack_bolt import App


def serve_socket_mode(bolt: App, *, app_token: str, stop: threading.Event) -> None:
    """Answer Slack over Socket Mode with the app-level token until `stop` is set (or
    KeyboardInterrupt)."""
    if not app_token:
        raise ValueError("SLACK_APP_TOKEN is not set")
    handler = SocketModeHandler(bolt, app_token)
    try:
        handler.connect()  # type: ignore[no-untyped-call]
        stop.wait()
    finally:
        handler.close()  # type: ignore[no-untyped-call]


__all__ = ["serve_socket_mode"]
