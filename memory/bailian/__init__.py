"""Bailian (百炼, Alibaba Cloud Model Studio) long-term memory as the memory store.

Selected by `MEMORY_DSN=bailian://{memory_library_id}?project_id={project_id}` with
`DASHSCOPE_API_KEY` (and `BAILIAN_BASE_URL`, the workspace's endpoint); `open_memory()`
then returns a `BailianMemory`, which has the same API as `memory.engine.Memory`.
The contract with the service, with links to its documentation, is `docs/bailian.md`.

- `client`: the HTTP client (timeouts, retries, Retry-After) and `limiter` (the QPM limits);
- `engine`: `BailianMemory`; `facts`: nodes and profile as our facts and summaries;
- `nodes`: reading answers, one traveller only; `schema`: our slots as a profile schema;
- `visibility`: following accepted writes until they show; `target`: the library and user ids.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx
from pydantic import SecretStr

from memory.bailian.client import BailianClient
from memory.bailian.engine import BailianMemory
from memory.bailian.limiter import RateLimiter
from memory.bailian.store import BailianStore
from memory.bailian.target import BailianTarget, is_bailian_dsn

MAX_MESSAGES = 50  # per add call ("对话消息列表，最多 50 条")

if TYPE_CHECKING:
    from memory.cache import PreferenceCache
    from memory.privacy.guard import PrivacyGuard
    from memory.profile import ProfileSchema
    from memory.settings import MemorySettings


def open_client(
    settings: MemorySettings, *, transport: httpx.BaseTransport | None = None
) -> BailianClient:
    """The client `MEMORY_DSN`, `DASHSCOPE_API_KEY` and the `BAILIAN_*` settings describe."""
    raw = settings.dashscope_api_key  # a plain str when given as an `open_memory` override
    key = raw.get_secret_value() if isinstance(raw, SecretStr) else str(raw or "")
    if not key.strip():
        raise ValueError("MEMORY_DSN selects Bailian: set DASHSCOPE_API_KEY too")
    return BailianClient(
        base_url=settings.bailian_base_url,
        api_key=key.strip(),
        target=BailianTarget.from_dsn(settings.memory_dsn),
        limiter=RateLimiter(
            total_qpm=settings.bailian_qpm,
            add_qpm=settings.bailian_add_qpm,
            search_qpm=settings.bailian_search_qpm,
        ),
        timeout=settings.bailian_timeout_seconds,
        max_retries=settings.bailian_max_retries,
        backoff=settings.bailian_retry_backoff_seconds,
        max_retry_wait=settings.bailian_max_retry_wait_seconds,
        transport=transport,
    )


def open_bailian_memory(
    settings: MemorySettings,
    *,
    cache: PreferenceCache,
    schema: ProfileSchema,
    guard: PrivacyGuard,
    transport: httpx.BaseTransport | None = None,
) -> BailianMemory:
    if settings.memory_max_facts_per_call > MAX_MESSAGES:
        raise ValueError(
            f"MEMORY_MAX_FACTS_PER_CALL must be at most {MAX_MESSAGES} with Bailian "
            "(one add takes at most 50 messages)"
        )
    return BailianMemory(
        store=BailianStore(open_client(settings, transport=transport), settings),
        cache=cache,
        schema=schema,
        settings=settings,
        guard=guard,
    )


__all__ = ["BailianMemory", "BailianTarget", "is_bailian_dsn", "open_bailian_memory", "open_client"]
