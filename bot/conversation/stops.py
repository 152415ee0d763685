"""Turns a person can stop: one event per turn queued or running, by thread.

`Conversation.start` registers each turn's event (`Stops.add`); a platform's stop button
sets every event of its thread (`Stops.stop`), and the turn, seeing it, ends without an
answer and saves nothing (`bot.agent.tools.ToolContext.check_stop`); a turn that ended
takes its event away (`Stops.done`). Thread-safe; in this process only.
"""

from __future__ import annotations

import threading


class Stops:
    """The stop events of the turns queued or running here, by thread key."""

    def __init__(self) -> None:
        self._events: dict[str, set[threading.Event]] = {}
        self._lock = threading.Lock()

    def add(self, thread_key: str) -> threading.Event:
        event = threading.Event()
        with self._lock:
            self._events.setdefault(thread_key, set()).add(event)
        return event

    def stop(self, thread_key: str) -> int:
        """Stop every turn of the thread; how many there were."""
        with self._lock:
            events = list(self._events.get(thread_key, ()))
        for event in events:
            event.set()
        return len(events)

    def done(self, thread_key: str, event: threading.Event | None) -> None:
        if event is None:
            return
        with self._lock:
            events = self._events.get(thread_key)
            if events is not None:
                events.discard(event)
                if not events:
                    del self._events[thread_key]


__all__ = ["Stops"]
