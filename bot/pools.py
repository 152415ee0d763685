"""The process's worker pools, one per kind of work: created, owned and closed in one
place (`Pools`), so shutdown happens in one order."""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

NOTICE_WORKERS = 8  # progress markers and "busy" replies
TASK_WORKERS = 8  # form prefills (at most one fast-model call each), saves, Home publishes
PROBE_WORKERS = 2  # health checks


@dataclass
class Pools:
    """The process's worker pools, one per kind of work, so no kind can starve another.

    - `turns`: agent turns (`AGENT_WORKERS`), slow: they wait on the model;
    - `listeners`: a chat SDK's listener threads (Bolt's); quick work only;
    - `notices`: progress markers and "busy" replies, a few quick platform calls;
    - `tasks`: preferences work (memory reads and writes, the fast model, the Home tab);
    - `dispatch`: HTTP requests handed from the event loop to a channel's SDK;
    - `probe`: health checks, so `/readyz` answers even when every other pool is busy.
    """

    turns: ThreadPoolExecutor = field(default_factory=lambda: _pool(16, "agent"))
    listeners: ThreadPoolExecutor = field(default_factory=lambda: _pool(16, "bolt"))
    notices: ThreadPoolExecutor = field(default_factory=lambda: _pool(NOTICE_WORKERS, "notice"))
    tasks: ThreadPoolExecutor = field(default_factory=lambda: _pool(TASK_WORKERS, "tasks"))
    dispatch: ThreadPoolExecutor = field(default_factory=lambda: _pool(32, "dispatch"))
    probe: ThreadPoolExecutor = field(default_factory=lambda: _pool(PROBE_WORKERS, "health"))

    @classmethod
    def open(cls, *, agent_workers: int = 16, dispatch_workers: int = 32) -> Pools:
        return cls(
            turns=_pool(agent_workers, "agent"), dispatch=_pool(dispatch_workers, "dispatch")
        )

    def run_task(self, fn: Callable[..., None], *args: Any) -> None:
        """Run `fn(*args)` on the task pool; its failures are logged, never raised."""

        def run() -> None:
            try:
                fn(*args)
            except Exception:
                log.exception("background task failed (%s)", getattr(fn, "__name__", "?"))

        try:
            self.tasks.submit(run)
        except RuntimeError:  # shutting down
            log.warning("background task dropped: the pool is shutting down")

    def close(self, *, drain: bool = True) -> None:
        """Stop every pool, in the order work flows through them.

        Requests being dispatched finish; then the listeners and the agent turns stop:
        with `drain` queued turns are still answered, without they are dropped (turns
        already running always finish; the agent's own timeout bounds them). Queued
        progress markers are dropped; queued tasks still run.
        """
        self.dispatch.shutdown(wait=True)
        for pool in (self.listeners, self.turns):
            pool.shutdown(wait=False, cancel_futures=not drain)
        for pool in (self.listeners, self.turns):
            pool.shutdown(wait=True)
        self.notices.shutdown(wait=True, cancel_futures=True)
        self.tasks.shutdown(wait=True)
        self.probe.shutdown(wait=False, cancel_futures=True)


def _pool(workers: int, name: str) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)


__all__ = ["NOTICE_WORKERS", "PROBE_WORKERS", "TASK_WORKERS", "Pools"]
