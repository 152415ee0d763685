"""Feishu's open API through `lark-oapi`: one client, and what every call shares.

`FeishuAPI` holds the SDK's `lark.Client` for `FEISHU_API_URL` (Feishu's own, Lark's
international domain or a test server) and offers the few calls the bot makes: reply
and send messages, update a card, reactions, a thread's messages, the bot's own
identity, and CardKit streaming cards. A reply goes in the message's thread, else as a
plain reply, else as a new message in the chat, as far as the chat allows
(`bot.feishu.reply_modes`). Every call goes through `call`:

- The tenant access token is the SDK's: fetched with the app id and secret and cached
  until ten minutes before it expires. The SDK never refreshes it when Feishu answers
  that it is invalid or missing (a token revoked early, a secret rotated): `call` drops
  the cached token and tries once more.
- Rate limits (HTTP 429, or the codes 99991400 "request trigger frequency limit", 11232
  for the tenant's message service and 230020 for one chat) are waited out:
  `x-ogw-ratelimit-reset` seconds when Feishu says, else a growing backoff, within a
  patience; past it the call fails with `FeishuRateLimited`.
- Feishu unreachable, or an answer that is not JSON (a proxy's error page): one quick
  retry, then `FeishuUnavailable`. A message sent without a uuid (Feishu deduplicates
  by it) is retried only when the request never left (`bot.retry.never_sent`): after
  a read error or timeout it may have been posted, and a second post is a second
  message.
- Any other non-zero code: `FeishuError(code, msg)` at once.

An error says whether a try of the call may have reached Feishu (`maybe_sent`): a caller
that cannot send again safely reports such a send as unconfirmed, not as failed.

A call blocks and may sleep: it never runs on a listener thread. Errors carry Feishu's
code and message, never the request.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any

import lark_oapi as lark
from lark_oapi.api.im.v1 import (
    CreateMessageRequest,
    CreateMessageRequestBody,
    ListMessageRequest,
    PatchMessageRequest,
    PatchMessageRequestBody,
    ReplyMessageRequest,
    ReplyMessageRequestBody,
)
from lark_oapi.core.exception import ObtainAccessTokenException
from lark_oapi.core.token.manager import TokenManager

from bot.feishu.cardkit import CardKitCalls, compact_json
from bot.feishu.errors import FeishuError, FeishuRateLimited, FeishuUnavailable
from bot.feishu.reactions import ReactionCalls
from bot.feishu.reply_modes import Mode, ReplyModes
from bot.retry import never_sent, retry_after

log = logging.getLogger(__name__)

# The tenant token is missing, invalid or expired: fetch a new one and try again.
TOKEN_CODES = frozenset({99991661, 99991663, 99991664, 99991665, 99991668})
# Frequency limits: the gateway's, the tenant's message service's, one chat's.
RATE_LIMIT_CODES = frozenset({99991400, 11232, 230020})
PATIENCE = 30.0  # seconds of rate limits a call waits out in total, by default
MAX_BACKOFF = 10.0
# How long Feishu keeps a sent message's `uuid`: its API reference for sending a message
# ("发送消息", https://open.feishu.cn/document/server-docs/im-v1/message/create, the
# request body's `uuid`) says requests carrying the same uuid send at most one message
# within one hour; replying ("回复消息", .../im-v1/message/reply) takes the same field.
# A send that may have arrived can be sent again with its uuid within this window.
UUID_WINDOW = timedelta(hours=1)


class FeishuAPI(CardKitCalls, ReactionCalls):
    """The bot's calls to Feishu's open API (see the module docstring); CardKit's are
    in `bot.feishu.cardkit`, reactions' in `bot.feishu.reactions`. Thread-safe."""

    def __init__(
        self,
        *,
        app_id: str,
        app_secret: str,
        base_url: str = "https://open.feishu.cn",
        timeout: float = 10.0,
        sleep: Callable[[float], None] = time.sleep,
        reply_modes: ReplyModes | None = None,
    ) -> None:
        self.app_id = app_id
        self.reply_modes = reply_modes or ReplyModes()
        self.base_url = base_url.rstrip("/")
        self.client = (
            lark.Client.builder()
            .app_id(app_id)
            .app_secret(app_secret)
            .domain(self.base_url)
            .timeout(timeout)
            .log_level(lark.LogLevel.WARNING)
            .build()
        )
        self._sleep = sleep
        self._token_key = f"self_tenant_token:{app_id}"  # the SDK's cache key
        self._token_lock = threading.Lock()

    # -- every call -----------------------------------------------------------------------

    def call(
        self, name: str, send: Callable[[], Any], *, patience: float = PATIENCE, resend: bool = True
    ) -> Any:
        """`send()` (one SDK call) with token refresh, rate limits and one network retry
        (with `resend=False`, only of a request that never left); the response's `data`."""
        refreshed = retried = maybe = False
        waited, backoff = 0.0, 0.5
        while True:
            token = TokenManager.cache.get(self._token_key)
            try:
                response = send()
            except ObtainAccessTokenException as exc:
                raise FeishuError(exc.code, f"no tenant token: {exc.msg}", call=name) from None
            except Exception as exc:  # unreachable, timed out, or not JSON
                maybe = maybe or not never_sent(exc)
                if retried or not (resend or never_sent(exc)):
                    reason = type(exc).__name__
                    raise FeishuUnavailable(None, reason, call=name, maybe_sent=maybe) from None
                retried = True
                log.info("Feishu %s failed (%s); retrying once", name, type(exc).__name__)
                self._sleep(0.2)
                continue
            if response.success():
                return getattr(response, "data", None)
            code = response.code
            status = response.raw.status_code if response.raw is not None else None
            if code in TOKEN_CODES and not refreshed:
                refreshed = True
                self.forget_token(token)
                continue
            if status == 429 or code in RATE_LIMIT_CODES:
                headers = response.raw.headers if response.raw is not None else {}
                delay = _reset_seconds(headers) or backoff
                backoff = min(backoff * 2, MAX_BACKOFF)
                if waited + delay > patience:
                    msg = str(response.msg or "")
                    raise FeishuRateLimited(code, msg, call=name, maybe_sent=maybe)
                log.info("Feishu %s rate limited (%s); retrying in %.1f s", name, code, delay)
                self._sleep(delay)
                waited += delay
                continue
            raise FeishuError(code, str(response.msg or ""), call=name, maybe_sent=maybe)

    def forget_token(self, token: str | None = None) -> None:
        """Drop the cached tenant token, so the next call fetches a new one.

        With `token` (the one a refused call was sent with), only while it is still the
        cached one: when calls fail together, the first fetches a new token and the others
        use it instead of throwing it away.
        """
        with self._token_lock:
            cached = TokenManager.cache.get(self._token_key)
            if token is None or not cached or cached == token:
                TokenManager.cache.set(self._token_key, "", 0)

    # -- messages -------------------------------------------------------------------------

    def reply(
        self,
        message_id: str,
        *,
        msg_type: str,
        content: Mapping[str, Any],
        chat_id: str | None = None,
        in_thread: bool = True,
        uuid: str | None = None,
        patience: float = PATIENCE,
    ) -> str:
        """Reply to a message; the reply's message id. `uuid` makes a retried reply the
        same message (Feishu keeps one per uuid for an hour).

        In the message's thread unless the chat or message refuses it, then as a plain
        reply, then (with `chat_id`) as a new message in the chat; what a chat took is
        remembered a while (`bot.feishu.reply_modes`).
        """

        def attempt(mode: Mode) -> str:
            if mode == "chat" and chat_id:
                return self.send(
                    chat_id,
                    id_type="chat_id",
                    msg_type=msg_type,
                    content=content,
                    uuid=uuid,
                    patience=patience,
                )
            return self._reply(message_id, msg_type, content, mode == "thread", uuid, patience)

        mode = self.reply_modes.first(chat_id, message_id, in_thread=in_thread)
        while True:
            try:
                return attempt(mode)
            except FeishuError as exc:
                following = self.reply_modes.after(chat_id, message_id, mode, exc.code)
                if following is None:
                    raise
                mode = following

    def _reply(
        self,
        message_id: str,
        msg_type: str,
        content: Mapping[str, Any],
        in_thread: bool,
        uuid: str | None,
        patience: float,
    ) -> str:
        body = (
            ReplyMessageRequestBody.builder()
            .msg_type(msg_type)
            .content(compact_json(content))
            .reply_in_thread(in_thread)
        )
        if uuid:
            body = body.uuid(uuid[:50])
        request = ReplyMessageRequest.builder().message_id(message_id).request_body(body.build())
        data = self.call(
            "reply",
            lambda: self.client.im.v1.message.reply(request.build()),
            patience=patience,
            resend=bool(uuid),
        )
        return str(getattr(data, "message_id", "") or "")

    def send(
        self,
        receive_id: str,
        *,
        id_type: str,
        msg_type: str,
        content: Mapping[str, Any],
        uuid: str | None = None,
        patience: float = PATIENCE,
    ) -> str:
        """Send a message to a chat (`id_type` "chat_id") or a person ("open_id")."""
        body = (
            CreateMessageRequestBody.builder()
            .receive_id(receive_id)
            .msg_type(msg_type)
            .content(compact_json(content))
        )
        if uuid:
            body = body.uuid(uuid[:50])
        request = CreateMessageRequest.builder().receive_id_type(id_type).request_body(body.build())
        data = self.call(
            "send",
            lambda: self.client.im.v1.message.create(request.build()),
            patience=patience,
            resend=bool(uuid),
        )
        return str(getattr(data, "message_id", "") or "")

    def update_card(self, message_id: str, card: Mapping[str, Any]) -> None:
        """Replace a card the bot sent (a shared card: everyone sees the new one).

        Retried after a read error like any call: the patch (`im/v1/messages/:id`, PATCH)
        takes no uuid, but it replaces the card's whole content with `card`, so applying
        it twice shows the same card once; nothing is added that could show twice."""
        body = PatchMessageRequestBody.builder().content(compact_json(card)).build()
        request = PatchMessageRequest.builder().message_id(message_id).request_body(body).build()
        self.call("update_card", lambda: self.client.im.v1.message.patch(request))

    def thread_messages(self, thread_id: str, *, limit: int = 50) -> list[dict[str, Any]]:
        """The messages of a thread (`omt_…`), oldest first, as plain JSON objects."""
        request = (
            ListMessageRequest.builder()
            .container_id_type("thread")
            .container_id(thread_id)
            .sort_type("ByCreateTimeAsc")
            .page_size(min(max(limit, 1), 50))
            .build()
        )
        data = self.call(
            "thread_messages", lambda: self.client.im.v1.message.list(request), patience=2.0
        )
        items = getattr(data, "items", None) or []
        return [json.loads(lark.JSON.marshal(item)) for item in items]

    # -- the bot itself --------------------------------------------------------------------

    def bot_open_id(self) -> str:
        """The bot's own open_id (`/open-apis/bot/v3/info`, not a typed SDK resource)."""
        request = (
            lark.BaseRequest.builder()
            .http_method(lark.HttpMethod.GET)
            .uri("/open-apis/bot/v3/info")
            .token_types({lark.AccessTokenType.TENANT})
            .build()
        )

        def send() -> Any:
            response = self.client.request(request)
            raw = response.raw.content if response.raw is not None else b""
            bot = json.loads(raw or b"{}").get("bot") if response.success() else None
            response.data = bot if isinstance(bot, dict) else {}
            return response

        data = self.call("bot_info", send, patience=2.0)
        return str(data.get("open_id") or "")


def _reset_seconds(headers: Mapping[str, Any]) -> float | None:
    """`x-ogw-ratelimit-reset` (seconds), else a `Retry-After`, capped at `MAX_BACKOFF`."""
    found = {str(k).lower(): v for k, v in headers.items()}
    value: Any = found.get("x-ogw-ratelimit-reset")
    seconds: float | None
    try:
        seconds = float(value) if value is not None else retry_after(found)
    except (TypeError, ValueError):
        seconds = retry_after(found)
    if seconds is None:
        return None
    return min(max(seconds, 0.1), MAX_BACKOFF)


__all__ = [
    "PATIENCE",
    "RATE_LIMIT_CODES",
    "TOKEN_CODES",
    "UUID_WINDOW",
    "FeishuAPI",
    "FeishuError",
    "FeishuRateLimited",
    "FeishuUnavailable",
]
