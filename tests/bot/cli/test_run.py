"""`travel-bot run` picks the mode from what is configured."""

from __future__ import annotations

import pytest

from bot.cli.run import pick_mode
from bot.settings import Settings


@pytest.mark.parametrize(
    ("configured", "mode"),
    [
        ({"slack_bot_token": "xoxb-1", "slack_app_token": "xapp-1"}, "socket"),
        (
            {"slack_bot_token": "xoxb-1", "slack_app_token": "xapp-1", "slack_signing_secret": "s"},
            "socket",
        ),
        ({"slack_bot_token": "xoxb-1", "slack_signing_secret": "s"}, "serve"),
        ({"slack_bot_token": "xoxb-1"}, "console"),
        ({"slack_signing_secret": "s", "slack_app_token": "xapp-1"}, "console"),
        ({}, "console"),
    ],
)
def test_run_picks_the_mode(configured: dict[str, str], mode: str) -> None:
    values = {"slack_bot_token": None, "slack_app_token": None, "slack_signing_secret": None}
    values.update(configured)
    assert pick_mode(Settings(_env_file=None, **values)) == mode  # type: ignore[call-arg, arg-type]
