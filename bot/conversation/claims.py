"""Claim once: the first caller to claim a name wins, across retries, processes and threads.

Three things use it. Every message is answered exactly once: platforms redeliver an
event they think we missed (a retry header, same event id), and one message
can arrive twice under different event ids (a DM `message` and an `app_mention`, or a
channel `message` in a thread and the mention in it), so the conversation claims both
the event and the message (`claim_message`). A slash command is handled once per
`trigger_id` (a replayed signed request is acknowledged and ignored). And a form is
saved once, however often it is submitted (`claim`/`release` on the view's id and
version).

How a claim is made:

1. In-process first. Every claim is recorded in a bounded in-process table (TTL'd like
   the Redis key, oldest dropped past `local_capacity`), and that table is asked first:
   a name this process claimed is never claimed again by it, whatever Redis says or
   whether it answers. The check and the record are one step under a lock, so two
   threads of one process never both win.
2. Then Redis: `SET NX EX`, one key per name (so it works on Redis Cluster too); a
   multi-name claim wins only when every name was free there. The value is this
   process's token, so a claim written twice by this process is not taken for another
   process's.
3. When Redis fails (refused, or no answer within the client's socket timeout: a frozen
   server), the in-process record stands and the claim wins; Redis is then left alone
   for `retry_after` seconds (claims are in-process only meanwhile), so a frozen Redis
   costs one timeout per `retry_after`, not one per message.
4. When Redis answers again, the claims it may not have are written through to it
   (`SET NX EX` with their remaining TTL) in the same round trip as the next claims, at
   most `replay_batch` at a time: those made while it was unreachable, and those made in
   the `replay_seconds` before it failed (a restarted Redis without persistence lost
   them). Releases it missed are replayed too. A written-through name that another
   process claimed meanwhile is counted (`stats.conflicts`) and logged: that message may
   have been answered twice.

What is guaranteed:

- One process never answers a message twice (nor saves a form twice, nor handles a
  trigger twice) within the TTL, whether Redis was up, down, frozen or restarted
  empty between the deliveries, as long as its in-process table still holds the name
  (`local_capacity` claims, 50,000 by default: hours of traffic).
- Several processes (a retry may reach any of them): exactly once whenever each
  delivery's claim reached Redis, i.e. Redis answered both claims. A delivery claimed
  while Redis was unreachable, or in the `retry_after` back-off after a failure, is known
  to other processes only once its process has written it through (its first
  successful Redis call after the outage); a retry that another process claims before
  that may be answered twice. A Redis that restarts empty loses the claims of other
  processes until they write them through, and those older than `replay_seconds` for
  good (platforms retry within about 5 minutes; the default is 10).
"""

from __future__ import annotations

import logging
import math
import threading
import time
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.conversation.incoming import IncomingMessage

log = logging.getLogger(__name__)

DEFAULT_TTL_SECONDS = 24 * 3600
# The socket timeout of the Redis client made for claims (`bot.compose`): a claim is a few
# `SET NX` in one round trip, so half a second is already a Redis that is not answering.
CLAIM_TIMEOUT = 0.5
RETRY_AFTER_SECONDS = 1.0
REPLAY_SECONDS = 600.0
REPLAY_BATCH = 200


@dataclass
class ClaimStats:
    """What the claims did, for tests and the operator's eye (never reset)."""

    local_only: int = 0  # claims decided in-process: Redis failed, or was being left alone
    redis_errors: int = 0
    replayed: int = 0  # names written through to Redis after it answered again
    conflicts: int = 0  # written-through names another process had claimed meanwhile


@dataclass(frozen=True, slots=True)
class _Held:
    claimed_at: float
    expires_at: float


class Claims:
    """Names claimed once; `claim` is True for the first caller only (until the TTL ends)."""

    def __init__(
        self,
        *,
        client: Any | None,
        key_prefix: str = "",
        ttl_seconds: int = DEFAULT_TTL_SECONDS,
        local_capacity: int = 50_000,
        retry_after: float = RETRY_AFTER_SECONDS,
        replay_seconds: float = REPLAY_SECONDS,
        replay_batch: int = REPLAY_BATCH,
        owns_client: bool = False,
    ) -> None:
        self._client = client
        self._owns_client = owns_client
        self._prefix = key_prefix
        self.ttl_seconds = ttl_seconds
        self.retry_after = retry_after
        self.replay_seconds = replay_seconds
        self.replay_batch = replay_batch
        self.stats = ClaimStats()
        self._token = uuid.uuid4().hex
        self._local: OrderedDict[str, _Held] = OrderedDict()  # oldest claim first
        self._capacity = local_capacity
        # Names Redis may be missing: True to write through (SET NX), False to delete.
        self._pending: OrderedDict[str, bool] = OrderedDict()
        self._up = True  # Redis answered the last call
        self._retry_at = 0.0  # no Redis call before this (monotonic), after a failure
        self._lock = threading.Lock()

    def key(self, name: str) -> str:
        return f"{self._prefix}{name}"

    @property
    def pending(self) -> int:
        """Claims (and releases) made while Redis was away, not yet written through."""
        with self._lock:
            return len(self._pending)

    def claim(self, *names: str, ttl_seconds: int | None = None) -> bool:
        """True when every name was unclaimed; all of them are claimed from now on."""
        keys = list(dict.fromkeys(self.key(name) for name in names if name))
        if not keys:
            return True
        ttl = ttl_seconds or self.ttl_seconds
        now = time.monotonic()
        with self._lock:
            if not self._hold(keys, now, ttl):
                return False  # this process claimed one of them: a local hit always wins
            if self._client is None:
                return True
            if now < self._retry_at:
                self.stats.local_only += 1
                for key in keys:
                    self._pending[key] = True
                return True
            # A name released while Redis was away and claimed again: delete it first.
            replay = [(key, False, 0) for key in keys if self._pending.get(key) is False]
            for key, _, _ in replay:
                del self._pending[key]
            replay += self._replay_batch(now)
        try:
            won, conflicts = self._send(keys, ttl, replay)
        except Exception as exc:
            self._failed(exc, keys, replay, now)
            return True
        self._answered(replay, conflicts)
        return won

    def release(self, *names: str) -> None:
        """Free the names again (what they guarded did not happen)."""
        keys = [self.key(name) for name in names if name]
        if not keys:
            return
        with self._lock:
            for key in keys:
                self._local.pop(key, None)
                self._pending.pop(key, None)
            if self._client is None:
                return
            if time.monotonic() < self._retry_at:
                for key in keys:
                    self._pending[key] = False
                return
        try:
            self._client.delete(*keys)
        except Exception as exc:
            log.warning("could not release a claim (%s); will retry", type(exc).__name__)
            with self._lock:
                for key in keys:
                    self._pending[key] = False

    def held(self, name: str) -> bool | None:
        """Whether `name` is claimed now, by this process or (Redis) another; None when
        only Redis could tell and it did not answer (or is being left alone)."""
        key = self.key(name)
        now = time.monotonic()
        with self._lock:
            held = self._local.get(key)
            if held is not None and held.expires_at > now:
                return True
            if self._client is None:
                return False
            if now < self._retry_at:
                return None
        try:
            return bool(self._client.exists(key))
        except Exception as exc:
            log.info("claims: could not tell whether a name is claimed (%s)", type(exc).__name__)
            return None

    def claim_message(self, msg: IncomingMessage) -> bool:
        """True for the first delivery of both the event and the message it carries."""
        names = [f"bot:seen:msg:{msg.message_key}"]
        if msg.delivery_key:
            names.insert(0, f"bot:seen:event:{msg.delivery_key}")
        return self.claim(*names)

    def close(self) -> None:
        """Close the Redis client, when it was made for the claims alone."""
        if self._owns_client and self._client is not None:
            self._client.close()

    # -- the in-process table (callers hold the lock) ------------------------------------

    def _hold(self, keys: list[str], now: float, ttl: int) -> bool:
        """Record `keys` as claimed; False when one of them already was (in this process)."""
        while self._local:
            oldest, first = next(iter(self._local.items()))
            if first.expires_at > now and len(self._local) < self._capacity:
                break
            del self._local[oldest]
            self._pending.pop(oldest, None)
        fresh = True
        for key in keys:
            held = self._local.get(key)
            if held is not None and held.expires_at > now:
                fresh = False
            else:
                self._local[key] = _Held(now, now + ttl)
                self._local.move_to_end(key)
        return fresh

    def _replay_batch(self, now: float) -> list[tuple[str, bool, int]]:
        """Up to `replay_batch` pending names, taken off the queue: (key, set?, ttl)."""
        batch: list[tuple[str, bool, int]] = []
        while self._pending and len(batch) < self.replay_batch:
            key, write = self._pending.popitem(last=False)
            held = self._local.get(key)
            if write and (held is None or held.expires_at <= now):
                continue  # expired or dropped: nothing left to protect
            ttl = max(1, math.ceil(held.expires_at - now)) if held is not None else 0
            batch.append((key, write, ttl))
        return batch

    # -- Redis ---------------------------------------------------------------------------

    def _send(
        self, keys: list[str], ttl: int, replay: list[tuple[str, bool, int]]
    ) -> tuple[bool, int]:
        """One round trip: the replayed names first, then the claim. (won, conflicts)."""
        assert self._client is not None
        pipe = self._client.pipeline(transaction=False)
        for key, write, remaining in replay:
            if write:
                pipe.set(key, self._token, nx=True, ex=remaining)
                pipe.get(key)
            else:
                pipe.delete(key)
        for key in keys:
            pipe.set(key, self._token, nx=True, ex=ttl)
        results = pipe.execute()
        conflicts, at = 0, 0
        for _key, write, _remaining in replay:
            if write:
                written, holder = results[at], results[at + 1]
                at += 2
                if not written and holder is not None and _text(holder) != self._token:
                    conflicts += 1
            else:
                at += 1
        return all(bool(r) for r in results[at:]), conflicts

    def _failed(
        self, exc: Exception, keys: list[str], replay: list[tuple[str, bool, int]], now: float
    ) -> None:
        """Redis did not answer: the claim stands locally; write it through later."""
        with self._lock:
            self.stats.redis_errors += 1
            self.stats.local_only += 1
            self._retry_at = time.monotonic() + self.retry_after
            for key, write, _ in replay:  # back in the queue, before the newer ones
                self._pending[key] = write
                self._pending.move_to_end(key, last=False)
            if self._up:  # it just failed: what it held a moment ago may be lost with it
                since = now - self.replay_seconds
                for key, held in reversed(self._local.items()):
                    if held.claimed_at < since:
                        break
                    self._pending.setdefault(key, True)
            for key in keys:
                self._pending[key] = True
            was_up, self._up = self._up, False
        if was_up:
            log.warning("claims: Redis failed (%s); claiming in-process", type(exc).__name__)

    def _answered(self, replay: list[tuple[str, bool, int]], conflicts: int) -> None:
        with self._lock:
            was_up, self._up = self._up, True
            self.stats.replayed += len(replay)
            self.stats.conflicts += conflicts
            left = len(self._pending)
        if not was_up:
            log.info("claims: Redis answers again; writing %d claims through", len(replay) + left)
        if conflicts:
            log.warning(
                "claims: %d claimed while Redis was away were also claimed by another "
                "process (possibly answered twice)",
                conflicts,
            )


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


__all__ = ["CLAIM_TIMEOUT", "DEFAULT_TTL_SECONDS", "ClaimStats", "Claims"]
