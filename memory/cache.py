"""The Redis read cache in front of the store.

Key `ltm:travel-pref:{namespace}` (the braces are a Redis Cluster hash tag: a
namespace's keys share one slot) is a hash holding:

- `facts`: the namespace's current facts with their embeddings (`memory.facts.pack`),
  so a recall for any request is ranked and summarised without the store;
- `q:<version>:<digest>`: the summary for a normalised request (asked again: one read);
  at most `MAX_FIELDS` fields in all, so a warmed traveller's entry stops growing after
  32 distinct requests and later ones are ranked from the cached facts each time;
- `*:<version>:en` / `*:<version>:zh`: a summary for every request in that language
  (the Bailian backend's, when every node fits the budget).

Entry versions: the facts value carries its layout's (`memory.facts`); summary fields
the summary format's (`memory.summary.FORMAT_VERSION`): after a deploy that renders
summaries differently, none cached before it is served (a full entry drops them).

A summary ranked from the cached facts is stored by a background thread (`fill_later`):
a new request waits for no second round trip, and asking it again is one read. The key's
TTL is set when it is created (all of a namespace expires together); a write deletes it.

Beyond "write, then delete": a reader that fetched the old facts before a write could
otherwise fill the cache after the delete. Every write bumps a per-namespace generation
counter (`ltm:travel-pref-gen:{namespace}`, same slot) before deleting; a fill is
applied by a Lua script only when the generation is still the one the reader saw before
it asked the store.

Redis is optional. Any Redis error counts as a miss; after an error that says Redis
cannot be reached (a refused or dropped connection, a timeout, a cluster without a node)
the cache stays off for a short back-off, while an error of one call costs that call only. A write's
invalidation is kept in the store until Redis took it (`journal`, `memory.redelivery`;
committed with the write itself), so it outlives this process: every process holding the
cache delivers it before its first read, after an outage it saw, and within seconds
from a background check; this one also replays it before its next read and on
`flush()`. Keys and fields never fail to encode: a namespace or request that is not
valid UTF-8 is hashed (`hash_tag`, `query_field`). Lua scripts: `memory.cache_scripts`.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import queue
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memory.cache_scripts import FILL, INVALIDATE, LOOKUP, MAX_FIELDS
from memory.summary import FORMAT_VERSION

if TYPE_CHECKING:
    from memory.redelivery import InvalidationJournal

log = logging.getLogger(__name__)

FACTS = "facts"


def query_field(query: str) -> str:
    """A request's summary field: whitespace and case make no new one; a new format does."""
    normal = " ".join(query.lower().split()).encode("utf-8", "surrogatepass")
    return f"q:{FORMAT_VERSION}:{hashlib.sha1(normal).hexdigest()[:20]}"


def general_field(lang: str) -> str:
    """The field of the summary that fits every request in `lang` (and this format)."""
    return f"*:{FORMAT_VERSION}:{lang}"


def hash_tag(namespace: str) -> str:
    """The namespace as a Redis Cluster hash tag, `{...}`.

    A namespace with a brace in it could end the tag early or leave it empty (then the
    two keys of a namespace could land in different slots), and one that is not valid
    UTF-8 (a lone surrogate) cannot be sent at all: such namespaces are tagged by
    their digest instead (`{#<sha1>}`; a namespace starting with `#` too, so no
    namespace's own tag can equal another's digest).
    """
    try:
        namespace.encode("utf-8")
    except UnicodeEncodeError:
        pass
    else:
        if "{" not in namespace and "}" not in namespace and not namespace.startswith("#"):
            return "{" + namespace + "}"
    digest = hashlib.sha1(namespace.encode("utf-8", "surrogatepass")).hexdigest()
    return "{#" + digest + "}"


@dataclass(frozen=True, slots=True)
class Lookup:
    """What the cache holds for a request: a summary, or the facts to rank, or nothing.

    `generation` is the namespace's write generation when the facts (or the miss) were
    read; None when Redis is unavailable (then nothing may be filled).
    """

    summary: str | None = None
    facts: bytes | None = None
    generation: str | None = None


@dataclass(slots=True)
class CacheStats:
    hits: int = 0
    misses: int = 0
    errors: int = 0
    fact_hits: int = 0  # hits ranked from the cached facts (also counted in `hits`)


class PreferenceCache:
    """Cache of preference facts and summaries; never raises, never caches an empty one."""

    def __init__(
        self,
        *,
        client: Any | None,
        ttl_seconds: int = 1800,
        key_prefix: str = "",
        retry_after_seconds: float = 2.0,
        inline_facts_bytes: int = 64 * 1024,
    ) -> None:
        self._client = client
        # Facts up to this size (about 100 facts) come back with the lookup itself.
        self.inline_facts_bytes = inline_facts_bytes
        self.max_fields = MAX_FIELDS
        self.ttl = ttl_seconds
        self._prefix = key_prefix
        self._retry_after = retry_after_seconds
        self._down_until = 0.0
        # Undelivered invalidations, each True when also kept in the store's journal.
        self._pending: dict[str, bool] = {}
        # Set by `open_memory` on a SQL store: undelivered invalidations outlive us.
        self.journal: InvalidationJournal | None = None
        self._unseen = True  # deliver the journal before the first read and after outages
        self._lock = threading.Lock()
        self._later: queue.Queue[tuple[str, dict[str, str | bytes], str] | None] = queue.Queue(
            maxsize=256
        )
        self._writer: threading.Thread | None = None
        self.stats = CacheStats()
        self._lookup = client.register_script(LOOKUP) if client is not None else None
        self._fill = client.register_script(FILL) if client is not None else None
        self._invalidate = client.register_script(INVALIDATE) if client is not None else None

    @property
    def enabled(self) -> bool:
        return self._client is not None

    def key(self, namespace: str) -> str:
        return f"{self._prefix}ltm:travel-pref:{hash_tag(namespace)}"

    def generation_key(self, namespace: str) -> str:
        return f"{self._prefix}ltm:travel-pref-gen:{hash_tag(namespace)}"

    # -- availability -------------------------------------------------------------

    def _available(self) -> bool:
        if self._client is None:
            return False
        if time.monotonic() < self._down_until:
            return False
        journal = self.journal
        if journal is not None:
            journal.watch()
            if self._unseen:  # once per process start or outage: a DB read, not per hit
                self._unseen = False
                if journal.deliver() > 0:  # rows left: delivered before any read is served
                    self._unseen = True
                    return False
        with self._lock:
            pending = list(self._pending)
        for namespace in pending:
            if not self.send_invalidate(namespace):
                return False
            with self._lock:
                self._pending.pop(namespace, None)
        return True

    def backing_off(self) -> bool:
        """Whether Redis was found unreachable a moment ago (calls wait for the retry)."""
        return time.monotonic() < self._down_until

    @property
    def deferred(self) -> int:
        """Invalidations this process could not deliver yet (kept in the journal or not)."""
        with self._lock:
            return len(self._pending)

    def _failed(self, what: str, exc: Exception) -> None:
        self.stats.errors += 1
        if _outage(exc):
            self._down_until = time.monotonic() + self._retry_after
            self._unseen = True
            log.warning("redis %s failed (%s); serving uncached", what, type(exc).__name__)
        else:  # this call's own failure: other namespaces keep their cache
            log.warning("redis %s failed (%s); this call uncached", what, type(exc).__name__)

    # -- operations -----------------------------------------------------------------

    def lookup(self, namespace: str, fields: Sequence[str]) -> Lookup:
        """The first of the summary `fields` cached, else the cached facts.

        The generation is read before the facts: facts read after it are at least that
        new, and what is filled with it is refused if a write came in between.
        """
        if not self._available():
            self.stats.misses += 1
            return Lookup()
        key = self.key(namespace)
        try:
            reply = self._lookup(  # type: ignore[misc]
                keys=[key, self.generation_key(namespace)],
                args=[self.inline_facts_bytes, *fields],
            )
            kind = _text(reply[0])
            if kind == "summary":
                self.stats.hits += 1
                return Lookup(summary=_text(reply[1]))
            generation = _text(reply[1])
            facts = None
            if kind == "facts":
                facts = reply[2] if len(reply) > 2 else self._client.hget(key, FACTS)  # type: ignore[union-attr]
        except Exception as exc:
            self._failed("read", exc)
            self.stats.misses += 1
            return Lookup()
        if facts is None:  # not cached, or expired or invalidated just now
            self.stats.misses += 1
            return Lookup(generation=generation)
        self.stats.hits += 1
        self.stats.fact_hits += 1
        return Lookup(facts=bytes(facts), generation=generation)

    def missed(self) -> None:
        """Count a hit whose facts this version could not read as a miss."""
        self.stats.hits -= 1
        self.stats.fact_hits -= 1
        self.stats.misses += 1

    def generation(self, namespace: str) -> str | None:
        """The namespace's write generation, read before asking the store."""
        if not self._available():
            return None
        try:
            value = self._client.get(self.generation_key(namespace))  # type: ignore[union-attr]
        except Exception as exc:
            self._failed("read", exc)
            return None
        return "0" if value is None else _text(value)

    def has_facts(self, namespace: str) -> bool:
        """Whether the namespace's facts are cached (a recall needs no store)."""
        if not self._available():
            return False
        try:
            return bool(self._client.hexists(self.key(namespace), FACTS))  # type: ignore[union-attr]
        except Exception as exc:
            self._failed("read", exc)
            return False

    def fill(
        self, namespace: str, values: Mapping[str, str | bytes], generation: str | None
    ) -> bool:
        """Store `values` (hash fields) if no write raced since `generation` was read.

        Empty values are never stored.
        """
        values = {field: value for field, value in values.items() if value}
        if not values or generation is None or not self._available():
            return False
        args: list[str | bytes | int] = [generation, self.ttl, self.max_fields, FORMAT_VERSION]
        for field, value in values.items():
            args += [field, value]
        try:
            done = self._fill(  # type: ignore[misc]
                keys=[self.key(namespace), self.generation_key(namespace)], args=args
            )
        except Exception as exc:
            self._failed("fill", exc)
            return False
        return bool(done)

    def fill_later(
        self, namespace: str, values: Mapping[str, str | bytes], generation: str | None
    ) -> None:
        """`fill`, on a background thread: for what only saves work later.

        The generation guard makes a late fill as safe as a prompt one. When the
        queue is full the values are dropped (they are an optimisation).
        """
        if generation is None or self._client is None:
            return
        with self._lock:
            if self._writer is None or not self._writer.is_alive():
                self._writer = threading.Thread(
                    target=self._write_later, name="ltm-cache-fill", daemon=True
                )
                self._writer.start()
        with contextlib.suppress(queue.Full):
            self._later.put_nowait((namespace, dict(values), generation))

    def _write_later(self) -> None:
        while True:
            job = self._later.get()
            try:
                if job is None:
                    return
                self.fill(*job)
            finally:
                self._later.task_done()

    def settle(self) -> None:
        """Wait until every deferred fill has been tried (for `close` and tests)."""
        if self._writer is not None:
            self._later.join()

    def invalidate(self, namespace: str, kept: str | None = None) -> None:
        """Called after a write has committed: drop the namespace's cached summaries.

        Always tried at once, even during the back-off after an error: a summary left
        behind would be served by every other process. `kept`: the token of the journal
        row the write committed with itself (`memory.redelivery.write_and_invalidate`),
        deleted once Redis took the drop. A drop Redis did not take stays in the journal
        (recorded now if no row was kept): any process delivers it once Redis answers,
        and this one replays it before its next cache read and on `flush()`.
        """
        if self._client is None:
            return
        journal = self.journal
        if self.send_invalidate(namespace):
            if kept is not None and journal is not None:
                journal.delivered(namespace, kept)
            return
        saved = kept is not None or (journal is not None and journal.record(namespace))
        with self._lock:
            self._pending[namespace] = saved or self._pending.get(namespace, False)
        log.error(
            "could not drop the cached summary of a namespace; %s",
            "kept until Redis answers" if saved else "retried while this process runs",
        )

    def flush(self) -> bool:
        """Write deferred fills, stop the background threads, and deliver pending
        invalidations now (called on close); True when none is lost, i.e. each was
        delivered or is kept in the journal for another process (`deferred` counts them).
        """
        with self._lock:
            writer, self._writer = self._writer, None
        if writer is not None:
            self._later.put(None)
            writer.join(5)
        if self.journal is not None:
            self.journal.stop()
        with self._lock:
            pending = list(self._pending)
        for namespace in pending:
            if self.send_invalidate(namespace):
                with self._lock:
                    self._pending.pop(namespace, None)
        with self._lock:
            lost = sum(not kept for kept in self._pending.values())
        if lost:
            log.error("%d cached summaries could not be invalidated before closing", lost)
        return lost == 0

    def send_invalidate(self, namespace: str) -> bool:
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


def _outage(exc: Exception) -> bool:
    """Whether `exc` says Redis cannot be reached now, rather than that one call failed."""
    from redis.exceptions import ClusterError
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return isinstance(exc, (RedisConnectionError, RedisTimeoutError, ClusterError, OSError))


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)
