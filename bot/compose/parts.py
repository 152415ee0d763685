"""The core's services built from the settings: the inventory, trips, travel policies and
approvals, the planner and the travel tools, the agent, the form's slot mapper, link
revocations and the cache warmer. Part of the composition root (`bot.compose`), used by
`open_core` and by the command line's one-shot verbs.

This is where `Settings` is read for them: each core class or function takes only the
values it uses, as constructor arguments, so a reader (or a test) sees what a part
depends on without a 95-field object (issue 23).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.agent.loop import Agent
    from bot.agent.tools import Tool
    from bot.metrics import Metrics
    from bot.planning.inventory import InventoryProvider
    from bot.planning.planner import AllowanceSource, Planner, ProfileSource
    from bot.planning.trips import TripStore
    from bot.policy.approvals import Approvals, TripStates
    from bot.policy.store import PolicyBook
    from bot.prefs.prefill import LLMSlotMapper
    from bot.prefs.revocations import Revocations
    from bot.settings import Settings
    from bot.warming.scheduler import WarmClock
    from bot.warming.warmer import Warmer
    from memory.protocol import LongTermMemory
    from memory.store import Backend


def open_inventory(settings: Settings) -> InventoryProvider:
    """The provider `INVENTORY_PROVIDER` names: `demo` (bundled) or `http`."""
    if settings.inventory_provider == "http":
        from bot.planning.inventory.http import HttpInventory

        key = settings.inventory_http_key
        return HttpInventory(
            base_url=settings.inventory_http_url,
            api_key=key.get_secret_value() if key else None,
            timeout=settings.inventory_http_timeout_seconds,
        )
    from bot.planning.inventory.demo import DemoInventory

    return DemoInventory()


def open_trip_store(settings: Settings) -> TripStore:
    """A trip store on the memory database (`MEMORY_DSN`; `TRIPS_DSN` when memory is in
    Bailian), dates local to `TRAVEL_TIMEZONE`."""
    from zoneinfo import ZoneInfo

    from bot.planning.trips import TripStore
    from memory.backends import backend_from_dsn

    backend = backend_from_dsn(
        settings.trips_database, busy_timeout=settings.sqlite_busy_timeout_seconds
    )
    return TripStore(backend, timezone=ZoneInfo(settings.travel_timezone))


def open_policy_book(settings: Settings, backend: Backend | None = None) -> PolicyBook:
    """The travel policies on the trips' database (`backend`, shared with the trip store
    when given: it then closes it; else a connection of its own)."""
    from bot.policy.store import PolicyBook
    from memory.backends import backend_from_dsn

    if backend is None:
        backend = backend_from_dsn(
            settings.trips_database, busy_timeout=settings.sqlite_busy_timeout_seconds
        )
    return PolicyBook(backend, cache_seconds=settings.policy_cache_seconds)


def open_approvals(settings: Settings, trips: TripStates, backend: Backend) -> Approvals:
    """Approvals of out-of-policy trips on the trips' database, expiring after
    `APPROVAL_TTL_DAYS`; an expiry's telling tried `APPROVAL_TELL_ATTEMPTS` times."""
    from bot.policy.approvals import Approvals

    return Approvals(
        backend,
        trips=trips,
        ttl_days=settings.approval_ttl_days,
        tell_tries=settings.approval_tell_attempts,
        tell_retry_seconds=settings.approval_tell_retry_seconds,
    )


def open_planner(
    settings: Settings,
    memory: ProfileSource | None,
    *,
    inventory: InventoryProvider | None = None,
    clock: Callable[[], datetime] | None = None,
    policy: AllowanceSource | None = None,
) -> Planner:
    """A planner with the configured inventory and, when configured, the fast model;
    with `policy`, plans are checked against each traveller's travel policy."""
    from bot.planning.planner import build_planner
    from memory.llm import openai_client

    return build_planner(
        memory,
        inventory=inventory or open_inventory(settings),
        client=openai_client(settings) if settings.fast_llm_configured else None,
        fast_model=settings.llm_fast_model,
        timezone=settings.travel_timezone,
        clock=clock,
        policy=policy,
    )


def travel_tools(
    settings: Settings, memory: ProfileSource | None, *, policy: PolicyBook | None = None
) -> list[Tool]:
    """`plan_itinerary` (checking plans against `policy` when given) and `travel_policy`."""
    from bot.planning import tools

    return tools.travel_tools(open_planner(settings, memory, policy=policy), policy=policy)


def build_agent(
    settings: Settings,
    memory: LongTermMemory | None,
    metrics: Metrics | None = None,
    extra_tools: Iterable[Tool | Callable[..., Any]] = (),
) -> Agent | None:
    """The agent the console and the chat channels run; None when no LLM is configured."""
    if not settings.llm_configured:
        return None
    from bot.agent.loop import Agent
    from memory.llm import openai_client

    request_timeout = settings.llm_timeout_seconds
    return Agent(
        llm=openai_client(settings, max_retries=0),
        model=settings.llm_model,
        memory=memory,
        tools=extra_tools,
        request_timeout_seconds=request_timeout,
        timeout_seconds=max(request_timeout * 3, 60.0),
        metrics=metrics,
        stream=settings.llm_stream,
    )


def slot_mapper(settings: Settings) -> LLMSlotMapper | None:
    """The fast model that maps chat facts onto the preferences form's slots (the Slack
    form, the web page); None when no fast model is configured."""
    if not settings.fast_llm_configured:
        return None
    from bot.prefs.prefill import TIMEOUT_SECONDS, LLMSlotMapper
    from memory.llm import openai_client

    return LLMSlotMapper(
        client=openai_client(settings, max_retries=0),
        model=settings.llm_fast_model,
        timeout_seconds=min(settings.llm_timeout_seconds, TIMEOUT_SECONDS),
    )


def open_revocations(settings: Settings) -> Revocations:
    """Revocations of preference links and page sessions for a process that has no core
    (the command line, the console): a Redis client of its own, closed with it."""
    from bot.prefs.revocations import Revocations
    from memory.redis_client import open_redis

    client = open_redis(settings.redis_url, timeout=1.0)
    return Revocations(client=client, key_prefix=settings.redis_key_prefix, owns_client=True)


def open_warm_redis(settings: Settings) -> Any | None:
    """The warmer's Redis client (`REDIS_URL`; None when it is empty): its pipelines carry a
    batch of travellers, so it waits longer than the bot's own client."""
    from memory.redis_client import BATCH_TIMEOUT, open_redis

    return open_redis(settings.redis_url, timeout=BATCH_TIMEOUT)


def warmer(
    settings: Settings, *, memory: LongTermMemory, trips: TripStore, redis: Any | None
) -> Warmer:
    """A warmer for trips within `WARM_HORIZON_HOURS`, every `WARM_INTERVAL_MINUTES`."""
    from bot.warming.warmer import Warmer

    return Warmer(
        memory=memory,
        trips=trips,
        redis=redis,
        key_prefix=settings.redis_key_prefix,
        horizon_hours=settings.warm_horizon_hours,
        interval_seconds=settings.warm_interval_minutes * 60,
        concurrency=settings.warm_concurrency,
    )


def start_warm_clock(
    settings: Settings,
    memory: LongTermMemory,
    *,
    first_run: datetime | None = None,
    sweep: Callable[[], int] | None = None,
) -> WarmClock:
    """Run the warming clock on a background thread of this process (the `clock` process,
    or the web one with `SCHEDULER_IN_WEB`). Uses the caller's `memory`; opens (and on
    `stop()` closes) its own trip store and Redis client; it does not close `memory`.
    `sweep`: the approval sweep (default: one that expires due requests on this trip
    store and tells nobody, for a process without channels)."""
    from bot.warming.scheduler import start_in_process

    trips = open_trip_store(settings)
    client = open_warm_redis(settings)
    if sweep is None:
        approvals = open_approvals(settings, trips, trips.backend)

        def sweep() -> int:
            return len(approvals.expire_due())

    return start_in_process(
        warmer(settings, memory=memory, trips=trips, redis=client),
        first_run=first_run,
        on_stop=lambda: _close(trips, client),
        sweep=sweep,
    )


def _close(trips: TripStore, client: Any | None) -> None:
    trips.close()
    if client is not None:
        client.close()


__all__ = [
    "build_agent",
    "open_approvals",
    "open_inventory",
    "open_planner",
    "open_policy_book",
    "open_revocations",
    "open_trip_store",
    "open_warm_redis",
    "slot_mapper",
    "start_warm_clock",
    "travel_tools",
    "warmer",
]
