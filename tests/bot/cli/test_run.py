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
        # Feishu (issue 15): its long connection when only its credentials are set.
        ({"feishu_app_id": "cli_1", "feishu_app_secret": "s"}, "feishu"),
        ({"feishu_app_id": "cli_1"}, "console"),
        (
            {"feishu_app_id": "cli_1", "feishu_app_secret": "s", "slack_bot_token": "xoxb-1"},
            "feishu",
        ),
        (
            {
                "feishu_app_id": "cli_1",
                "feishu_app_secret": "s",
                "slack_bot_token": "xoxb-1",
                "slack_signing_secret": "s",
            },
            "serve",
        ),
    ],
)
def test_run_picks_the_mode(configured: dict[str, str], mode: str) -> None:
    values: dict[str, str | None] = {
        "slack_bot_token": None,
        "slack_app_token": None,
        "slack_signing_secret": None,
        "feishu_app_id": "",
        "feishu_app_secret": None,
    }
    values.update(configured)
    assert pick_mode(Settings(_env_file=None, **values)) == mode  # type: ignore[call-arg, arg-type]
