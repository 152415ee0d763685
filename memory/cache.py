"""The Redis read cache in front of the store.

Key `ltm:travel-pref:{namespace}` is a hash: one field per normalised recall query,
plus field `*` when the summary does not depend on the query (every current fact fits
the budget). The key's TTL is set when it is created, so everything cached for a
namespace expires together, and a write deletes the key.

Beyond "write, then delete": a reader that fetched the old summary before a write
could otherwise fill the cache after the delete. Every write bumps a per-namespace
generation counter before deleting; a fill is applied by a Lua script only when the
generation is still the one the reader saw before it asked the store.

Redis is optional. Any Redis error counts as a miss; after an error the cache stays
off for a short back-off and then tries again, and invalidations that could not be
delivered are replayed before the next read, so a Redis that blinks never leaves a
stale summary behind.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

ANY_QUERY = "*"

_FILL = """
local gen = redis.call('GET', KEYS[2])
if gen == false then gen = '0' end
if gen ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
if redis.call('TTL', KEYS[1]) < 0 then redis.call('EXPIRE', KEYS[1], ARGV[4]) end
return 1
"""

_INVALIDATE = """
redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[2], ARGV[1])
return redis.call('DEL', KEYS[1])
"""


def query_field(query: str) -> str:
    """The hash field of a recall query: whitespace and case do not make a new entry."""
    normal = " ".join(query.lower().split())
    return hashlib.sha1(normal.encode("utf-8")).hexdigest()[:20]


@dataclass(slots=True)
class CacheStats:
    hits: int = 0
    misses: int = 0
    errors: int = 0


class PreferenceCache:
    """Cache of preference summaries; never raises, never caches an empty summary."""

    def __init__(
        self,
        *,
        client: Any | None,
        ttl_seconds: int = 1800,
        key_prefix: str = "",
        retry_after_seconds: float = 2.0,
    ) -> None:
        self._client = client
        self.ttl = ttl_seconds
        self._prefix = key_prefix
        self._retry_after = retry_after_seconds
        self._down_until = 0.0
        self._pending: set[str] = set()
        self._lock = threading.Lock()
        self.stats = CacheStats()
        self._fill = client.register_script(_FILL) if client is not None else None
        self._invalidate = client.register_script(_INVALIDATE) if client is not None else None

    @property
    def enabled(self) -> bool:
        return self._client is not None

    def key(self, namespace: str) -> str:
        return f"{self._prefix}ltm:travel-pref:{namespace}"

    def generation_key(self, namespace: str) -> str:
        return f"{self._prefix}ltm:travel-pref-gen:{namespace}"

    # -- availability -------------------------------------------------------------

    def _available(self) -> bool:
        if self._client is None:
            return False
        if time.monotonic() < self._down_until:
            return False
        with self._lock:
            pending = list(self._pending)
        for namespace in pending:
            if not self._send_invalidate(namespace):
                return False
            with self._lock:
                self._pending.discard(namespace)
        return True

    def _failed(self, what: str, exc: Exception) -> None:
        self.stats.errors += 1
        self._down_until = time.monotonic() + self._retry_after
        log.warning("redis %s failed (%s); serving uncached", what, type(exc).__name__)

    # -- operations -----------------------------------------------------------------

    def generation(self, namespace: str) -> str | None:
        """The namespace's write generation, read before asking the store."""
        if not self._available():
            return None
        try:
            value = self._client.get(self.generation_key(namespace))  # type: ignore[union-attr]
        except Exception as exc:
            self._failed("read", exc)
            return None
        if value is None:
            return "0"
        return value.decode() if isinstance(value, bytes) else str(value)

    def get(self, namespace: str, query: str) -> str | None:
        """The cached summary for this query (or for any query), else None."""
        if not self._available():
            self.stats.misses += 1
            return None
        try:
            exact, any_query = self._client.hmget(  # type: ignore[union-attr]
                self.key(namespace), [query_field(query), ANY_QUERY]
            )
        except Exception as exc:
            self._failed("read", exc)
            self.stats.misses += 1
            return None
        value = exact if exact is not None else any_query
        if value is None:
            self.stats.misses += 1
            return None
        self.stats.hits += 1
        return value.decode("utf-8") if isinstance(value, bytes) else str(value)

    def fill(self, namespace: str, query: str | None, summary: str, generation: str | None) -> bool:
        """Store a summary (under `query`, or for any query when None) if no write raced."""
        if not summary or generation is None or not self._available():
            return False
        field = ANY_QUERY if query is None else query_field(query)
        try:
            done = self._fill(  # type: ignore[misc]
                keys=[self.key(namespace), self.generation_key(namespace)],
                args=[generation, field, summary, self.ttl],
            )
        except Exception as exc:
            self._failed("fill", exc)
            return False
        return bool(done)

    def invalidate(self, namespace: str) -> None:
        """Called after a write has committed: drop the namespace's cached summaries.

        Always tried at once, even during the back-off after an error: a summary left
        behind would be served by every other process. What cannot be delivered is
        replayed before this process's next cache read, and on `flush()`.
        """
        if self._client is None:
            return
        if self._send_invalidate(namespace):
            return
        with self._lock:
            self._pending.add(namespace)
        log.error("could not drop the cached summary of a namespace; will retry")

    def flush(self) -> bool:
        """Deliver pending invalidations now (called on close); True when none remain."""
        with self._lock:
            pending = list(self._pending)
        for namespace in pending:
            if self._send_invalidate(namespace):
                with self._lock:
                    self._pending.discard(namespace)
        with self._lock:
            left = len(self._pending)
        if left:
            log.error("%d cached summaries could not be invalidated before closing", left)
        return left == 0

    def _send_invalidate(self, namespace: str) -> bool:
        try:
            self._invalidate(  # type: ignore[misc]
                keys=[self.key(namespace), self.generation_key(namespace)],
                args=[max(self.ttl * 4, 86400)],
            )
        except Exception as exc:
            self._failed("invalidate", exc)
            return False
        return True

    def ping(self) -> bool:
        if self._client is None:
            return False
        try:
            return bool(self._client.ping())
        except Exception:
            return False
