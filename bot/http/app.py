"""The one HTTP application of `travel-bot serve`, an ASGI app served by `bot.http.server`.

The composition root mounts each configured channel's route on it (`WebApp.mount`: Slack's
`POST /slack/events` is `bot.slack.http`, Feishu's and DingTalk's callbacks theirs), so a
channel is added by registering it, never by editing this module; the preferences page
(`bot.web`) mounts its routes too, one of them a prefix (`/api/preferences/facts/{id}`). The
application itself answers:

- `GET /healthz` (liveness): 200 while the process answers requests, whatever Redis and
  the database do; no dependency is probed, so an orchestrator restarts a process only
  when the process itself is stuck. While shutting down it says so, still 200.
- `GET /readyz` (readiness): Redis and the database are probed. 200 `ready`, or 200
  `degraded` when only Redis is down (the bot still answers, without the cache, with
  dedupe and thread history per process); 503 `unready` when the database is down (no
  preference can be read or written) and 503 `shutting_down` once shutdown has begun.
  A long connection registered with `add_health` (e.g. DingTalk Stream) is shown there
  (and, as information, in `/healthz`); one that is down makes the status `degraded`.
- `GET /metrics`: Prometheus text, never to anyone who asks: with `METRICS_TOKEN` set,
  only to a request with `Authorization: Bearer <token>` (401 otherwise, on every
  listener); without it, only on the metrics listener (`METRICS_PORT`, bound to
  `METRICS_HOST`, localhost by default), and 404 on the public port. The metrics
  listener serves `/metrics`, `/healthz` and `/readyz`, nothing else.
- anything else: 404; a known path with the wrong method: 405, with `Allow`. `OPTIONS` on
  a mounted path: 204 with `Allow` (the methods it takes, and OPTIONS), no body and no
  CORS headers (the application has no cross-origin policy: the page and its API are
  same-origin). A route that fails unexpectedly answers 500 and the server carries on.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.http.asgi import ClientDisconnected, Receive, Route, Scope, Send, respond, send_response
from bot.http.notices import Notices

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

    from bot.conversation.claims import Claims
    from bot.conversation.turn import Conversation
    from bot.metrics import Metrics
    from memory.protocol import LongTermMemory

log = logging.getLogger(__name__)

_HEALTH_TIMEOUT = 2.0
# Set (true) in the scope of a request that came in on the metrics listener
# (`bot.http.server` knows the sockets; the application only reads this).
METRICS_LISTENER = "bot.metrics_listener"
_OPS_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})


def allowed(methods: Sequence[str]) -> str:
    """The `Allow` header of a path taking `methods`: those, and OPTIONS, which every
    mounted path answers."""
    return ", ".join(dict.fromkeys([*methods, "OPTIONS"]))


class WebApp:
    """The ASGI application: the mounted channel routes, health and metrics."""

    def __init__(
        self,
        *,
        memory: LongTermMemory,
        redis: Any | None,
        metrics: Metrics,
        claims: Claims,
        conversation: Conversation,
        probe: ThreadPoolExecutor,
        llm_configured: bool,
        metrics_token: str = "",
    ) -> None:
        self.memory = memory
        self.redis = redis
        self.metrics = metrics
        self.claims = claims
        self.conversation = conversation
        self.probe = probe
        self.llm_configured = llm_configured
        self.shutting_down = False
        self._routes: dict[str, tuple[tuple[str, ...], Route]] = {}
        # A long connection's state in /readyz and /healthz (`add_health`).
        self._extra_health: dict[str, Callable[[], Mapping[str, object]]] = {}
        self._prefixes: dict[str, tuple[tuple[str, ...], Route]] = {}
        self._metrics_token = metrics_token.encode()
        self._notices = Notices(log)

    def mount(
        self,
        path: str,
        route: Route,
        *,
        methods: Sequence[str] = ("POST",),
        prefix: bool = False,
    ) -> None:
        """Serve `path` with `route` (an ASGI callable) for `methods`; 405 for the others.

        With `prefix`, `path` (ending in "/") serves every longer path below it, e.g.
        `/api/preferences/facts/` serves `/api/preferences/facts/{id}`.
        """
        reserved = ("/healthz", "/readyz", "/metrics")
        if path in self._routes or path in self._prefixes or path in reserved:
            raise ValueError(f"{path} is already served")
        if prefix and not path.endswith("/"):
            raise ValueError(f"a prefix mount ends with '/', not {path!r}")
        (self._prefixes if prefix else self._routes)[path] = (tuple(methods), route)

    def add_health(self, name: str, check: Callable[[], Mapping[str, object]]) -> None:
        """Show `check()` under `name` in `/healthz`; its `ok` false makes the status
        "degraded" (e.g. a chat platform's long connection that is down)."""
        self._extra_health[name] = check

    def close(self) -> None:
        """Stop taking requests (`/readyz` says so); the pools are closed with the core."""
        self.shutting_down = True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        path, method = scope["path"], scope["method"]
        if scope.get(METRICS_LISTENER) and path not in _OPS_PATHS:
            await respond(send, 404, b"not found")
            return
        try:
            mounted = self._routes.get(path) or self._below(path)
            if mounted is not None:
                methods, route = mounted
                if method == "OPTIONS" and method not in methods:
                    await send_response(send, 204, b"", [(b"allow", allowed(methods).encode())])
                elif method not in methods:
                    await respond(send, 405, b"method not allowed", allow=allowed(methods))
                else:
                    await route(scope, receive, send)
            elif path == "/healthz" and method in ("GET", "HEAD"):
                await self._alive(send)
            elif path == "/readyz" and method in ("GET", "HEAD"):
                await self._ready(send)
            elif path == "/metrics" and method == "GET":
                await self._metrics(scope, send)
            else:
                await respond(send, 404, b"not found")
        except ClientDisconnected:  # nobody to answer; the server counts and logs it
            return
        except Exception:
            self._notices.log(logging.ERROR, "route failed", "a request failed", exc_info=True)
            await respond(send, 500, b"internal error")

    def _below(self, path: str) -> tuple[tuple[str, ...], Route] | None:
        """The prefix mount serving `path`, the longest one when several do."""
        found = [p for p in self._prefixes if path.startswith(p) and len(path) > len(p)]
        return self._prefixes[max(found, key=len)] if found else None

    # -- health and metrics ---------------------------------------------------------------

    async def _metrics(self, scope: Scope, send: Send) -> None:
        """Prometheus text for a caller with the token, or on the metrics listener."""
        if self._metrics_token:
            authorization = ""
            for name, value in scope.get("headers", ()):
                if name.lower() == b"authorization":
                    authorization = value.decode("latin-1")
            scheme, _, given = authorization.partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(
                given.strip().encode("latin-1"), self._metrics_token
            ):
                self._notices.warning(
                    "metrics token", "/metrics refused: missing or wrong bearer token"
                )
                headers = [(b"content-type", b"text/plain; charset=utf-8")]
                headers.append((b"www-authenticate", b'Bearer realm="metrics"'))
                await send_response(send, 401, b"unauthorized", headers)
                return
        elif not scope.get(METRICS_LISTENER):
            await respond(send, 404, b"not found")
            return
        body = self.render_metrics().encode()
        await respond(send, 200, body, "text/plain; version=0.0.4; charset=utf-8")

    async def _alive(self, send: Send) -> None:
        payload = {
            "status": "shutting_down" if self.shutting_down else "alive",
            # In-process state only (a long connection's), never a dependency probe.
            **{name: dict(check()) for name, check in self._extra_health.items()},
            "llm_configured": self.llm_configured,
            "pending_turns": self.conversation.pending,
        }
        await respond(send, 200, json.dumps(payload).encode(), "application/json")

    async def _ready(self, send: Send) -> None:
        loop = asyncio.get_running_loop()
        try:
            checks = await asyncio.wait_for(
                loop.run_in_executor(self.probe, self.health_checks), _HEALTH_TIMEOUT
            )
        except (TimeoutError, RuntimeError):
            checks = {"redis": False, "database": False}
        extra = {name: dict(check()) for name, check in self._extra_health.items()}
        if self.shutting_down:
            status = "shutting_down"
        elif not checks["database"]:
            status = "unready"
        elif checks["redis"] and all(e.get("ok", True) for e in extra.values()):
            status = "ready"
        else:
            status = "degraded"
        payload = {
            "status": status,
            **checks,
            **extra,
            "llm_configured": self.llm_configured,
            "pending_turns": self.conversation.pending,
        }
        code = 503 if status in ("unready", "shutting_down") else 200
        await respond(send, code, json.dumps(payload).encode(), "application/json")

    def health_checks(self) -> dict[str, bool]:
        memory = self.memory.health()
        redis_ok = False
        if self.redis is not None:
            try:
                redis_ok = bool(self.redis.ping())
            except Exception:
                redis_ok = False
        return {"redis": redis_ok, "database": bool(memory.get("database"))}

    def render_metrics(self) -> str:
        stats = self.memory.cache.stats
        lines = [
            self.metrics.render().rstrip("\n"),
            "# HELP memory_cache_hits_total Preference cache hits",
            "# TYPE memory_cache_hits_total counter",
            f"memory_cache_hits_total {stats.hits}",
            "# HELP memory_cache_misses_total Preference cache misses",
            "# TYPE memory_cache_misses_total counter",
            f"memory_cache_misses_total {stats.misses}",
            *self._claim_lines(),
            "# HELP agent_pending_turns Agent turns queued or running",
            "# TYPE agent_pending_turns gauge",
            f"agent_pending_turns {self.conversation.pending}",
        ]
        return "\n".join(line for line in lines if line) + "\n"

    def _claim_lines(self) -> list[str]:
        """Exactly-once claims (`bot.conversation.claims`): how often Redis was not there to
        decide, and whether a claim made meanwhile turned out to be another process's too."""
        claims = self.claims
        stats = claims.stats
        series = [
            (
                "claims_local_only_total",
                "counter",
                stats.local_only,
                "Claims decided in this process alone (Redis failed or was being left alone)",
            ),
            (
                "claims_redis_errors_total",
                "counter",
                stats.redis_errors,
                "Claims Redis did not answer",
            ),
            (
                "claims_written_through_total",
                "counter",
                stats.replayed,
                "Claims and releases written to Redis after it answered again",
            ),
            (
                "claims_conflicts_total",
                "counter",
                stats.conflicts,
                "Claims made while Redis was away that another process had also made "
                "(possibly answered twice)",
            ),
            (
                "claims_pending_write_through",
                "gauge",
                claims.pending,
                "Claims made while Redis was away, still to be written to it",
            ),
        ]
        lines: list[str] = []
        for name, kind, value, text in series:
            lines += [f"# HELP {name} {text}", f"# TYPE {name} {kind}", f"{name} {value}"]
        return lines

    # -- lifespan -------------------------------------------------------------------------

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.shutting_down = True
                await send({"type": "lifespan.shutdown.complete"})
                return


__all__ = ["METRICS_LISTENER", "WebApp", "allowed"]
