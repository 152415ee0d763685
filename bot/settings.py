"""The bot's settings: the memory settings plus Slack, HTTP and scheduler options."""

from __future__ import annotations

from pydantic import SecretStr

from memory.settings import MemorySettings


class Settings(MemorySettings):
    slack_bot_token: SecretStr | None = None
    slack_signing_secret: SecretStr | None = None
    slack_app_token: SecretStr | None = None
    slack_api_url: str = "https://slack.com/api/"
    port: int = 3000
