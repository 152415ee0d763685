"""Feishu over HTTP: the `POST /feishu/events` route, and what it checks before the SDK.

Event subscriptions and card callbacks both arrive on `/feishu/events`. In order:

1. A body over `HTTP_MAX_BODY_BYTES`: 413. One that is not a JSON object: 400.
2. An encrypted body (`{"encrypt": …}`) is decrypted with `FEISHU_ENCRYPT_KEY` by the
   SDK's cipher; one that does not decrypt with it: 401 (it was not sealed for this
   app). An encrypted body without a configured key: 400, and the log says so.
3. The URL verification challenge (`type: url_verification`) is answered once its
   verification token matches (401 otherwise); Feishu sends it unsigned.
4. With an encrypt key, the signature (`X-Lark-Signature` = sha256 of timestamp, nonce,
   key and the raw body) must match; always, the verification token in the body must be
   `FEISHU_VERIFICATION_TOKEN`. Either wrong or missing: 401, nothing touched. A
   callback whose `X-Lark-Request-Timestamp` (covered by the signature) is more than an
   hour old or more than five minutes ahead: 401 too, as Slack refuses its stale
   requests (without an encrypt key nothing is signed, so the header is checked when
   present, and anyone holding one callback's body holds the verification token: set
   `FEISHU_ENCRYPT_KEY`). Every 401 is logged at WARNING with its reason (never the
   body), once per reason a minute with a count of the others.
5. Event types the bot does not handle: 200 and ignored (Feishu would otherwise retry).
6. Events are acknowledged (200) at once and handed to the SDK's dispatcher
   (`handler.do`) on the dispatch pool: it checks again, decodes the event into its
   typed model and calls the handler, which only queues work. Feishu re-sends an event
   not acknowledged within about 3 s; acknowledging first keeps a burst of events (or a
   busy machine) far from that, as Bolt does for Slack. An acknowledged event the SDK
   cannot read is counted and logged, never retried (it would fail again).
7. Card callbacks wait for the dispatcher: their answer is the handler's JSON (a toast
   and the new card; the handler itself answers within Feishu's three seconds). One the
   SDK cannot read: 400, logged without the body.

The headers go to the SDK under the exact names it looks up: it reads them
case-sensitively, and the lower-case names ASGI gives would make it fail with a 500.

Replays: every message and event is answered once (the conversation's claims on the
event id and the message id), messages older than a few minutes are not answered, card
clicks are handled once (`bot.feishu.actions`), and nothing older than an hour is
accepted at all, so a replayed request is harmless. A body nested deeper than
`bot.payloads.MAX_DEPTH` is malformed (400) before it is parsed.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import time
from collections.abc import Mapping
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

import lark_oapi as lark
from lark_oapi.core.utils import AESCipher

from bot.feishu.events import HANDLED, event_type
from bot.http.asgi import Receive, Scope, Send, first, headers_of, respond
from bot.http.routes import CallbackRoute, Intake
from bot.payloads import parse_json, too_deep

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)

EVENTS_PATH = "/feishu/events"
CARD_CALLBACK = "card.action.trigger"  # answered with the handler's card; events are not
# The names the SDK reads (case-sensitively), by their lower-case form.
SIGNATURE_HEADERS = {
    "x-lark-request-timestamp": "X-Lark-Request-Timestamp",
    "x-lark-request-nonce": "X-Lark-Request-Nonce",
    "x-lark-signature": "X-Lark-Signature",
    "x-request-id": "X-Request-Id",
}
_JSON = "application/json; charset=utf-8"
MAX_AGE_SECONDS = 3600  # a callback signed longer ago than this is refused
MAX_AHEAD_SECONDS = 300  # ...and one signed this far in the future (clock skew allowed)
_REASONS = {  # what a 401's reason means, for the log
    "undecryptable": "does not decrypt with FEISHU_ENCRYPT_KEY",
    "stale": "stale timestamp (more than an hour old, or ahead of now)",
    "signature": "bad or missing signature",
    "token": "wrong or missing verification token",
}


class FeishuEvents(CallbackRoute):
    """The ASGI route of `POST /feishu/events` (see the module docstring)."""

    what = "Feishu callback"

    def __init__(
        self, handler: Any, intake: Intake, *, verification_token: str, encrypt_key: str = ""
    ) -> None:
        super().__init__(intake, secret=verification_token, log=log)
        self.handler = handler
        self._token = verification_token.encode()
        self._key = encrypt_key

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.monotonic()
        headers = headers_of(scope)
        raw = await self.read(receive, headers, send)
        if raw is None:
            return
        body = _object(raw)
        if body is None:
            await self._reject(send, 400, "malformed")
            return
        if "encrypt" in body:
            if not self._key:
                log.warning("an encrypted Feishu callback, but FEISHU_ENCRYPT_KEY is not set")
                await self._reject(send, 400, "no_encrypt_key")
                return
            plain = self._decrypt(body.get("encrypt"))
            if plain is not None and too_deep(plain):
                await self._reject(send, 400, "malformed")
                return
            body = _object(plain.encode()) if plain is not None else None
            if body is None:
                await self._reject(send, 401, "undecryptable")
                return
        if body.get("type") == "url_verification":
            await self._challenge(send, body)
            return
        if self._key and not self._signed(headers, raw):
            await self._reject(send, 401, "signature")
            return
        if not fresh(first(headers.get("x-lark-request-timestamp"))):
            await self._reject(send, 401, "stale")
            return
        token = body.get("token") if "schema" not in body else _header(body, "token")
        if not self._token_ok(token):
            await self._reject(send, 401, "token")
            return
        kind = event_type(body)
        if kind not in HANDLED:
            self.metrics.inc("feishu_events_ignored_total", type=kind or "unknown")
            await respond(send, 200, b'{"msg":"ignored"}', _JSON)
            return
        await self._dispatch(send, scope, raw, headers, kind, started)

    async def _dispatch(
        self,
        send: Send,
        scope: Scope,
        raw: bytes,
        headers: Mapping[str, list[str]],
        kind: str,
        started: float,
    ) -> None:
        request = lark.RawRequest()
        request.uri = str(scope.get("path") or EVENTS_PATH)
        request.body = raw
        request.headers = {
            name: values[0]
            for lower, name in SIGNATURE_HEADERS.items()
            if (values := headers.get(lower))
        }
        if kind != CARD_CALLBACK:  # acknowledged now; handled on the dispatch pool
            try:
                work = self.pool.submit(self.handler.do, request)
            except RuntimeError:  # the dispatch pool is shut down
                await respond(send, 503, b'{"msg":"shutting down"}', _JSON)
                return
            work.add_done_callback(self._dispatched)
            self.metrics.observe("feishu_ack_seconds", time.monotonic() - started)
            await respond(send, 200, b'{"msg":"success"}', _JSON)
            return
        loop = asyncio.get_running_loop()
        try:
            response = await loop.run_in_executor(self.pool, self.handler.do, request)
        except RuntimeError:
            await respond(send, 503, b'{"msg":"shutting down"}', _JSON)
            return
        if response.status_code != 200:  # the SDK's message may quote the event: not logged
            await self._reject(send, 400, "malformed")
            log.warning("a Feishu card callback was unreadable (SDK: %s)", response.status_code)
            return
        self.metrics.observe("feishu_ack_seconds", time.monotonic() - started)
        await respond(send, 200, bytes(response.content or b"{}"), _JSON)

    def _dispatched(self, work: Future[Any]) -> None:
        """An acknowledged event the SDK (or its handler) could not read: counted and
        logged, without the event. Feishu would only send it again."""
        status = None if work.exception() is not None else work.result().status_code
        if status != 200:
            self.metrics.inc("feishu_events_ignored_total", type="unreadable")
            log.warning("an acknowledged Feishu event was unreadable (SDK: %s)", status)

    async def _challenge(self, send: Send, body: dict[str, Any]) -> None:
        challenge = body.get("challenge")
        if not self._token_ok(body.get("token")):
            await self._reject(send, 401, "token")
        elif not isinstance(challenge, str):
            await self._reject(send, 400, "malformed")
        else:
            await respond(send, 200, json.dumps({"challenge": challenge}).encode(), _JSON)

    def _decrypt(self, sealed: object) -> str | None:
        if not isinstance(sealed, str):
            return None
        try:
            return str(AESCipher(self._key).decrypt_str(sealed))
        except Exception:  # bad base64, padding or UTF-8: not sealed with our key
            return None

    def _signed(self, headers: Mapping[str, list[str]], raw: bytes) -> bool:
        def first(name: str) -> str:
            values = headers.get(name)
            return values[0] if values else ""

        timestamp, nonce = first("x-lark-request-timestamp"), first("x-lark-request-nonce")
        signature = first("x-lark-signature")
        if not (timestamp and nonce and signature):
            return False
        expected = signature_of(raw, timestamp=timestamp, nonce=nonce, encrypt_key=self._key)
        return hmac.compare_digest(expected.encode(), signature.encode("utf-8", "replace"))

    def _token_ok(self, token: object) -> bool:
        return isinstance(token, str) and hmac.compare_digest(token.encode(), self._token)

    async def too_large(self, send: Send) -> None:
        await respond(send, 413, json.dumps({"msg": "too_large"}).encode(), _JSON)

    async def _reject(self, send: Send, status: int, reason: str) -> None:
        self.metrics.inc("http_rejected_total", reason=reason)
        if status == 401:
            what = _REASONS.get(reason, reason)
            self._notices.warning(reason, "%s refused (401): %s", self.what, what)
        await respond(send, status, json.dumps({"msg": reason}).encode(), _JSON)


def fresh(timestamp: str | None, *, now: float | None = None) -> bool:
    """Whether a callback's `X-Lark-Request-Timestamp` (Unix seconds) is within the last
    hour and not more than five minutes ahead; a callback without one passes (only an
    unsigned one can lack it: a signed one needs it for its signature)."""
    if timestamp is None:
        return True
    if not timestamp.strip().isdigit():
        return False
    age = (time.time() if now is None else now) - int(timestamp)
    return -MAX_AHEAD_SECONDS <= age <= MAX_AGE_SECONDS


def signature_of(body: bytes, *, timestamp: str, nonce: str, encrypt_key: str) -> str:
    """Feishu's `X-Lark-Signature` of a callback body."""
    return hashlib.sha256((timestamp + nonce + encrypt_key).encode() + body).hexdigest()


def _object(raw: bytes) -> dict[str, Any] | None:
    try:
        body = parse_json(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    return body if isinstance(body, dict) and body else None


def _header(body: Mapping[str, Any], name: str) -> object:
    header = body.get("header")
    return header.get(name) if isinstance(header, dict) else None


__all__ = ["EVENTS_PATH", "FeishuEvents", "fresh", "signature_of"]
