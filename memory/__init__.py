"""Long-term memory of travellers' preferences: semantic, per namespace, cached.

from memory import open_memory
mem = open_memory()
mem.record("T1:U1", ["I never take red-eye flights"])
mem.retrieve("T1:U1", "plan my trip to Chengdu")
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memory.errors import InvalidSlotValue, MemoryEngineError, StoreUnavailable
from memory.types import MemoryItem, Recall, RecordOutcome, ScopedValue

if TYPE_CHECKING:
    from memory.conflicts import ConflictJudge
    from memory.embedding import Embedder
    from memory.privacy.guard import PrivacyReviewer
    from memory.protocol import LongTermMemory
    from memory.settings import MemorySettings


def open_memory(
    settings: MemorySettings | None = None,
    *,
    dsn: str | None = None,
    redis_url: str | None = None,
    embedder: Embedder | None = None,
    judge: ConflictJudge | None = None,
    reviewer: PrivacyReviewer | None = None,
    **overrides: Any,
) -> LongTermMemory:
    """Build the memory from settings (environment and `.env`), with keyword overrides.

    `open_memory(dsn="sqlite:///x.db", redis_url="")` selects a SQLite file and no cache;
    any other setting can be overridden by its field name, e.g. `memory_cache_ttl_seconds=60`.
    `MEMORY_DSN=bailian://...` selects Bailian's memory library (`memory.bailian`), behind
    the same cache, privacy guard and API.
    """
    from memory.backends import backend_from_dsn
    from memory.cache import PreferenceCache
    from memory.conflicts import LLMConflictJudge
    from memory.dsn import is_bailian_dsn
    from memory.embedding import OpenAIEmbedder, shared_local_embedder
    from memory.engine import Memory
    from memory.llm import openai_client
    from memory.privacy.guard import PrivacyGuard
    from memory.privacy.review import LLMPrivacyReviewer
    from memory.profile import load_schema
    from memory.redelivery import InvalidationJournal, standalone_journal
    from memory.redis_client import CACHE_TIMEOUT, open_redis
    from memory.settings import MemorySettings
    from memory.store import Store

    if dsn is not None:
        overrides["memory_dsn"] = dsn
    if redis_url is not None:
        overrides["redis_url"] = redis_url
    base = settings if settings is not None else MemorySettings()
    settings = base.model_copy(update=overrides) if overrides else base

    cache = PreferenceCache(
        client=open_redis(settings.redis_url, timeout=CACHE_TIMEOUT),
        ttl_seconds=settings.memory_cache_ttl_seconds,
        key_prefix=settings.redis_key_prefix,
    )
    if reviewer is None and settings.fast_llm_configured:
        reviewer = LLMPrivacyReviewer(
            client=openai_client(settings, max_retries=0),
            model=settings.llm_fast_model,
            timeout=min(
                settings.llm_timeout_seconds, settings.memory_privacy_review_timeout_seconds
            ),
        )
    # Bailian memory (issue 17): the service stores, extracts and searches; no embedder.
    if is_bailian_dsn(settings.memory_dsn):
        from memory.bailian import open_bailian_memory

        bailian = open_bailian_memory(
            settings, cache=cache, schema=load_schema(), guard=PrivacyGuard(reviewer=reviewer)
        )
        if cache.enabled and settings.bailian_cache_journal_dsn.strip():
            cache.journal = standalone_journal(  # no database of ours: one for the journal
                cache,
                settings.bailian_cache_journal_dsn.strip(),
                key_prefix=settings.redis_key_prefix,
                busy_timeout=settings.sqlite_busy_timeout_seconds,
            )
        return bailian
    if embedder is None:
        if settings.embedding_provider == "openai":
            key = settings.openai_api_key
            embedder = OpenAIEmbedder(
                client=openai_client(settings),
                model=settings.embedding_model,
                key_set=bool(key and key.get_secret_value().strip()),
            )
        else:
            embedder = shared_local_embedder()
    if judge is None and settings.fast_llm_configured:
        judge = LLMConflictJudge(client=openai_client(settings), model=settings.llm_fast_model)
    memory = Memory(
        store=Store(
            backend_from_dsn(settings.memory_dsn, busy_timeout=settings.sqlite_busy_timeout_seconds)
        ),
        cache=cache,
        embedder=embedder,
        schema=load_schema(),
        settings=settings,
        judge=judge,
        guard=PrivacyGuard(reviewer=reviewer),
    )
    if cache.enabled:  # invalidations Redis missed outlive the process (memory.redelivery)
        cache.journal = InvalidationJournal(
            cache,
            memory.store.backend,
            key_prefix=settings.redis_key_prefix,
            ready=memory._ready,
        )
    return memory


__all__ = [
    "InvalidSlotValue",
    "MemoryEngineError",
    "MemoryItem",
    "Recall",
    "RecordOutcome",
    "ScopedValue",
    "StoreUnavailable",
    "open_memory",
]
