"""Exactly one answer per Slack message, across retries, processes and event types.

Slack redelivers an event it thinks we missed (`X-Slack-Retry-Num`, same `event_id`),
and one message can arrive twice with different event ids (a DM `message` and an
`app_mention`, or a channel `message` in a thread and the mention in it). Before
answering, the handler claims both the event id and the message `(team, channel, ts)`
with `SET NX EX` in Redis: whoever sets both keys first answers; everyone else stays
quiet. Each key is claimed on its own, so this works on Redis Cluster too.

When Redis is unreachable the claim falls back to a bounded in-process table: one
process still never answers twice, and the bot keeps answering.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from typing import Any

log = logging.getLogger(__name__)


class EventDedupe:
    """Claims on Slack events and messages; `claim` is True for the first caller only."""

    def __init__(
        self,
        *,
        client: Any | None,
        key_prefix: str = "",
        ttl_seconds: int = 24 * 3600,
        local_capacity: int = 50_000,
    ) -> None:
        self._client = client
        self._prefix = key_prefix
        self.ttl_seconds = ttl_seconds
        self._local: OrderedDict[str, float] = OrderedDict()
        self._capacity = local_capacity
        self._lock = threading.Lock()

    def event_key(self, event_id: str) -> str:
        return f"{self._prefix}bot:seen:event:{event_id}"

    def message_key(self, team_id: str, channel: str, ts: str) -> str:
        return f"{self._prefix}bot:seen:msg:{team_id}:{channel}:{ts}"

    def claim(
        self,
        *,
        event_id: str | None,
        team_id: str,
        channel: str,
        ts: str,
    ) -> bool:
        """True when this is the first delivery of both the event and the message."""
        keys = [self.message_key(team_id, channel, ts)]
        if event_id:
            keys.insert(0, self.event_key(event_id))
        if self._client is not None:
            try:
                pipe = self._client.pipeline(transaction=False)
                for key in keys:
                    pipe.set(key, "1", nx=True, ex=self.ttl_seconds)
                results = pipe.execute()
                return all(bool(r) for r in results)
            except Exception as exc:
                log.warning("dedupe via Redis failed (%s); deduping locally", type(exc).__name__)
        return self._claim_locally(keys)

    def _claim_locally(self, keys: list[str]) -> bool:
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
                self._local[key] = now + self.ttl_seconds
                self._local.move_to_end(key)
            return fresh


__all__ = ["EventDedupe"]
