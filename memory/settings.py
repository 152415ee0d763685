"""Settings of the memory engine, read from the environment and `.env`."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class MemorySettings(BaseSettings):
    """Everything the memory engine and the LLM clients need.

    The bot's `Settings` extends this class, so one object carries all configuration.
    """

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    memory_dsn: str = "sqlite:///./data/memory.db"
    redis_url: str = "redis://127.0.0.1:6379/0"
    redis_key_prefix: str = ""
    memory_cache_ttl_seconds: int = Field(default=1800, ge=1)

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
    memory_summary_max_facts: int = Field(default=8, ge=1)
    memory_summary_max_chars: int = Field(default=600, ge=40)

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

    @property
    def llm_configured(self) -> bool:
        return bool(self.llm_model)

    @property
    def fast_llm_configured(self) -> bool:
        return bool(self.llm_fast_model)
