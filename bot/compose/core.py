"""What every process shares, built once from settings: the core (`Core`: memory, the
agent, Redis, trips and policies, admins, thread history, claims, the pools and the
conversation), the pipeline every channel's events go through, the one HTTP application
and the preferences site on it. Part of the composition root (`bot.compose`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.compose.links import page_links
from bot.conversation.claims import CLAIM_TIMEOUT, Claims
from bot.conversation.languages import Languages
from bot.conversation.stops import Stops
from bot.conversation.threads import ThreadHistory
from bot.conversation.turn import AgentLike, Conversation
from bot.flows.approvals import ApprovalFlows, Messengers
from bot.flows.expiry import ExpiryTeller
from bot.flows.pipeline import Flows, Pipeline
from bot.flows.preferences import PreferenceFlows
from bot.flows.trips import TripFlows
from bot.metrics import Metrics
from bot.pools import Pools
from bot.prefs.links import LinkProvider
from bot.prefs.revocations import Revocations

if TYPE_CHECKING:
    from bot.http.app import WebApp
    from bot.http.server import Server
    from bot.planning.admins import AdminResolver
    from bot.planning.trips import TripStore
    from bot.platform import Platform
    from bot.policy.approvals import Approvals
    from bot.policy.store import PolicyBook
    from bot.settings import Settings
    from memory.protocol import LongTermMemory


@dataclass
class Core:
    """What every process shares, built once by `open_core` and closed once."""

    memory: LongTermMemory
    agent: AgentLike | None
    redis: Any | None
    metrics: Metrics
    trips: TripStore | None
    policy: PolicyBook | None  # on the trips' database; closed with it
    approvals: Approvals | None
    admins: AdminResolver | None
    pools: Pools
    threads: ThreadHistory
    claims: Claims
    revocations: Revocations  # of preference links and page sessions (the claims' client)
    conversation: Conversation
    # The channels this process serves, for approvals sent to a person or a thread.
    messengers: Messengers

    def close(self, *, drain: bool = True) -> None:
        """Stop the pools (see `Pools.close`), then release connections."""
        self.pools.close(drain=drain)
        self.claims.close()
        if self.redis is not None:
            self.redis.close()
        if self.trips is not None:
            self.trips.close()
        self.memory.close()


def open_core(
    settings: Settings,
    *,
    memory: LongTermMemory | None = None,
    agent: AgentLike | None = None,
    metrics: Metrics | None = None,
) -> Core:
    """The real parts: memory, agent (None without an LLM), Redis, trips, policies."""
    from bot.compose.parts import (
        build_agent,
        open_approvals,
        open_policy_book,
        open_trip_store,
        travel_tools,
    )
    from bot.planning.admins import AdminResolver
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
    prefix = settings.redis_key_prefix
    pools = Pools.open(
        agent_workers=settings.agent_workers, dispatch_workers=settings.http_dispatch_workers
    )
    admins = AdminResolver(
        redis=client, key_prefix=prefix, cache_seconds=settings.travel_admin_cache_seconds
    )
    threads = ThreadHistory(
        client=client,
        key_prefix=prefix,
        max_turns=settings.thread_history_turns,
        ttl_seconds=settings.thread_history_ttl_seconds,
        max_chars_per_turn=settings.max_message_chars,
    )
    # Claims have a client of their own, with a shorter timeout: a frozen Redis is given
    # up on quickly, and a pile-up on the shared one never holds a claim. The revocations
    # of preference links share it.
    quick = open_redis(settings.redis_url, timeout=CLAIM_TIMEOUT)
    claims = Claims(
        client=quick, owns_client=True, key_prefix=prefix, ttl_seconds=settings.dedupe_ttl_seconds
    )
    conversation = Conversation(
        agent=agent,
        threads=threads,
        claims=claims,
        admins=admins,
        trips=trips,
        audit=policy.audit if policy is not None else None,
        metrics=metrics,
        pool=pools.turns,
        max_pending=settings.agent_max_pending,
        max_chars=settings.max_message_chars,
        stops=Stops(client=quick, key_prefix=prefix),  # a stop button, in every process
    )
    return Core(
        memory=memory,
        agent=agent,
        redis=client,
        metrics=metrics,
        trips=trips,
        policy=policy,
        approvals=open_approvals(settings, trips, trips.backend),
        admins=admins,
        pools=pools,
        threads=threads,
        claims=claims,
        revocations=Revocations(client=quick, key_prefix=prefix),
        conversation=conversation,
        messengers=Messengers(prefixes=_platform_prefixes(), served=served_platforms(settings)),
    )


def _platform_prefixes() -> tuple[str, ...]:
    """Every platform's namespace prefix, served or not (`Messengers.owned`)."""
    from bot.channels import PLATFORMS

    return tuple(platform.prefix for platform in PLATFORMS)


def served_platforms(settings: Settings) -> tuple[Platform, ...]:
    """The chat platforms some serving process of this deployment serves: those whose
    credentials are set (every process reads the same settings), as `new_link_lines`."""
    from bot.channels import DINGTALK, FEISHU, SLACK

    on = (bool(settings.slack_bot_token), settings.feishu_configured, settings.dingtalk_configured)
    return tuple(
        platform for platform, yes in zip((SLACK, FEISHU, DINGTALK), on, strict=True) if yes
    )


def warm_privacy() -> threading.Thread:
    """Warm the privacy guard's learned layers (`memory.privacy.verdict.warm`) on a daemon
    thread: the first preferences form a process checks then finds them loaded, and nothing
    waits for it (a platform's acknowledgement, readiness and every request go on at once;
    a check that comes first loads them itself, as before)."""

    def run() -> None:
        from memory.privacy.verdict import warm

        try:
            warm()
        except Exception:  # the first check loads them, as it did before
            logging.getLogger(__name__).warning("could not warm the privacy guard", exc_info=True)

    thread = threading.Thread(target=run, name="privacy-warm", daemon=True)
    thread.start()
    return thread


def approval_flows(core: Core) -> ApprovalFlows:
    """The approval flows on the core's trips, policies and approvals, telling people
    through the channels registered in `core.messengers`."""
    return ApprovalFlows(
        approvals=core.approvals,
        policy=core.policy,
        trips=core.trips,
        admins=core.admins,
        metrics=core.metrics,
        messengers=core.messengers,
    )


def start_expiry_teller(settings: Settings, core: Core) -> ExpiryTeller | None:
    """The loop telling travellers that their approval request expired, through the
    channels this process serves (`bot.flows.expiry`), started; None in a process that
    serves no platform or keeps no approvals. The caller stops it before closing `core`."""
    if core.approvals is None or not len(core.messengers):
        return None
    tell = approval_flows(core).tell_expired
    interval = settings.approval_tell_interval_seconds
    return ExpiryTeller(tell=tell, interval_seconds=interval).start()


def pipeline(settings: Settings, core: Core, *, link: LinkProvider | None = None) -> Pipeline:
    """The one path of every channel's events, with the flows it routes commands to; a
    preferences view links to the web page unless another `link` provider is given."""
    preferences = PreferenceFlows(
        memory=core.memory,
        metrics=core.metrics,
        claims=core.claims,
        revocations=core.revocations,
        link=link or page_links(settings),
    )
    approvals = approval_flows(core)
    trips = TripFlows(
        trips=core.trips, admins=core.admins, metrics=core.metrics, approvals=approvals
    )
    return Pipeline(
        conversation=core.conversation,
        flows=Flows(preferences=preferences, trips=trips, approvals=approvals),
        claims=core.claims,
        metrics=core.metrics,
        run_task=core.pools.run_task,
        default_lang=settings.default_language,
        languages=Languages(
            client=core.redis, memory=core.memory, key_prefix=settings.redis_key_prefix
        ),
    )


def web_app(settings: Settings, core: Core) -> WebApp:
    """The one HTTP application: health, readiness and metrics; channels mount on it."""
    from bot.http.app import WebApp

    token = settings.metrics_token
    return WebApp(
        memory=core.memory,
        redis=core.redis,
        metrics=core.metrics,
        claims=core.claims,
        conversation=core.conversation,
        probe=core.pools.probe,
        llm_configured=core.agent is not None,
        metrics_token=token.get_secret_value() if token is not None else "",
    )


def server(
    web: WebApp, settings: Settings, *, host: str = "127.0.0.1", port: int = 0, keep_alive: int = 75
) -> Server:
    """The server of `web` on `host:port` (port 0: a free one), with the slow-client limits
    (`HTTP_*`), the metrics listener (`METRICS_PORT`) and the proxies it believes."""
    from bot.http.connections import Limits
    from bot.http.server import Server

    limits = Limits(
        header_timeout=settings.http_header_timeout_seconds,
        body_timeout=settings.http_body_timeout_seconds,
        max_connections=settings.http_max_connections,
        reserved_files=settings.http_reserved_files,
        max_bodies=settings.http_max_bodies,
    )
    return Server(
        web,
        host=host,
        port=port,
        limits=limits,
        metrics_host=settings.metrics_host,
        metrics_port=settings.metrics_port,
        forwarded_allow_ips=settings.forwarded_allow_ips,
        keep_alive=keep_alive,
    )


def mount_prefs_site(web: WebApp, settings: Settings, core: Core) -> bool:
    """The preferences page and its API, when `PREFS_LINK_SECRET` is set (`bot.web`);
    False, and one line saying why the page is off, when it is not."""
    from bot.compose.links import link_secret, page_problem
    from bot.compose.parts import slot_mapper
    from bot.web import mount

    problem, secret = page_problem(settings), link_secret(settings)
    if problem is not None or secret is None:
        logging.getLogger("bot.web").info("preferences page off: %s", problem)
        return False
    mount(
        web,
        secret=secret,
        public_url=settings.public_url,
        memory=core.memory,
        metrics=core.metrics,
        claims=core.claims,
        revocations=core.revocations,
        tasks=core.pools.tasks,
        new_link=new_link_lines(settings),
        mapper=slot_mapper(settings),
        session_minutes=settings.prefs_session_minutes,
        free_text_limit=settings.memory_max_fact_chars,
        default_lang=settings.default_language,
        max_body_bytes=settings.http_max_body_bytes,
        trips=core.trips,
    )
    return True


def new_link_lines(settings: Settings) -> Callable[[str | None], tuple[str, ...]]:
    """Where a person gets a new link to the page (message keys), given the namespace a
    refused link names: its own platform's way when this deployment serves that platform
    (the command line for the console's people), else every served platform's, or the
    command line when it serves none. Whether the link was forged, expired or spent never
    changes the words, so the page never tells which way a link was wrong."""
    from bot.channels import CONSOLE, DINGTALK, FEISHU, SLACK

    ways = (
        (SLACK, "page_denied_new", bool(settings.slack_bot_token)),
        (FEISHU, "page_denied_new_feishu", settings.feishu_configured),
        (DINGTALK, "page_denied_new_dingtalk", settings.dingtalk_configured),
        (CONSOLE, "page_denied_new_local", True),
    )
    served = [(platform, key) for platform, key, on in ways if on]
    everyone = tuple(key for platform, key in served if platform is not CONSOLE)

    def lines(namespace: str | None) -> tuple[str, ...]:
        for platform, key in served:
            if namespace is not None and platform.owns(namespace):
                return (key,)
        return everyone or ("page_denied_new_local",)

    return lines


__all__ = [
    "Core",
    "approval_flows",
    "mount_prefs_site",
    "new_link_lines",
    "open_core",
    "pipeline",
    "server",
    "warm_privacy",
    "web_app",
]
