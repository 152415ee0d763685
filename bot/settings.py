"""The bot's settings: the memory settings plus Slack, HTTP and scheduler options."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, SecretStr

from memory.settings import MemorySettings


class Settings(MemorySettings):
    slack_bot_token: SecretStr | None = None
    slack_signing_secret: SecretStr | None = None
    slack_app_token: SecretStr | None = None
    slack_api_url: str = "https://slack.com/api/"
    # The workspace's language where a person's Slack locale is unknown.
    default_language: Literal["en", "zh"] = "en"
    port: int = 3000

    # The Slack app (issue 3).
    web_host: str = "0.0.0.0"
    agent_workers: int = Field(default=16, ge=1)
    agent_max_pending: int = Field(default=500, ge=1)
    http_dispatch_workers: int = Field(default=32, ge=1)
    http_max_body_bytes: int = Field(default=1_048_576, ge=4096)
    slack_max_message_chars: int = Field(default=4000, ge=100)
    slack_progress_reaction: str = "hourglass_flowing_sand"
    slack_dedupe_ttl_seconds: int = Field(default=86400, ge=60)
    thread_history_turns: int = Field(default=20, ge=2)
    thread_history_ttl_seconds: int = Field(default=3 * 86400, ge=60)

    # Trips and planning (issue 5).
    travel_timezone: str = "Asia/Shanghai"
    travel_admin_user_ids: str = ""
    travel_admin_usergroup_id: str = ""
    travel_admin_cache_seconds: int = Field(default=300, ge=1)
    inventory_provider: Literal["demo", "http"] = "demo"
    inventory_http_url: str = ""
    inventory_http_key: SecretStr | None = None
    inventory_http_timeout_seconds: float = Field(default=10.0, gt=0)

    # Cache warming before trips (issue 6).
    warm_interval_minutes: int = Field(default=15, ge=1)
    warm_horizon_hours: float = Field(default=72, ge=0)
    # Recalls at once; keep it below the database pool (10 connections per process).
    warm_concurrency: int = Field(default=4, ge=1, le=10)
    scheduler_in_web: bool = False

    @property
    def admin_user_ids(self) -> frozenset[str]:
        """`TRAVEL_ADMIN_USER_IDS` as a set of Slack user ids."""
        return frozenset(
            part.strip() for part in self.travel_admin_user_ids.split(",") if part.strip()
        )

    # Feishu / Lark (issue 15): the app's credentials, its API and travel admins.
    feishu_app_id: str = ""
    feishu_app_secret: SecretStr | None = None
    feishu_verification_token: SecretStr | None = None
    feishu_encrypt_key: SecretStr | None = None
    # Feishu's open platform; Lark's is https://open.larksuite.com.
    feishu_api_url: str = "https://open.feishu.cn"
    feishu_admin_open_ids: str = ""
    feishu_progress_reaction: str = "OnIt"  # an emoji_type; empty: a "working on it" reply
    # Older messages (a replay after a reconnect, a late retry) are not answered.
    feishu_max_message_age_seconds: int = Field(default=300, ge=10)

    @property
    def feishu_admins(self) -> frozenset[str]:
        """`FEISHU_ADMIN_OPEN_IDS` as a set of open_ids."""
        return frozenset(
            part.strip() for part in self.feishu_admin_open_ids.split(",") if part.strip()
        )

    @property
    def feishu_configured(self) -> bool:
        """Whether the Feishu app's id and secret are set (the API can be called)."""
        return bool(self.feishu_app_id and self.feishu_app_secret)
