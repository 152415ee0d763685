"""One turn at a time per thread: jobs with the same key run in order, one after another.

A follow-up written in a thread while the bot is still answering the mention there is
answered after that answer, and sees it in the thread's history, instead of racing it
(two answers written at once, the second blind to the first). Different threads run in
parallel on the pool as before. A lane holds one worker while it has jobs queued and
lets it go when it is empty; the lane then disappears.

This orders the turns of one process. Another process (events go to any of them) may
run a follow-up of the same thread in parallel with the turn here: it is answered all
the same, without the answer still being written here in its history.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor

log = logging.getLogger(__name__)

Job = Callable[[], None]


class Lanes:
    """Per-key queues of jobs drained on a pool; thread-safe."""

    def __init__(self) -> None:
        self._lanes: dict[str, deque[Job]] = {}
        self._lock = threading.Lock()

    def submit(self, pool: Executor, key: str, job: Job) -> None:
        """Run `job` on `pool` after the jobs already queued under `key`.

        Raises RuntimeError, with nothing queued, when the pool is shutting down.
        """
        with self._lock:
            queue = self._lanes.get(key)
            if queue is not None:
                queue.append(job)
                return
            pool.submit(self._drain, key, job)
            self._lanes[key] = deque()

    def queued(self, key: str) -> int:
        """Jobs waiting under `key` (not counting the one running)."""
        with self._lock:
            queue = self._lanes.get(key)
            return len(queue) if queue is not None else 0

    def _drain(self, key: str, job: Job) -> None:
        running: Job | None = job
        while running is not None:
            try:
                running()
            except Exception:
                log.exception("a job in a lane failed")
            with self._lock:
                queue = self._lanes[key]
                running = queue.popleft() if queue else None
                if running is None:
                    del self._lanes[key]


__all__ = ["Lanes"]
