"""Erasing all of a person's memory ends every link to their preferences page and every
page session opened with one.

Links and sessions are signed and kept nowhere (`bot.prefs.links`,
`bot.web.sessions`), so they cannot be deleted; instead each carries when it was
issued (`i`, Unix milliseconds) and a person's revocation is the time their memory was
erased: Redis key `prefs:revoked:{namespace}`, kept as long as the longest link or
session can live (`TTL_SECONDS`), after which everything issued before has expired
anyway. A token issued at or before it is refused. Tokens from before this rule (no `i`)
count as issued at 0: any revocation ends them.

`forget_everything(memory, revocations, namespace)` is the one way the bot erases all of
a person's memory (the chat platforms' *Forget everything*, the console's `/forget all`,
`travel-bot memory forget --all`): erase, then revoke. A process of its own (the command
line, the console) revokes through `open_revocations(settings)`, a client of its own.

When Redis fails:

- revoking: the revocation is kept in-process (this process refuses those tokens at
  once) and written to Redis on its next successful call; a separate process that
  cannot reach Redis (the command line) says so: its links stay usable elsewhere until
  they expire (at most `PREFS_LINK_TTL_MINUTES`, sessions `PREFS_SESSION_MINUTES`);
- checking: `standing` answers "unknown"; the page and the API then still show the
  person their own preferences, but refuse every change (503): they fail closed for
  writes.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from memory.protocol import LongTermMemory

log = logging.getLogger(__name__)

TTL_SECONDS = 2 * 86400 + 3600  # a link and a session opened with it: each at most a day
LOCAL_CAPACITY = 10_000

Standing = Literal["valid", "revoked", "unknown"]


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class Revocations:
    """When each person's links and sessions were last revoked; thread-safe."""

    def __init__(
        self, *, client: Any | None, key_prefix: str = "", owns_client: bool = False
    ) -> None:
        self._client = client
        self._owns_client = owns_client
        self._prefix = key_prefix
        self._local: OrderedDict[str, int] = OrderedDict()  # namespace -> revoked at (ms)
        self._pending: dict[str, int] = {}  # revocations Redis has not taken yet
        self._lock = threading.Lock()
        self._keep_latest = client.register_script(_KEEP_LATEST) if client is not None else None

    @property
    def pending(self) -> int:
        """Revocations Redis has not taken yet (all of them, without Redis)."""
        with self._lock:
            return len(self._pending) if self._client is not None else len(self._local)

    def close(self) -> None:
        if self._owns_client and self._client is not None:
            self._client.close()

    def key(self, namespace: str) -> str:
        return f"{self._prefix}prefs:revoked:{namespace}"

    def revoke(self, namespace: str, *, at: int | None = None) -> bool:
        """End every link and session of `namespace` issued until now; False when Redis
        did not take it (it is then kept in-process and written later)."""
        at = now_ms() if at is None else at
        with self._lock:
            self._local[namespace] = max(at, self._local.get(namespace, 0))
            self._local.move_to_end(namespace)
            while len(self._local) > LOCAL_CAPACITY:
                self._local.popitem(last=False)
            self._pending[namespace] = self._local[namespace]
        return self._flush()

    def standing(self, namespace: str, issued_at: int) -> Standing:
        """Whether a token of `namespace` issued at `issued_at` (ms) is still good."""
        with self._lock:
            local = self._local.get(namespace, -1)
        if issued_at <= local:
            return "revoked"
        if self._client is None:
            return "valid"
        if not self._flush():
            return "unknown"
        try:
            value = self._client.get(self.key(namespace))
        except Exception as exc:
            log.warning("revocations: Redis failed (%s)", type(exc).__name__)
            return "unknown"
        text = _text(value) if value is not None else ""
        revoked = int(text) if text.isascii() and text.isdigit() else -1
        return "revoked" if issued_at <= revoked else "valid"

    def _flush(self) -> bool:
        """Write the pending revocations to Redis; True when none is left."""
        with self._lock:
            pending = dict(self._pending)
        if not pending:
            return True
        if self._keep_latest is None:
            with self._lock:
                self._pending.clear()
            return True
        try:
            for namespace, at in pending.items():
                self._keep_latest(keys=[self.key(namespace)], args=[at, TTL_SECONDS])
        except Exception as exc:
            log.warning("revocations: Redis failed (%s); kept in-process", type(exc).__name__)
            return False
        with self._lock:
            for namespace, at in pending.items():
                if self._pending.get(namespace) == at:
                    del self._pending[namespace]
        return True


# The later of the stored and the new revocation time, with a fresh TTL.
_KEEP_LATEST = """
local old = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
local new = tonumber(ARGV[1])
if old > new then new = old end
redis.call('SET', KEYS[1], string.format('%d', new), 'EX', ARGV[2])
return new
"""


def forget_everything(
    memory: LongTermMemory, revocations: Revocations | None, namespace: str
) -> int:
    """Erase everything remembered about `namespace` and end its links and sessions; how
    many facts were erased (`MemoryEngineError` when memory is down; revoked even then)."""
    try:
        return memory.forget(namespace)
    finally:  # even when memory failed: the person asked for an end to it all
        if revocations is not None:
            revocations.revoke(namespace)


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


__all__ = [
    "TTL_SECONDS",
    "Revocations",
    "Standing",
    "forget_everything",
    "now_ms",
]
