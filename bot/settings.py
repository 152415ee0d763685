"""The bot's settings: the memory settings plus Slack, HTTP and scheduler options."""

from __future__ import annotations

from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import AliasChoices, Field, SecretStr, field_validator

from memory.settings import MemorySettings, http_url


class Settings(MemorySettings):
    slack_bot_token: SecretStr | None = None
    slack_signing_secret: SecretStr | None = None
    slack_app_token: SecretStr | None = None
    slack_api_url: str = "https://slack.com/api/"
    # The workspace's language where a person's Slack locale is unknown.
    default_language: Literal["en", "zh"] = "en"
    port: int = Field(default=3000, ge=1, le=65535)

    # The Slack app (issue 3).
    web_host: str = "0.0.0.0"
    agent_workers: int = Field(default=16, ge=1)
    agent_max_pending: int = Field(default=500, ge=1)
    http_dispatch_workers: int = Field(default=32, ge=1)
    http_max_body_bytes: int = Field(default=1_048_576, ge=4096)
    # Every platform's (the SLACK_ names they had when Slack was the only one still work).
    max_message_chars: int = Field(
        default=4000,
        ge=100,
        validation_alias=AliasChoices("max_message_chars", "slack_max_message_chars"),
    )
    dedupe_ttl_seconds: int = Field(
        default=86400,
        ge=60,
        validation_alias=AliasChoices("dedupe_ttl_seconds", "slack_dedupe_ttl_seconds"),
    )
    slack_progress_reaction: str = "hourglass_flowing_sand"
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

    # DingTalk (issue 16): the robot of an internal app, in Stream or HTTP mode.
    dingtalk_client_id: str = ""  # AppKey
    dingtalk_client_secret: SecretStr | None = None  # AppSecret; also signs HTTP callbacks
    dingtalk_robot_code: str = ""  # when it differs from the client id
    dingtalk_api_url: str = "https://api.dingtalk.com"
    dingtalk_admin_staff_ids: str = ""  # travel admins, comma-separated staff ids
    # A short "working on it" reply when a turn takes longer than this (0: never).
    dingtalk_progress_seconds: float = Field(default=8.0, ge=0)
    # Stream mode: ping the gateway this often; no pong within as long again: reconnect.
    dingtalk_stream_ping_seconds: float = Field(default=20.0, gt=0)
    # An AI card template: answers stream into it (empty: Markdown messages, posted whole).
    dingtalk_card_template_id: str = ""
    dingtalk_card_content_key: str = "content"  # the template's Markdown field

    # First hour (issue 12): values whose shape can be checked are checked at start.
    @field_validator("travel_timezone")
    @classmethod
    def _check_timezone(cls, value: str) -> str:
        problem = timezone_problem(value)
        if problem:
            raise ValueError(problem)
        return value

    @field_validator("slack_api_url", "inventory_http_url")
    @classmethod
    def _check_http_url(cls, value: str) -> str:
        return http_url(value)

    # Travel policy and approvals (issue 25): in the trips' database (`trips_database`).
    policy_cache_seconds: float = Field(default=60.0, ge=0, le=3600)
    approval_ttl_days: float = Field(default=7.0, gt=0, le=90)
    # How often a process serving chat platforms tells travellers of expired requests (and
    # tries again the decisions' tellings due another try).
    approval_tell_interval_seconds: float = Field(default=60.0, ge=1, le=3600)
    # A telling the platform failed for a passing reason is tried again, this many tries in
    # all, the first wait this long, doubling (at most an hour) (`bot.policy.tellings`).
    approval_tell_attempts: int = Field(default=5, ge=1, le=20)
    approval_tell_retry_seconds: float = Field(default=60.0, ge=1, le=3600)

    # Bailian memory (issue 17): with MEMORY_DSN=bailian://..., saved trips need a database
    # of their own; empty means MEMORY_DSN when it is one, else a SQLite file.
    trips_dsn: str = ""

    @property
    def trips_database(self) -> str:
        """Where saved trips are kept: `TRIPS_DSN`, else the memory database if SQL."""
        if self.trips_dsn.strip():
            return self.trips_dsn.strip()
        if self.memory_dsn.startswith("bailian://"):
            return "sqlite:///./data/trips.db"
        return self.memory_dsn

    # The preferences page (issue 14): signed links to a web form and a REST API.
    # Where people reach `travel-bot serve` (origin, and the path a proxy maps to its root).
    public_url: str = ""
    # Signs the links and the page's sessions; the page is off without it (>= 16 chars).
    prefs_link_secret: SecretStr | None = None
    prefs_link_ttl_minutes: int = Field(default=15, ge=1, le=1440)
    prefs_session_minutes: int = Field(default=60, ge=1, le=1440)

    # Slack as an AI app (issue 18): streamed answers, the assistant pane, feedback.
    llm_stream: bool = True  # stream the model's answers; false for endpoints that cannot
    slack_streaming: bool = True  # show answers as they are written (chat.startStream)
    slack_stream_flush_seconds: float = Field(default=0.6, gt=0, le=5)

    # Slow clients and who may read /metrics (issue 11).
    http_header_timeout_seconds: float = Field(default=10.0, gt=0, le=60)
    http_body_timeout_seconds: float = Field(default=10.0, gt=0, le=300)
    http_max_connections: int = Field(default=0, ge=0)  # 0: the file limit less the reserve
    http_reserved_files: int = Field(default=128, ge=16)
    http_max_bodies: int = Field(default=32, ge=1)
    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    metrics_host: str = "127.0.0.1"
    metrics_token: SecretStr | None = None
    # Proxies whose X-Forwarded-Proto/-For are believed (uvicorn's own variable and default):
    # comma-separated addresses or networks, "*" for any.
    forwarded_allow_ips: str = "127.0.0.1,::1"

    @field_validator("metrics_port", mode="before")
    @classmethod
    def _unset_port(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @property
    def admin_user_ids(self) -> frozenset[str]:
        """`TRAVEL_ADMIN_USER_IDS` as a set of Slack user ids."""
        return frozenset(
            part.strip() for part in self.travel_admin_user_ids.split(",") if part.strip()
        )

    # DingTalk (issue 16).
    @property
    def dingtalk_configured(self) -> bool:
        """Whether the DingTalk robot's credentials are set."""
        return bool(self.dingtalk_client_id and self.dingtalk_client_secret)

    @property
    def dingtalk_admin_ids(self) -> frozenset[str]:
        """`DINGTALK_ADMIN_STAFF_IDS` as a set of staff ids."""
        return frozenset(
            part.strip() for part in self.dingtalk_admin_staff_ids.split(",") if part.strip()
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


def timezone_problem(name: str) -> str | None:
    """Why `name` is not an IANA time zone (e.g. "Asia/Shanghai"), or None when it is."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return "not a time zone; expected an IANA name such as Asia/Shanghai or Europe/Berlin"
    return None
