"""DingTalk over HTTP: the `POST /dingtalk/events` route of the robot's HTTP mode.

DingTalk POSTs each robot message (the same JSON Stream mode delivers) with two
headers: `timestamp` (epoch milliseconds) and `sign`, the base64 HMAC-SHA256 of
`timestamp + "\\n" + AppSecret` keyed with the AppSecret. The route checks them before
anything else, before a byte of the body is read (`sign_problem`: missing, wrong, or
more than an hour away from now: 401, nothing touched, and a WARNING with the reason,
never the body, once per reason a minute with a count of the others); a body over
`HTTP_MAX_BODY_BYTES` gets 413; one that is not a robot message (`message_problem`)
gets 400 with a short JSON error (so does one nested deeper than
`bot.payloads.MAX_DEPTH`); then the channel takes it on the dispatch pool
(`DingTalkChannel.receive`: the core's pipeline, never a DingTalk call), and the answer
is `{}` at once. The reply itself goes out later through the message's session webhook
(only one on DingTalk's own origin, `bot.dingtalk.channel`) or the OpenAPI.

The signature covers the timestamp alone, not the body, and stays valid for an hour
either side of it: one captured header pair could sign any body. So each `(timestamp,
sign)` pair is accepted once, the first of the pipeline's claims
(`Pipeline.first_signature`, claimed in Redis and in-process for the two hours it can
be valid): the same pair with another body gets 401 and a WARNING ("signature
reused"), the same pair with the same body (a redelivery) 200 and nothing else.

The composition root (`bot.compose.mount_dingtalk`) registers the route on the one HTTP
application (`bot.http.app`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.dingtalk.channel import DingTalkChannel
from bot.dingtalk.incoming import PLATFORM, message_problem
from bot.http.asgi import Receive, Scope, Send, first, headers_of, respond
from bot.http.routes import JSON, CallbackRoute, Intake, ShuttingDown
from bot.payloads import parse_json

if TYPE_CHECKING:
    from bot.conversation.replays import Seen

log = logging.getLogger(__name__)

EVENTS_PATH = "/dingtalk/events"
TOLERANCE_MS = 3600 * 1000  # DingTalk's own rule: a timestamp older than an hour is refused
# A signature's claim outlives the two hours (either side of now) its timestamp passes.
SIGN_TTL_SECONDS = 2 * TOLERANCE_MS // 1000 + 600


class DingTalkEvents(CallbackRoute):
    """The ASGI route of `POST /dingtalk/events` (see the module docstring)."""

    what = "DingTalk callback"

    def __init__(self, channel: DingTalkChannel, intake: Intake, *, app_secret: str) -> None:
        super().__init__(intake, secret=app_secret, log=log)
        self.channel = channel
        self._secret = app_secret

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.monotonic()
        headers = headers_of(scope)
        unsigned = sign_problem(
            self._secret, timestamp=first(headers.get("timestamp")), sign=first(headers.get("sign"))
        )
        if unsigned is not None:
            await self.unsigned(send, unsigned)
            return
        raw = await self.read(receive, headers, send)
        if raw is None:
            return
        try:
            data = parse_json(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            problem: str | None = "unparsable JSON"
        else:
            problem = message_problem(data)
        if problem is not None:
            await self.malformed(send, problem)
            return
        # The pair as `sign_problem` read it (it ignores spaces around the sign).
        stamp, sign = first(headers.get("timestamp")), first(headers.get("sign")) or ""
        signature = f"{stamp}:{sign.strip()}"
        try:
            seen = await self.hand_off(send, self._receive, signature, raw, data)
        except ShuttingDown:
            return
        if seen == "reused":
            await self.unsigned(send, "signature reused")
            return
        self.metrics.observe("dingtalk_ack_seconds", time.monotonic() - started)
        await respond(send, 200, b"{}", JSON)

    def _receive(self, signature: str, raw: bytes, data: Mapping[str, Any]) -> Seen:
        """On the dispatch pool: the signature claimed once, then the channel takes it."""
        pipeline = self.channel.pipeline
        seen = pipeline.first_signature(PLATFORM, signature, raw, ttl_seconds=SIGN_TTL_SECONDS)
        if seen == "first":
            self.channel.receive(data)
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


__all__ = ["EVENTS_PATH", "DingTalkEvents", "compute_sign", "sign_problem", "verify_sign"]
