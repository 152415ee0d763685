"""Claim once: the first caller to claim a name wins, across retries, processes and threads.

Two things use it. Every message is answered exactly once: platforms redeliver an event
they think we missed (Slack's `X-Slack-Retry-Num`, same event id), and one message can
arrive twice under different event ids (a DM `message` and an `app_mention`, or a
channel `message` in a thread and the mention in it), so the conversation claims both
the event and the message (`claim_message`). And a form is saved once, however often it
is submitted (`claim`/`release` on the view's id and version).

A claim is `SET NX EX` in Redis, one key per name, so it works on Redis Cluster too;
a multi-name claim wins only when every name was free. When Redis is unreachable the
claim falls back to a bounded in-process table: one process still never answers or
saves twice, and the bot keeps working.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.conversation.incoming import IncomingMessage

log = logging.getLogger(__name__)

DEFAULT_TTL_SECONDS = 24 * 3600


class Claims:
    """Names claimed once; `claim` is True for the first caller only (until the TTL ends)."""

    def __init__(
        self,
        *,
        client: Any | None,
        key_prefix: str = "",
        ttl_seconds: int = DEFAULT_TTL_SECONDS,
        local_capacity: int = 50_000,
    ) -> None:
        self._client = client
        self._prefix = key_prefix
        self.ttl_seconds = ttl_seconds
        self._local: OrderedDict[str, float] = OrderedDict()
        self._capacity = local_capacity
        self._lock = threading.Lock()

    def key(self, name: str) -> str:
        return f"{self._prefix}{name}"

    def claim(self, *names: str, ttl_seconds: int | None = None) -> bool:
        """True when every name was unclaimed; all of them are claimed from now on."""
        keys = [self.key(name) for name in names if name]
        if not keys:
            return True
        ttl = ttl_seconds or self.ttl_seconds
        if self._client is not None:
            try:
                pipe = self._client.pipeline(transaction=False)
                for key in keys:
                    pipe.set(key, "1", nx=True, ex=ttl)
                results = pipe.execute()
                return all(bool(r) for r in results)
            except Exception as exc:
                log.warning("claim via Redis failed (%s); claiming locally", type(exc).__name__)
        return self._claim_locally(keys, ttl)

    def release(self, *names: str) -> None:
        """Free the names again (what they guarded did not happen)."""
        keys = [self.key(name) for name in names if name]
        if not keys:
            return
        with self._lock:
            for key in keys:
                self._local.pop(key, None)
        if self._client is not None:
            try:
                self._client.delete(*keys)
            except Exception as exc:
                log.warning("could not release a claim (%s)", type(exc).__name__)

    def claim_message(self, msg: IncomingMessage) -> bool:
        """True for the first delivery of both the event and the message it carries."""
        names = [f"bot:seen:msg:{msg.message_key}"]
        if msg.delivery_key:
            names.insert(0, f"bot:seen:event:{msg.delivery_key}")
        return self.claim(*names)

    def _claim_locally(self, keys: list[str], ttl: int) -> bool:
        now = time.monotonic()
        with self._lock:
            while self._local:
                oldest, expires = next(iter(self._local.items()))
                if expires > now and len(self._local) < self._capacity:
                    break
                del self._local[oldest]
            fresh = True
            for key in keys:
                expires_at = self._local.get(key)
                if expires_at is not None and expires_at > now:
                    fresh = False
                self._local[key] = now + ttl
                self._local.move_to_end(key)
            return fresh


__all__ = ["DEFAULT_TTL_SECONDS", "Claims"]
