"""The Slack app factory: `build_app(settings, deps)` registers every listener here.

`Deps` carries what listeners need (memory, agent, Redis, metrics, the agent pool, the
Slack client); `Deps.open(settings)` builds the real ones and tests pass their own.
Listeners are registered by one `register(app, deps)` per feature module, in
`build_app`, so a feature is added by adding a line there.
"""

from __future__ import annotations

import json
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from slack_bolt import App
from slack_bolt.error import BoltUnhandledRequestError
from slack_bolt.response import BoltResponse
from slack_sdk.http_retry.builtin_handlers import ConnectionErrorRetryHandler
from slack_sdk.web import WebClient

from bot import conversation, plans, prefs
from bot.dedupe import EventDedupe
from bot.messages import lang_of, t
from bot.metrics import Metrics
from bot.threads import ThreadHistory

if TYPE_CHECKING:
    from bot.admins import AdminResolver
    from bot.conversation import AgentLike
    from bot.settings import Settings
    from bot.trips import TripStore
    from memory.engine import Memory

log = logging.getLogger(__name__)


@dataclass
class Deps:
    """Everything the listeners use, built once per process and passed in."""

    settings: Settings
    memory: Memory
    agent: AgentLike | None
    redis: Any | None
    client: WebClient
    metrics: Metrics = field(default_factory=Metrics)
    executor: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(max_workers=16, thread_name_prefix="agent")
    )
    threads: ThreadHistory = field(default_factory=lambda: ThreadHistory(client=None))
    dedupe: EventDedupe = field(default_factory=lambda: EventDedupe(client=None))
    listener_executor: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(max_workers=16, thread_name_prefix="bolt")
    )
    extras: dict[str, Any] = field(default_factory=dict)
    trips: TripStore | None = None
    admins: AdminResolver | None = None

    @classmethod
    def open(
        cls,
        settings: Settings,
        *,
        memory: Memory | None = None,
        agent: AgentLike | None = None,
        metrics: Metrics | None = None,
    ) -> Deps:
        """The real dependencies: memory, agent (None without an LLM), Redis, Slack client."""
        from bot.admins import AdminResolver
        from bot.agent import build_agent
        from bot.planning import open_planner, planning_tools
        from bot.trips import open_trip_store
        from memory import open_memory
        from memory.redis_client import open_redis

        metrics = metrics or Metrics()
        memory = memory if memory is not None else open_memory(settings)
        if agent is None:
            tools = planning_tools(open_planner(settings, memory))
            agent = build_agent(settings, memory, metrics=metrics, extra_tools=tools)
        client = open_redis(
            settings.redis_url, socket_timeout=1.0, connect_timeout=1.0, health_check_interval=30
        )
        prefix = settings.redis_key_prefix
        web = slack_client(settings)
        return cls(
            settings=settings,
            memory=memory,
            agent=agent,
            redis=client,
            client=web,
            metrics=metrics,
            executor=ThreadPoolExecutor(
                max_workers=settings.agent_workers, thread_name_prefix="agent"
            ),
            threads=ThreadHistory(
                client=client,
                key_prefix=prefix,
                max_turns=settings.thread_history_turns,
                ttl_seconds=settings.thread_history_ttl_seconds,
                max_chars_per_turn=settings.slack_max_message_chars,
            ),
            dedupe=EventDedupe(
                client=client, key_prefix=prefix, ttl_seconds=settings.slack_dedupe_ttl_seconds
            ),
            trips=open_trip_store(settings),
            admins=AdminResolver(settings, client, web),
        )

    def close(self, *, drain: bool = True) -> None:
        """Stop the pools, then release connections.

        With `drain`, queued turns are still answered; without, they are dropped. Turns
        already running always finish (the agent's own timeout bounds them).
        """
        for pool in (self.listener_executor, self.executor):
            pool.shutdown(wait=False, cancel_futures=not drain)
        for pool in (self.listener_executor, self.executor):
            pool.shutdown(wait=True)
        for extra in self.extras.values():  # e.g. the /travel-prefs worker pool
            stop = getattr(extra, "close", None)
            if callable(stop):
                stop()
        if self.redis is not None:
            self.redis.close()
        if self.trips is not None:
            self.trips.close()
        self.memory.close()


def slack_client(settings: Settings) -> WebClient:
    """The Web API client for `SLACK_API_URL`; rate limits are handled by the callers."""
    base_url = settings.slack_api_url
    if not base_url.endswith("/"):
        base_url += "/"
    token = settings.slack_bot_token.get_secret_value() if settings.slack_bot_token else None
    return WebClient(
        token=token,
        base_url=base_url,
        timeout=10,
        retry_handlers=[ConnectionErrorRetryHandler(max_retry_count=2)],
    )


def build_app(settings: Settings, deps: Deps, *, socket_mode: bool = False) -> App:
    """The Bolt app with every listener registered.

    HTTP mode requires `SLACK_SIGNING_SECRET`: requests are always verified. Listeners
    run on `deps.listener_executor` and must stay quick; slow work goes to
    `deps.executor` (see `bot.conversation`).
    """
    if settings.slack_bot_token is None:
        raise ValueError("SLACK_BOT_TOKEN is not set")
    secret = settings.slack_signing_secret
    if secret is None and not socket_mode:
        raise ValueError("SLACK_SIGNING_SECRET is not set; HTTP mode verifies every request")
    app = App(
        # The token comes with `client` (the one built for SLACK_API_URL).
        signing_secret=secret.get_secret_value() if secret is not None else "",
        client=deps.client,
        process_before_response=False,
        token_verification_enabled=False,
        request_verification_enabled=True,
        ignoring_self_events_enabled=True,
        raise_error_for_unhandled_request=True,
        listener_executor=deps.listener_executor,
        logger=logging.getLogger("bot.bolt"),
    )
    deps.extras["conversation"] = conversation.register(app, deps)
    prefs.register_prefs(app, deps)
    plans.register(app, deps.trips)
    app.error(_error_handler(deps))
    return app


def _error_handler(deps: Deps) -> Any:
    """Log what no listener expected; a slash command still gets a kind, private answer."""

    def handle(error: Exception, body: dict[str, Any], response: BoltResponse | None) -> Any:
        if isinstance(error, BoltUnhandledRequestError):
            deps.metrics.inc("slack_unhandled_total")
            return BoltResponse(status=404, body="")
        deps.metrics.inc("slack_listener_errors_total", error=type(error).__name__)
        log.error("listener failed (%s)", type(error).__name__, exc_info=error)
        if response is not None and isinstance(body.get("command"), str):
            text = t("internal_error", lang_of(str(body.get("text") or "")))
            return BoltResponse(
                status=200,
                body=json.dumps({"response_type": "ephemeral", "text": text}),
                headers={"content-type": "application/json;charset=utf-8"},
            )
        return None

    return handle


__all__ = ["Deps", "build_app", "slack_client"]
