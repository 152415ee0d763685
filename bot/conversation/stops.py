"""Turns a person can stop: one event per turn queued or running, by thread.

`Conversation.start` registers each turn's event (`Stops.add`); a platform's stop button
sets every event of its thread (`Stops.stop`), and the turn, seeing it, ends without an
answer and saves nothing (`bot.agent.tools.ToolContext.check_stop`); a turn that ended
takes its event away (`Stops.done`). Thread-safe.

Across processes (Redis given): a stop is also written down for a while
(`{prefix}bot:stop:{thread}`, the time it was pressed, `TTL_SECONDS`), and while turns
run here a poller reads their threads' keys every `poll_seconds` (one MGET), so a stop
that reached another process stops the turn running here too. A stop pressed before a
turn began never stops it. Redis trouble only costs the other processes' stops.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

TTL_SECONDS = 600  # how long a stop is kept for the other processes
POLL_SECONDS = 0.5


@dataclass(eq=False)
class _Turn:
    event: threading.Event = field(default_factory=threading.Event)
    since: float = field(default_factory=time.time)  # when it was queued (wall clock)


class Stops:
    """The stop events of the turns queued or running here, by thread key."""

    def __init__(
        self, *, client: Any | None = None, key_prefix: str = "", poll_seconds: float = POLL_SECONDS
    ) -> None:
        self._client = client
        self._prefix = key_prefix
        self.poll_seconds = poll_seconds
        self._turns: dict[str, list[_Turn]] = {}
        self._lock = threading.Lock()
        self._poller: threading.Thread | None = None

    def add(self, thread_key: str) -> threading.Event:
        turn = _Turn()
        with self._lock:
            self._turns.setdefault(thread_key, []).append(turn)
            if self._client is not None and self._poller is None:
                self._poller = threading.Thread(target=self._poll, name="stops", daemon=True)
                self._poller.start()
        return turn.event

    def stop(self, thread_key: str) -> int:
        """Stop every turn of the thread, here and (with Redis) in the other processes;
        how many were stopped here."""
        with self._lock:
            turns = list(self._turns.get(thread_key, ()))
        for turn in turns:
            turn.event.set()
        if self._client is not None:
            try:
                self._client.set(self._key(thread_key), repr(time.time()), ex=TTL_SECONDS)
            except Exception as exc:
                log.warning("could not tell the other processes of a stop (%s)", type(exc).__name__)
        return len(turns)

    def done(self, thread_key: str, event: threading.Event | None) -> None:
        if event is None:
            return
        with self._lock:
            turns = self._turns.get(thread_key)
            if turns is not None:
                turns[:] = [turn for turn in turns if turn.event is not event]
                if not turns:
                    del self._turns[thread_key]

    def _key(self, thread_key: str) -> str:
        return f"{self._prefix}bot:stop:{thread_key}"

    def _poll(self) -> None:
        """Read the running threads' stop keys until no turn runs here."""
        client: Any = self._client
        # a Redis Cluster reads keys of several slots with `mget_nonatomic`
        read = getattr(client, "mget_nonatomic", None) or client.mget
        while True:
            time.sleep(self.poll_seconds)
            with self._lock:
                running = {key: list(turns) for key, turns in self._turns.items() if turns}
                if not running:
                    self._poller = None
                    return
            keys = list(running)
            try:
                pressed = read([self._key(key) for key in keys])
            except Exception as exc:
                log.info("could not read the other processes' stops (%s)", type(exc).__name__)
                continue
            for key, value in zip(keys, pressed, strict=False):
                at = _float(value)
                if at is None:
                    continue
                for turn in running[key]:
                    if at >= turn.since:
                        turn.event.set()


def _float(value: Any) -> float | None:
    if value is None:
        return None
    try:
        return float(value.decode() if isinstance(value, bytes) else value)
    except (TypeError, ValueError):
        return None


__all__ = ["POLL_SECONDS", "TTL_SECONDS", "Stops"]
