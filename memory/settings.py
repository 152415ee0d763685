"""Settings of the memory engine, read from the environment and `.env`."""

from __future__ import annotations

from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from memory.dsn import dsn_problem, netloc_problem

# First hour (issue 12): the shapes of MEMORY_DSN (memory.dsn) and REDIS_URL are checked
# when the settings load, so a typo is one clear line at start rather than a traceback later.
REDIS_FORMS = (
    "redis://host:6379/0, rediss://host:6380/0, unix:///path/to/redis.sock, "
    "redis+cluster://host:port[,host:port] (rediss+cluster:// for TLS), "
    "or empty to run without the cache"
)


class MemorySettings(BaseSettings):
    """Everything the memory engine and the LLM clients need.

    The bot's `Settings` extends this class, so one object carries all configuration.
    """

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    memory_dsn: str = "sqlite:///./data/memory.db"
    redis_url: str = "redis://127.0.0.1:6379/0"
    redis_key_prefix: str = ""
    memory_cache_ttl_seconds: int = Field(default=1800, ge=1)
    # How long a SQLite statement waits for a lock held elsewhere before memory is
    # called unavailable (recall) or a write not saved; on the path of every reply.
    sqlite_busy_timeout_seconds: float = Field(default=2.0, gt=0, le=60)

    embedding_provider: Literal["local", "openai"] = "local"
    embedding_model: str = "text-embedding-3-small"

    openai_api_key: SecretStr | None = None
    openai_base_url: str | None = None
    llm_model: str = ""
    llm_fast_model: str = ""
    llm_timeout_seconds: float = Field(default=30.0, gt=0)
    memory_privacy_review_timeout_seconds: float = Field(default=5.0, gt=0)

    memory_max_fact_chars: int = Field(default=500, ge=20)
    memory_max_facts_per_call: int = Field(default=20, ge=20)
    memory_max_facts_per_namespace: int = Field(default=500, ge=500)
    memory_summary_max_facts: int = Field(default=150, ge=1)
    memory_summary_max_chars: int = Field(default=6000, ge=40)

    # Bailian (百炼) long-term memory as the store, selected by
    # MEMORY_DSN=bailian://{memory_library_id}?project_id=... (issue 17; docs/bailian.md).
    dashscope_api_key: SecretStr | None = None
    bailian_base_url: str = "https://dashscope.aliyuncs.com/api/v2/apps/memory"
    bailian_profile_schema_id: str = ""
    bailian_write_mode: Literal["async", "sync"] = "async"
    bailian_timeout_seconds: float = Field(default=10.0, gt=0)
    bailian_max_retries: int = Field(default=3, ge=0, le=10)
    bailian_retry_backoff_seconds: float = Field(default=1.0, ge=0)
    bailian_max_retry_wait_seconds: float = Field(default=10.0, ge=0)
    # Per process, under the account's published limits (3000 / 120 / 300 QPM).
    bailian_qpm: int = Field(default=2700, ge=1)
    bailian_add_qpm: int = Field(default=108, ge=1)
    bailian_search_qpm: int = Field(default=270, ge=1)
    bailian_top_k: int = Field(default=10, ge=1, le=100)
    bailian_min_score: float = Field(default=0.3, ge=0, le=1)
    bailian_rerank: bool = True
    bailian_rewrite: bool = False
    bailian_event_poll_seconds: float = Field(default=1.0, gt=0)
    bailian_event_timeout_seconds: float = Field(default=120.0, gt=0)
    bailian_visibility_delay_seconds: float = Field(default=5.0, ge=0)
    # Where a cache invalidation Redis missed is kept until delivered (a SQLite file, or
    # PostgreSQL shared by every host; empty: in memory, lost with the process).
    bailian_cache_journal_dsn: str = "sqlite:///./data/bailian-cache-journal.db"

    # First hour (issue 12): refuse a DSN or Redis URL of the wrong shape at start.
    @field_validator("memory_dsn")
    @classmethod
    def _check_dsn(cls, value: str) -> str:
        problem = dsn_problem(value)
        if problem:
            raise ValueError(problem)
        return value

    @field_validator("bailian_cache_journal_dsn")
    @classmethod
    def _check_journal_dsn(cls, value: str) -> str:
        value = value.strip()  # as open_memory uses it: "  sqlite:///x.db " is that file
        if value and (dsn_problem(value) or value.startswith("bailian:")):
            raise ValueError(
                "expected sqlite:///path/to/journal.db, postgresql://user@host:5432/database "
                "or nothing (in memory only)"
            )
        return value

    @field_validator("redis_url")
    @classmethod
    def _check_redis_url(cls, value: str) -> str:
        problem = redis_url_problem(value)
        if problem:
            raise ValueError(problem)
        return value

    @field_validator("openai_base_url")
    @classmethod
    def _check_base_url(cls, value: str | None) -> str | None:
        return http_url(value) if value else value

    @property
    def llm_configured(self) -> bool:
        return bool(self.llm_model)

    @property
    def fast_llm_configured(self) -> bool:
        return bool(self.llm_fast_model)


def http_url(value: str) -> str:
    """`value` when it is empty or an http(s) URL; `ValueError` otherwise."""
    if value and not value.startswith(("http://", "https://")):
        raise ValueError("expected an http:// or https:// URL")
    return value


def redis_url_problem(url: str) -> str | None:
    """Why `url` cannot be a `REDIS_URL`, or None when its shape is right (empty is)."""
    if not url:
        return None
    scheme = url.partition("://")[0].lower() if "://" in url else ""
    if scheme in ("redis", "rediss"):
        problem = netloc_problem(url)
        if problem is None and not urlsplit(url).hostname:
            problem = "no host"
        if problem is None:
            database = urlsplit(url).path.strip("/")
            if database and not database.isdigit():
                problem = f"the database {database!r} is not a number"
    elif scheme == "unix":
        problem = None if urlsplit(url).path else "no socket path"
    elif scheme in ("redis+cluster", "rediss+cluster"):
        hosts = urlsplit(url).netloc.rpartition("@")[2]
        seeds = [seed.strip() for seed in hosts.split(",") if seed.strip()]
        problem = None if seeds else "no host:port"
        for seed in seeds:
            problem = problem or netloc_problem(f"redis://{seed}")
    else:
        problem = "unsupported scheme" if scheme else "not a URL"
    return f"{problem}; expected {REDIS_FORMS}" if problem else None
