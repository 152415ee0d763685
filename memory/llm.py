"""OpenAI-compatible clients built from settings (no client exists at import time)."""

from __future__ import annotations

import json
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


def complete_json(client: Any, model: str, prompt: str, *, timeout: float | None = None) -> Any:
    """Ask for one JSON object (JSON mode, temperature 0) and return it parsed.

    Raises whatever the client raises, or `ValueError` for an answer that is not JSON;
    callers fall back to what they can do without the model.
    """
    extra: dict[str, Any] = {} if timeout is None else {"timeout": timeout}
    response = client.chat.completions.create(
        model=model,
        messages=[{"role": "user", "content": prompt}],
        response_format={"type": "json_object"},
        temperature=0,
        **extra,
    )
    return json.loads(response.choices[0].message.content or "")
