"""Short-term memory: the recent turns of each thread the bot takes part in.

One Redis list per thread, `{prefix}bot:thread:{thread}`, holding JSON turns oldest
first (`thread` is `IncomingMessage.thread_key`: the platform's key of
`{tenant}:{conversation}:{thread}`); every append trims it to the last `max_turns` turns
and renews its TTL. Redis trouble never breaks a conversation: reads fall back to no
history.

The threads the bot is part of, where follow-ups need no re-mention (`knows`): those
with a history, and those marked (`mark`) the moment a mention in them is accepted,
before the model has said anything, so a detail added in the thread while the first
answer is being written is not ignored. A mark is `{prefix}bot:thread-on:{thread}` in
Redis (same TTL as the history) and is also kept in a bounded in-process table, so this
process still knows its threads while Redis is away.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Literal

from redis.exceptions import WatchError

log = logging.getLogger(__name__)

Role = Literal["user", "assistant"]


@dataclass(frozen=True, slots=True)
class Turn:
    """One message of a thread as the model sees it."""

    role: Role
    text: str
    user: str = ""

    def as_message(self) -> dict[str, str]:
        """The chat-completions message of this turn."""
        return {"role": self.role, "content": self.text}


class ThreadHistory:
    """Recent turns per thread in Redis, with a TTL and a length cap."""

    def __init__(
        self,
        *,
        client: Any | None,
        key_prefix: str = "",
        max_turns: int = 20,
        ttl_seconds: int = 3 * 24 * 3600,
        max_chars_per_turn: int = 4000,
        local_capacity: int = 20_000,
    ) -> None:
        self._client = client
        self._prefix = key_prefix
        self.max_turns = max_turns
        self.ttl_seconds = ttl_seconds
        self.max_chars_per_turn = max_chars_per_turn
        self._marked: OrderedDict[str, float] = OrderedDict()  # thread -> expiry (monotonic)
        self._capacity = local_capacity
        self._lock = threading.Lock()

    def key(self, thread: str) -> str:
        return f"{self._prefix}bot:thread:{thread}"

    def load(self, thread: str) -> list[Turn]:
        """The thread's recent turns, oldest first ([] when unknown or Redis is down)."""
        if self._client is None:
            return []
        try:
            raw = self._client.lrange(self.key(thread), 0, -1)
        except Exception as exc:
            log.warning("thread history unavailable (%s)", type(exc).__name__)
            return []
        turns: list[Turn] = []
        for item in raw:
            try:
                data = json.loads(item)
                role = data["role"]
                if role in ("user", "assistant"):
                    turns.append(Turn(role, str(data["text"]), str(data.get("user", ""))))
            except (ValueError, KeyError, TypeError):
                continue
        return turns

    def append(self, thread: str, *turns: Turn) -> None:
        """Add turns, keep the last `max_turns`, renew the TTL (errors are logged)."""
        if self._client is None or not turns:
            return
        key = self.key(thread)
        values = [self._dumps(t) for t in turns]
        try:
            pipe = self._client.pipeline(transaction=True)
            pipe.rpush(key, *values)
            pipe.ltrim(key, -self.max_turns, -1)
            pipe.expire(key, self.ttl_seconds)
            pipe.execute()
        except Exception as exc:
            log.warning("could not save thread history (%s)", type(exc).__name__)

    def seed(self, thread: str, *turns: Turn) -> bool:
        """Start a thread's history with `turns`, unless it already has some.

        For the earlier messages of a thread the bot joins partway: when two first
        mentions race, only one seeds it. False when nothing was written.
        """
        if self._client is None or not turns:
            return False
        key = self.key(thread)
        values = [self._dumps(t) for t in turns[-self.max_turns :]]
        try:
            with self._client.pipeline(transaction=True) as pipe:
                pipe.watch(key)
                if pipe.exists(key):
                    return False
                pipe.multi()
                pipe.rpush(key, *values)
                pipe.expire(key, self.ttl_seconds)
                pipe.execute()
                return True
        except WatchError:  # another turn wrote the thread first
            return False
        except Exception as exc:
            log.warning("could not save thread history (%s)", type(exc).__name__)
            return False

    def subject_key(self, thread: str) -> str:
        return f"{self._prefix}bot:thread-subject:{thread}"

    def set_subject(self, thread: str, traveller: str) -> None:
        """Remember that this thread plans for `traveller` (an admin's delegation)."""
        if self._client is None:
            return
        try:
            self._client.set(self.subject_key(thread), traveller, ex=self.ttl_seconds)
        except Exception as exc:
            log.warning("could not save the thread's traveller (%s)", type(exc).__name__)

    def subject(self, thread: str) -> str | None:
        """The traveller this thread plans for, if an admin started it for someone."""
        if self._client is None:
            return None
        try:
            value = self._client.get(self.subject_key(thread))
        except Exception as exc:
            log.warning("thread history unavailable (%s)", type(exc).__name__)
            return None
        if value is None:
            return None
        return value.decode() if isinstance(value, bytes) else str(value)

    def mark_key(self, thread: str) -> str:
        return f"{self._prefix}bot:thread-on:{thread}"

    def mark(self, thread: str) -> None:
        """The bot takes part in this thread from now on (before it has answered)."""
        now = time.monotonic()
        with self._lock:
            while self._marked:
                oldest, expires = next(iter(self._marked.items()))
                if expires > now and len(self._marked) < self._capacity:
                    break
                del self._marked[oldest]
            self._marked[thread] = now + self.ttl_seconds
            self._marked.move_to_end(thread)
        if self._client is None:
            return
        try:
            self._client.set(self.mark_key(thread), "1", ex=self.ttl_seconds)
        except Exception as exc:
            log.warning("could not mark the thread (%s)", type(exc).__name__)

    def unmark(self, thread: str) -> None:
        """Take back `mark` (the bot ended up saying nothing in the thread)."""
        with self._lock:
            self._marked.pop(thread, None)
        if self._client is None:
            return
        try:
            self._client.delete(self.mark_key(thread))
        except Exception as exc:
            log.warning("could not unmark the thread (%s)", type(exc).__name__)

    def knows(self, thread: str) -> bool:
        """Whether the bot takes part in this thread: marked, or with a history.

        While Redis is down only the threads this process marked are known.
        """
        with self._lock:
            expires = self._marked.get(thread)
        if expires is not None and expires > time.monotonic():
            return True
        if self._client is None:
            return False
        try:  # two keys, maybe in two cluster slots: one EXISTS each, one round trip
            pipe = self._client.pipeline(transaction=False)
            pipe.exists(self.key(thread))
            pipe.exists(self.mark_key(thread))
            return any(pipe.execute())
        except Exception as exc:
            log.warning("thread history unavailable (%s)", type(exc).__name__)
            return False

    def _dumps(self, turn: Turn) -> str:
        data = {"role": turn.role, "text": turn.text[: self.max_chars_per_turn], "user": turn.user}
        return json.dumps(data, ensure_ascii=False)


__all__ = ["ThreadHistory", "Turn"]
