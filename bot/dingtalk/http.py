"""DingTalk over HTTP: the `POST /dingtalk/events` route of the robot's HTTP mode.

DingTalk POSTs each robot message (the same JSON Stream mode delivers) with two
headers: `timestamp` (epoch milliseconds) and `sign`, the base64 HMAC-SHA256 of
`timestamp + "\\n" + AppSecret` keyed with the AppSecret. The route checks them before
anything else, before a byte of the body is read (`sign_problem`: missing, wrong, or
more than an hour away from now: 401, nothing touched, and a WARNING with the reason,
never the body, once per reason a minute with a count of the others); a body over
`HTTP_MAX_BODY_BYTES` gets 413; one that is not a robot message (`message_problem`)
gets 400 with a short JSON error (so does one nested deeper than
`bot.payloads.MAX_DEPTH`); then the robot takes it on the dispatch pool
(`Robot.receive`: a claim and a queued turn, never a DingTalk call), and the answer is
`{}` at once. The reply itself goes out later through the message's session webhook
(only one on DingTalk's own origin, `bot.dingtalk.delivery`) or the OpenAPI.

The signature covers the timestamp alone, not the body, and stays valid for an hour
either side of it: one captured header pair could sign any body. So each `(timestamp,
sign)` pair is accepted once (`bot.conversation.replays.first_signature`, claimed in
Redis and in-process for the two hours it can be valid): the same pair with another
body gets 401 and a WARNING ("signature reused"), the same pair with the same body (a
redelivery) 200 and nothing else.

`mount(web, settings, deps)` builds the robot and registers the route on the one HTTP
application (`bot.web.app`).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import logging
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from bot.conversation.replays import Seen, first_signature
from bot.dingtalk.incoming import PLATFORM, message_problem
from bot.dingtalk.robot import Robot, build_robot
from bot.payloads import parse_json
from bot.prefs.links import LinkProvider
from bot.web.asgi import (
    PayloadTooLarge,
    Receive,
    Scope,
    Send,
    first,
    headers_of,
    read_body,
    respond,
)
from bot.web.notices import Notices

if TYPE_CHECKING:
    from bot.deps import Deps
    from bot.metrics import Metrics
    from bot.settings import Settings
    from bot.web.app import WebApp

log = logging.getLogger(__name__)

EVENTS_PATH = "/dingtalk/events"
TOLERANCE_MS = 3600 * 1000  # DingTalk's own rule: a timestamp older than an hour is refused
# A signature's claim outlives the two hours (either side of now) its timestamp passes.
SIGN_TTL_SECONDS = 2 * TOLERANCE_MS // 1000 + 600
_MALFORMED = json.dumps({"ok": False, "error": "malformed_request"}).encode()
_UNAVAILABLE = json.dumps({"ok": False, "error": "shutting_down"}).encode()


def mount(
    web: WebApp, settings: Settings, deps: Deps, *, preferences_url: LinkProvider | None = None
) -> Robot:
    """Build the robot and serve it on `POST /dingtalk/events`; returns the robot."""
    robot = build_robot(settings, deps, preferences_url=preferences_url)
    secret = settings.dingtalk_client_secret
    events = DingTalkEvents(
        robot=robot,
        metrics=deps.metrics,
        pool=deps.pools.dispatch,
        app_secret=secret.get_secret_value() if secret is not None else "",
        max_body_bytes=settings.http_max_body_bytes,
    )
    web.mount(EVENTS_PATH, events, methods=("POST",))
    return robot


class DingTalkEvents:
    """The ASGI route of `POST /dingtalk/events` (see the module docstring)."""

    def __init__(
        self,
        *,
        robot: Robot,
        metrics: Metrics,
        pool: ThreadPoolExecutor,
        app_secret: str,
        max_body_bytes: int = 1_048_576,
    ) -> None:
        if not app_secret:
            raise ValueError("the AppSecret is required: every callback is verified")
        self.robot = robot
        self.metrics = metrics
        self.pool = pool
        self.max_body_bytes = max_body_bytes
        self._secret = app_secret
        self._notices = Notices(log)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.monotonic()
        headers = headers_of(scope)
        unsigned = sign_problem(
            self._secret, timestamp=first(headers.get("timestamp")), sign=first(headers.get("sign"))
        )
        if unsigned is not None:
            self.metrics.inc("http_rejected_total", reason="signature")
            self._notices.warning(unsigned, "DingTalk callback refused (401): %s", unsigned)
            await respond(send, 401, b"invalid signature")
            return
        try:
            raw = await read_body(receive, headers, self.max_body_bytes)
        except PayloadTooLarge:
            self.metrics.inc("http_rejected_total", reason="too_large")
            await respond(send, 413, b"payload too large")
            return
        try:
            data = parse_json(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            problem: str | None = "unparsable JSON"
        else:
            problem = message_problem(data)
        if problem is not None:
            self.metrics.inc("http_rejected_total", reason="malformed")
            log.info("malformed DingTalk callback: %s", problem)
            await respond(send, 400, _MALFORMED, "application/json")
            return
        loop = asyncio.get_running_loop()
        # The pair as `sign_problem` read it (it ignores spaces around the sign).
        stamp, sign = first(headers.get("timestamp")), first(headers.get("sign")) or ""
        signature = f"{stamp}:{sign.strip()}"
        try:
            seen = await loop.run_in_executor(self.pool, self._receive, signature, raw, data)
        except RuntimeError:  # the dispatch pool is shut down
            await respond(send, 503, _UNAVAILABLE, "application/json")
            return
        if seen == "reused":
            self.metrics.inc("http_rejected_total", reason="signature")
            self._notices.warning("reused", "DingTalk callback refused (401): signature reused")
            await respond(send, 401, b"invalid signature")
            return
        self.metrics.observe("dingtalk_ack_seconds", time.monotonic() - started)
        await respond(send, 200, b"{}", "application/json")

    def _receive(self, signature: str, raw: bytes, data: Mapping[str, Any]) -> Seen:
        """On the dispatch pool: the signature claimed once, then the robot takes it."""
        seen = first_signature(
            self.robot.deps.claims, PLATFORM, signature, raw, ttl_seconds=SIGN_TTL_SECONDS
        )
        if seen == "first":
            self.robot.receive(data)
        elif seen == "again":
            self.metrics.inc("dingtalk_events_total", outcome="duplicate")
        return seen


def verify_sign(
    secret: str,
    *,
    timestamp: str | None,
    sign: str | None,
    now_ms: float | None = None,
    tolerance_ms: int = TOLERANCE_MS,
) -> bool:
    """DingTalk's callback signature, and a timestamp within an hour of now."""
    return (
        sign_problem(
            secret, timestamp=timestamp, sign=sign, now_ms=now_ms, tolerance_ms=tolerance_ms
        )
        is None
    )


def sign_problem(
    secret: str,
    *,
    timestamp: str | None,
    sign: str | None,
    now_ms: float | None = None,
    tolerance_ms: int = TOLERANCE_MS,
) -> str | None:
    """Why a callback is not signed by DingTalk ("missing headers", "bad timestamp",
    "stale timestamp", "bad signature"), or None when it is."""
    if not timestamp or not sign:
        return "missing headers"
    if not timestamp.isdigit():
        return "bad timestamp"
    now = time.time() * 1000 if now_ms is None else now_ms
    if abs(now - int(timestamp)) > tolerance_ms:
        return "stale timestamp"
    expected = compute_sign(secret, timestamp)
    if not hmac.compare_digest(expected.encode(), sign.strip().encode("utf-8", "replace")):
        return "bad signature"
    return None


def compute_sign(secret: str, timestamp: str) -> str:
    """`sign` for `timestamp`: base64(HMAC-SHA256(AppSecret, timestamp + "\\n" + AppSecret))."""
    message = f"{timestamp}\n{secret}".encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()
    return base64.b64encode(digest).decode()


__all__ = ["EVENTS_PATH", "DingTalkEvents", "compute_sign", "mount", "sign_problem", "verify_sign"]
