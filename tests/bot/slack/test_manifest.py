"""The app manifest and the app agree: everything Slack is told to send is handled."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.slack_harness import BotHarness, new_ts

MANIFEST = Path(__file__).resolve().parents[3] / "slack_manifest.yaml"


def _list_after(text: str, key: str) -> list[str]:
    block = re.search(rf"^(\s*){key}:\n((?:\1\s+- .*\n)+)", text, re.MULTILINE)
    assert block, f"{key} not found in the manifest"
    return [line.split("- ", 1)[1].split("#")[0].strip() for line in block.group(2).splitlines()]


def test_every_subscribed_event_and_command_is_acknowledged(bot: BotHarness) -> None:
    text = MANIFEST.read_text(encoding="utf-8")
    events = _list_after(text, "bot_events")
    assert {"app_mention", "message.im", "app_home_opened"} <= set(events)
    assert {"assistant_thread_started", "assistant_thread_context_changed"} <= set(events)
    for name in events:
        event_type = name.split(".")[0]
        ts = new_ts()
        event = {"type": event_type, "user": "U0ALICE", "channel": "D0ALICE", "ts": ts}
        if event_type == "message":
            event.update(channel_type=name.split(".")[1], text="lunch?")
        if event_type == "app_home_opened":
            event.update(tab="home", event_ts=ts)
        if event_type.startswith("assistant_thread"):
            event = {
                "type": event_type,
                "assistant_thread": {
                    "user_id": "U0ALICE",
                    "channel_id": "D0ALICE",
                    "thread_ts": ts,
                },
                "event_ts": ts,
            }
        response, _ = bot.event(event)
        assert response.status_code == 200, name

    commands = re.findall(r"- command: (\S+)", text)
    assert commands == ["/travel-prefs"]
    for command in commands:
        assert bot.command(command).status_code == 200

    scopes = set(_list_after(text, "bot"))
    assert {"app_mentions:read", "im:history", "chat:write", "reactions:write"} <= scopes
    assert "assistant:write" in scopes  # the AI app pane: status, title, prompts
    assert re.search(r"^  assistant_view:\n    assistant_description: ", text, re.MULTILINE)
    assert "https://YOUR-HOST/slack/events" in text
