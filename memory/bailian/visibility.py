"""Following an accepted write until Bailian shows it, then invalidating the cache again.

Bailian extracts memories in the background. The cache is invalidated when a write is
accepted (so nothing cached before the write survives it), but a recall in the next
seconds may still read the service before the extraction shows and cache that. So each
accepted write is followed, on one background thread per process, until it is visible,
and the namespace's cache is invalidated a second time then:

- `add-async`: its event is polled (`GET events/{id}`) every `poll_seconds` until every
  task of it is finished (SUCCEEDED, FAILED or UNRECORDED, https://help.aliyun.com/zh/
  model-studio/memory/get-event), at most `timeout_seconds` (the bailian CLI waits 120 s
  by default); then, finished or not, the cache is invalidated;
- sync `add`: the memory nodes are in its answer, but the profile is extracted after it
  ("画像提取是异步过程", GetUserProfile), so the cache is invalidated again after a delay.

So a recall right after a write serves a summary older than the write for at most the
extraction's time plus one poll (capped by `timeout_seconds`), or the delay. What is
still pending when the process closes is invalidated at close; a process that dies
first leaves at most one cache TTL of staleness (the first invalidation still happened).
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from memory.errors import MemoryEngineError

log = logging.getLogger(__name__)

EventState = Literal["pending", "succeeded", "failed"]


@dataclass(order=True)
class _Job:
    due: float
    seq: int
    namespace: str = field(compare=False)
    event_id: str | None = field(compare=False)
    deadline: float = field(compare=False)


class WriteFollower:
    """See the module docstring; `poll(event_id)` reads an event's state."""

    def __init__(
        self,
        *,
        poll: Callable[[str], EventState],
        invalidate: Callable[[str], None],
        poll_seconds: float = 1.0,
        timeout_seconds: float = 120.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._poll = poll
        self._invalidate = invalidate
        self.poll_seconds = poll_seconds
        self.timeout_seconds = timeout_seconds
        self._clock = clock
        self._jobs: list[_Job] = []
        self._seq = itertools.count()
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._busy = 0
        self.counts: Counter[str] = Counter()  # visible, failed, timed_out

    def follow_event(self, namespace: str, event_id: str) -> None:
        now = self._clock()
        self._add(_Job(now + self.poll_seconds, 0, namespace, event_id, now + self.timeout_seconds))

    def follow_delay(self, namespace: str, delay: float) -> None:
        now = self._clock()
        self._add(_Job(now + delay, 0, namespace, None, now + delay))

    def pending(self, namespace: str | None = None) -> int:
        with self._wake:
            jobs = [j for j in self._jobs if namespace is None or j.namespace == namespace]
            return len(jobs) + (self._busy if namespace is None else 0)

    def settle(self, timeout: float = 30.0) -> bool:
        """Wait until every followed write has been invalidated (for tests and benches)."""
        end = time.monotonic() + timeout
        with self._wake:
            while self._jobs or self._busy:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._wake.wait(min(left, 0.05))
        return True

    def close(self) -> None:
        """Stop following: what is still pending is invalidated now."""
        with self._wake:
            self._closed = True
            left, self._jobs = self._jobs, []
            self._wake.notify_all()
        thread = self._thread
        if thread is not None:
            thread.join(5)
        for namespace in {job.namespace for job in left}:
            self._invalidate(namespace)
        if left:
            log.info("closing: %d write(s) not yet visible in Bailian; invalidated", len(left))

    # -- the thread ---------------------------------------------------------------------

    def _add(self, job: _Job) -> None:
        with self._wake:
            if self._closed:
                self._invalidate(job.namespace)
                return
            job.seq = next(self._seq)
            heapq.heappush(self._jobs, job)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="bailian-follow", daemon=True
                )
                self._thread.start()
            self._wake.notify_all()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._closed and (not self._jobs or self._jobs[0].due > self._clock()):
                    wait = self._jobs[0].due - self._clock() if self._jobs else 1.0
                    self._wake.wait(max(0.001, min(wait, 1.0)))
                if self._closed:
                    return
                job = heapq.heappop(self._jobs)
                self._busy += 1
            try:
                again = self._step(job)
            finally:
                with self._wake:
                    self._busy -= 1
                    if again is not None:
                        heapq.heappush(self._jobs, again)
                    self._wake.notify_all()

    def _step(self, job: _Job) -> _Job | None:
        """Poll or invalidate one job; the job again when it must be polled later."""
        state: EventState = "succeeded"
        if job.event_id is not None:
            try:
                state = self._poll(job.event_id)
            except MemoryEngineError as exc:
                log.info("bailian event poll failed (%s); trying again", type(exc).__name__)
                state = "pending"
            now = self._clock()
            if state == "pending" and now < job.deadline:
                job.due = now + self.poll_seconds
                return job
            if state == "pending":
                self.counts["timed_out"] += 1
                log.warning(
                    "bailian extraction not finished after %.0f s; cache invalidated anyway",
                    self.timeout_seconds,
                )
        if state != "pending":
            self.counts["failed" if state == "failed" else "visible"] += 1
        self._invalidate(job.namespace)
        return None


__all__ = ["EventState", "WriteFollower"]
