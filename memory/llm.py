"""OpenAI-compatible clients built from settings (no client exists at import time)."""

from __future__ import annotations

from typing import Any

from memory.settings import MemorySettings


def openai_client(settings: MemorySettings, *, max_retries: int = 2) -> Any:
    """An `openai.OpenAI` client for the configured endpoint."""
    from openai import OpenAI

    key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
    return OpenAI(
        api_key=key or "not-needed",
        base_url=settings.openai_base_url or None,
        timeout=settings.llm_timeout_seconds,
        max_retries=max_retries,
    )
