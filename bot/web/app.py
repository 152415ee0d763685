"""HTTP mode: an ASGI application served by uvicorn.

Routes:
- `POST /slack/events`: events, slash commands and interactivity. The Slack signature
  is checked before anything else (bad or stale: 401, nothing touched); a body over
  `HTTP_MAX_BODY_BYTES` gets 413; an unreadable one, or one not shaped like anything
  Slack sends (`request_problem`), gets 400 with a short JSON error; then Bolt
  dispatches it on a dedicated thread pool, so the event loop never blocks on a
  listener. Should Bolt still trip over a body, that is a 400 too, logged without it.
- `GET /healthz`: JSON with Redis and database reachability; 200 while the process can
  serve (dependencies down is "degraded", still 200), 503 while shutting down.
- `GET /metrics`: Prometheus text.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import os
import signal
import socket
import threading
import time
import traceback
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from slack_bolt.request import BoltRequest

from bot.slack.http import request_problem

if TYPE_CHECKING:
    from slack_bolt import App

    from bot.deps import Deps

log = logging.getLogger(__name__)

Scope = Mapping[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

EVENTS_PATH = "/slack/events"
_HEALTH_TIMEOUT = 2.0
_MALFORMED = json.dumps({"ok": False, "error": "malformed_request"}).encode()
_UNAVAILABLE = json.dumps({"ok": False, "error": "shutting_down"}).encode()


class PayloadTooLarge(Exception):
    pass


class WebApp:
    """The ASGI application of `travel-bot serve`."""

    def __init__(
        self,
        *,
        bolt: App,
        deps: Deps,
        signing_secret: str,
        max_body_bytes: int = 1_048_576,
        dispatch_workers: int = 32,
    ) -> None:
        if not signing_secret:
            raise ValueError("a signing secret is required: every request is verified")
        self.bolt = bolt
        self.deps = deps
        self.max_body_bytes = max_body_bytes
        self._secret = signing_secret.encode("utf-8")
        self._dispatch = ThreadPoolExecutor(
            max_workers=dispatch_workers, thread_name_prefix="dispatch"
        )
        self._probe = ThreadPoolExecutor(max_workers=2, thread_name_prefix="health")
        self.shutting_down = False

    def close(self) -> None:
        self.shutting_down = True
        self._dispatch.shutdown(wait=True)
        self._probe.shutdown(wait=False, cancel_futures=True)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        path, method = scope["path"], scope["method"]
        try:
            if path == EVENTS_PATH:
                if method != "POST":
                    await _respond(send, 405, b"method not allowed", allow="POST")
                else:
                    await self._slack(scope, receive, send)
            elif path == "/healthz" and method in ("GET", "HEAD"):
                await self._health(send)
            elif path == "/metrics" and method == "GET":
                body = self.render_metrics().encode()
                await _respond(send, 200, body, "text/plain; version=0.0.4; charset=utf-8")
            else:
                await _respond(send, 404, b"not found")
        except Exception:
            log.exception("request to %s failed", path)
            await _respond(send, 500, b"internal error")

    # -- Slack --------------------------------------------------------------------------------

    async def _slack(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.monotonic()
        metrics = self.deps.metrics
        headers = _headers(scope)
        try:
            raw = await _read_body(receive, headers, self.max_body_bytes)
        except PayloadTooLarge:
            metrics.inc("http_rejected_total", reason="too_large")
            await _respond(send, 413, b"payload too large")
            return
        if not verify_signature(
            self._secret,
            raw,
            timestamp=_first(headers.get("x-slack-request-timestamp")),
            signature=_first(headers.get("x-slack-signature")),
        ):
            metrics.inc("http_rejected_total", reason="signature")
            await _respond(send, 401, b"invalid signature")
            return
        try:
            request = BoltRequest(
                body=raw.decode("utf-8"),
                query=scope.get("query_string", b"").decode("latin-1"),
                headers=dict(headers),
            )
        except Exception as exc:  # undecodable or unparsable body
            problem: str | None = f"unparsable ({type(exc).__name__})"
        else:
            problem = request_problem(request.body)
        if problem is not None:
            metrics.inc("http_rejected_total", reason="malformed")
            log.info("malformed Slack request: %s", problem)
            await _respond(send, 400, _MALFORMED, "application/json")
            return
        loop = asyncio.get_running_loop()
        try:
            dispatched = loop.run_in_executor(self._dispatch, self.bolt.dispatch, request)
        except RuntimeError:  # the dispatch pool is shut down
            await _respond(send, 503, _UNAVAILABLE, "application/json")
            return
        try:
            response = await dispatched
        except Exception as exc:  # a shape Bolt trips over that `request_problem` let by
            metrics.inc("http_rejected_total", reason="dispatch_error")
            log.warning(
                "Slack request could not be dispatched (%s at %s)", type(exc).__name__, _where(exc)
            )
            await _respond(send, 400, _MALFORMED, "application/json")
            return
        metrics.observe("slack_ack_seconds", time.monotonic() - started)
        body = response.body.encode("utf-8") if isinstance(response.body, str) else b""
        out_headers: list[tuple[bytes, bytes]] = []
        for name, values in response.headers.items():
            if name.lower() == "content-length":
                continue
            for value in values:
                out_headers.append((name.encode("latin-1"), str(value).encode("latin-1")))
        await _send(send, response.status, body, out_headers)

    # -- health and metrics ---------------------------------------------------------------

    async def _health(self, send: Send) -> None:
        loop = asyncio.get_running_loop()
        try:
            checks = await asyncio.wait_for(
                loop.run_in_executor(self._probe, self.health_checks), _HEALTH_TIMEOUT
            )
        except (TimeoutError, RuntimeError):
            checks = {"redis": False, "database": False}
        healthy = all(checks.values())
        status = "shutting_down" if self.shutting_down else ("ok" if healthy else "degraded")
        payload = {
            "status": status,
            **checks,
            "llm_configured": self.deps.agent is not None,
            "pending_turns": self._pending(),
        }
        code = 503 if self.shutting_down else 200
        await _respond(send, code, json.dumps(payload).encode(), "application/json")

    def health_checks(self) -> dict[str, bool]:
        memory = self.deps.memory.health()
        redis_ok = False
        if self.deps.redis is not None:
            try:
                redis_ok = bool(self.deps.redis.ping())
            except Exception:
                redis_ok = False
        return {"redis": redis_ok, "database": bool(memory.get("database"))}

    def _pending(self) -> int:
        conversation = self.deps.extras.get("conversation")
        return int(getattr(conversation, "pending", 0))

    def render_metrics(self) -> str:
        stats = self.deps.memory.cache.stats
        lines = [
            self.deps.metrics.render().rstrip("\n"),
            "# HELP memory_cache_hits_total Preference cache hits",
            "# TYPE memory_cache_hits_total counter",
            f"memory_cache_hits_total {stats.hits}",
            "# HELP memory_cache_misses_total Preference cache misses",
            "# TYPE memory_cache_misses_total counter",
            f"memory_cache_misses_total {stats.misses}",
            "# HELP agent_pending_turns Agent turns queued or running",
            "# TYPE agent_pending_turns gauge",
            f"agent_pending_turns {self._pending()}",
        ]
        return "\n".join(line for line in lines if line) + "\n"

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


def _where(exc: BaseException) -> str:
    """`file.py:line` where `exc` was raised (no message: it may quote the body)."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return "?"
    last = frames[-1]
    return f"{os.path.basename(last.filename)}:{last.lineno}"


def verify_signature(
    secret: bytes,
    body: bytes,
    *,
    timestamp: str | None,
    signature: str | None,
    now: float | None = None,
    tolerance_seconds: int = 300,
) -> bool:
    """Slack's v0 request signature over the raw bytes, and a timestamp not too old."""
    if not timestamp or not signature:
        return False
    try:
        sent = int(timestamp)
    except ValueError:
        return False
    if abs((time.time() if now is None else now) - sent) > tolerance_seconds:
        return False
    base = b"v0:" + timestamp.encode("ascii", "replace") + b":" + body
    expected = "v0=" + hmac.new(secret, base, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected.encode(), signature.encode("utf-8", "replace"))


async def _read_body(receive: Receive, headers: Mapping[str, list[str]], limit: int) -> bytes:
    declared = _first(headers.get("content-length"))
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise PayloadTooLarge
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise PayloadTooLarge
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _headers(scope: Scope) -> dict[str, list[str]]:
    headers: dict[str, list[str]] = {}
    for name, value in scope.get("headers", []):
        headers.setdefault(name.decode("latin-1").lower(), []).append(value.decode("latin-1"))
    return headers


def _first(values: list[str] | None) -> str | None:
    return values[0] if values else None


async def _respond(
    send: Send,
    status: int,
    body: bytes,
    content_type: str = "text/plain; charset=utf-8",
    **extra: str,
) -> None:
    headers = [(b"content-type", content_type.encode())]
    headers += [(k.encode(), v.encode()) for k, v in extra.items()]
    await _send(send, status, body, headers)


async def _send(send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    headers = [*headers, (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class Server:
    """uvicorn serving a `WebApp` on a socket bound up front (port 0 picks a free one)."""

    def __init__(self, web_app: WebApp, *, host: str = "127.0.0.1", port: int = 0) -> None:
        import uvicorn

        self.web_app = web_app
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.socket(family, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind((host, port))
        self.socket.listen(2048)
        self.socket.set_inheritable(True)
        config = uvicorn.Config(
            web_app,
            lifespan="on",
            log_level="warning",
            access_log=False,
            timeout_keep_alive=75,
            timeout_graceful_shutdown=30,
            backlog=2048,
        )
        self._server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self.socket.getsockname()[1])

    @property
    def url(self) -> str:
        host = self.socket.getsockname()[0]
        return f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{self.port}"

    def serve_forever(self) -> None:
        """Serve in this (main) thread until SIGINT/SIGTERM, then return normally.

        uvicorn re-raises the stop signal once it has shut down; handlers installed here
        absorb it, so the caller can still finish queued work and close connections.
        """
        stop_signals = (signal.SIGINT, signal.SIGTERM)
        previous = {sig: signal.signal(sig, _note_signal) for sig in stop_signals}
        try:
            self._server.run(sockets=[self.socket])
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def start(self, timeout: float = 10.0) -> Server:
        """Serve in a background thread; returns once the server accepts requests."""
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self.socket]}, daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the HTTP server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=30)
            self._thread = None
        self.socket.close()


def _note_signal(signum: int, frame: Any) -> None:
    log.info("received signal %d; shutting down", signum)


def build_web_app(deps: Deps, bolt: App) -> WebApp:
    settings = deps.settings
    secret = settings.slack_signing_secret
    return WebApp(
        bolt=bolt,
        deps=deps,
        signing_secret=secret.get_secret_value() if secret is not None else "",
        max_body_bytes=settings.http_max_body_bytes,
        dispatch_workers=settings.http_dispatch_workers,
    )


__all__ = [
    "EVENTS_PATH",
    "Server",
    "WebApp",
    "build_web_app",
    "request_problem",
    "verify_signature",
]
