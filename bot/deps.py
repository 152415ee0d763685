"""Everything the processes share, built once and passed down: `Deps` and its `Pools`.

`Deps.open(settings)` builds the real parts: memory, the agent (None without an LLM),
one Redis client (`memory.redis_client`; the claims get one of their own, with a
shorter timeout, which the revocations of preference links share), the trip store and,
on its database, the travel policies and approvals, the travel-admin resolver, thread
history, claims, revocations, the worker pools, and the
platform-neutral `Conversation` that every chat channel feeds.
Tests build their own. Channels (`bot.slack`, later `bot.feishu` and `bot.dingtalk`) and
the HTTP application take a `Deps`; nothing here knows a chat platform, and nothing
imports the modules that wire the channels.

Every worker pool of the process is created, owned and closed here (`Pools`), so
shutdown happens in one place and in one order.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.conversation.claims import CLAIM_TIMEOUT, Claims
from bot.conversation.threads import ThreadHistory
from bot.conversation.turn import AgentLike, Conversation
from bot.metrics import Metrics
from bot.prefs.revocations import Revocations

if TYPE_CHECKING:
    from bot.planning.admins import AdminResolver
    from bot.planning.trips import TripStore
    from bot.policy.approvals import Approvals
    from bot.policy.store import PolicyBook
    from bot.settings import Settings
    from memory.protocol import LongTermMemory

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
    def open(cls, settings: Settings) -> Pools:
        return cls(
            turns=_pool(settings.agent_workers, "agent"),
            dispatch=_pool(settings.http_dispatch_workers, "dispatch"),
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


@dataclass
class Deps:
    """Everything the channels and the HTTP application use; see the module docstring."""

    settings: Settings
    memory: LongTermMemory
    agent: AgentLike | None = None
    redis: Any | None = None
    metrics: Metrics = field(default_factory=Metrics)
    trips: TripStore | None = None
    policy: PolicyBook | None = None  # on the trips' database; closed with it
    approvals: Approvals | None = None
    admins: AdminResolver | None = None
    pools: Pools = field(default_factory=Pools)
    threads: ThreadHistory = field(default_factory=lambda: ThreadHistory(client=None))
    claims: Claims = field(default_factory=lambda: Claims(client=None))
    revocations: Revocations = field(default_factory=lambda: Revocations(client=None))
    conversation: Conversation = field(init=False)

    def __post_init__(self) -> None:
        self.conversation = Conversation(
            agent=self.agent,
            threads=self.threads,
            claims=self.claims,
            admins=self.admins,
            trips=self.trips,
            audit=self.policy.audit if self.policy is not None else None,
            metrics=self.metrics,
            pool=self.pools.turns,
            max_pending=self.settings.agent_max_pending,
            max_chars=self.settings.slack_max_message_chars,
        )

    @classmethod
    def open(
        cls,
        settings: Settings,
        *,
        memory: LongTermMemory | None = None,
        agent: AgentLike | None = None,
        metrics: Metrics | None = None,
    ) -> Deps:
        """The real dependencies: memory, agent (None without an LLM), Redis, trips."""
        from bot.agent.loop import build_agent
        from bot.planning.admins import AdminResolver
        from bot.planning.tools import travel_tools
        from bot.planning.trips import open_trip_store
        from bot.policy.approvals import open_approvals
        from bot.policy.store import open_policy_book
        from memory import open_memory
        from memory.redis_client import open_redis

        metrics = metrics or Metrics()
        memory = memory if memory is not None else open_memory(settings)
        trips = open_trip_store(settings)
        policy = open_policy_book(settings, trips.backend)
        if agent is None:
            tools = travel_tools(settings, memory, policy=policy)
            agent = build_agent(settings, memory, metrics=metrics, extra_tools=tools)
        client = open_redis(settings.redis_url)
        quick = open_redis(settings.redis_url, timeout=CLAIM_TIMEOUT)
        prefix = settings.redis_key_prefix
        return cls(
            settings=settings,
            memory=memory,
            agent=agent,
            redis=client,
            metrics=metrics,
            trips=trips,
            policy=policy,
            approvals=open_approvals(settings, trips, trips.backend),
            admins=AdminResolver(settings, client),
            pools=Pools.open(settings),
            threads=ThreadHistory(
                client=client,
                key_prefix=prefix,
                max_turns=settings.thread_history_turns,
                ttl_seconds=settings.thread_history_ttl_seconds,
                max_chars_per_turn=settings.slack_max_message_chars,
            ),
            # Claims have a client of their own, with a shorter timeout: a frozen Redis
            # is given up on quickly, and a pile-up on the shared one never holds a claim.
            claims=Claims(
                client=quick,
                owns_client=True,
                key_prefix=prefix,
                ttl_seconds=settings.slack_dedupe_ttl_seconds,
            ),
            revocations=Revocations(client=quick, key_prefix=prefix),
        )

    def close(self, *, drain: bool = True) -> None:
        """Stop the pools (see `Pools.close`), then release connections."""
        self.pools.close(drain=drain)
        self.claims.close()
        if self.redis is not None:
            self.redis.close()
        if self.trips is not None:
            self.trips.close()
        self.memory.close()


__all__ = ["Deps", "Pools"]
