"""A local HTTP server that plays Feishu's open API, for tests and benchmarks.

A real HTTP server on 127.0.0.1 (random port, own thread). Point the bot at it with
`FEISHU_API_URL=fake.base_url`; `lark-oapi` then talks to it exactly as to Feishu. Every
call is recorded and answered the way Feishu answers (`{"code": 0, "msg": "success",
"data": {...}}`, JSON even for errors), and the fake keeps what a user would see: the
messages in each chat and thread, reactions, and CardKit cards with their text.

Answered: the tenant access token (`/auth/v3/tenant_access_token/internal`, checking the
app id and secret), the long connection's endpoint (`/callback/ws/endpoint`, pointing at
`ws`, a `FeishuLongConnectionServer`, when one is attached), `/bot/v3/info`; messages:
send, reply (with `reply_in_thread` and `uuid`: one message per uuid for `uuid_window`
seconds, Feishu's hour; `pass_time(seconds)` ages the uuids kept), patch, list a
thread; reactions add (no uuid: each add is another reaction), list and delete; contact
user get; CardKit card create, full update, element content (sequence numbers must
increase; a repeated uuid is applied once) and settings. Every call but the token's
needs a valid `Authorization: Bearer` token (else code 99991663, or 99991661 without one).

As Feishu does: a reply in a thread to a message of a chat that does not allow thread
replies (`refuse_threads(chat_id)`) answers 230071, to an aggregated (merged) message
(`add_message(..., aggregated=True)`) 230072; a card's streaming mode closes itself
`streaming_window` seconds (600, Feishu's ten minutes) after it was last turned on, and
a content update then answers 200850 ("Card streaming timeout"), or 300309 once the bot
ended streaming.

Recording: `calls`, `calls_to(kind)`, `wait_for(kind, count=1, timeout=5, where=None,
ok=False)`, `replies_to(message_id)` (the bot's replies to a message, as shown now),
`card(card_id)`, `reactions(message_id)`, `in_chat(chat_id)` (the bot's messages in a
chat, replies or not), `token_requests`. Kinds: token, ws_endpoint, bot_info, send,
reply, patch, list, react, react_list, unreact, user, card_create, card_update, card_text,
card_settings.

Steering: `expire_tokens()` (issued tokens become invalid: the next call gets 99991663),
`rate_limit(kind, times=1, code=99991400, status=400, reset=1)` (Feishu's frequency limit,
HTTP 400 and `x-ogw-ratelimit-reset`), `fail(kind, code, msg, times=1)`, `delay(kind,
seconds, times=None)`, `broken(kind, times=1)` (an HTML error page, as a proxy sends),
`lose(kind, times=1)` (the call is done, then its answer lost to an error page),
`take_then_reset(kind, times=1)` (the call is done, then the connection is reset without
an answer: a read error, the client cannot know whether it was acted on);
`add_user(open_id, name, city, country)`, `add_message(...)` seed state.
"""

from __future__ import annotations

import itertools
import json
import re
import socket
import struct
import threading
import time
import uuid as uuidlib
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.support.http import JSONHandler, LocalServer

BOT_OPEN_ID = "ou_bot0000travel"


@dataclass
class FeishuCall:
    """One request to the fake."""

    kind: str
    method: str
    path: str
    query: dict[str, str]
    body: dict[str, Any]
    headers: dict[str, str]
    params: dict[str, str] = field(default_factory=dict)
    at: float = field(default_factory=time.monotonic)
    answer: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.answer.get("status") == 200 and self.answer.get("code") == 0

    @property
    def content(self) -> dict[str, Any]:
        """The message content (`content` is a JSON string in Feishu's bodies)."""
        raw = self.body.get("content")
        return json.loads(raw) if isinstance(raw, str) else {}


_ROUTES: list[tuple[str, re.Pattern[str], str]] = [
    ("POST", re.compile(r"/open-apis/auth/v3/tenant_access_token/internal"), "token"),
    ("POST", re.compile(r"/callback/ws/endpoint"), "ws_endpoint"),
    ("GET", re.compile(r"/open-apis/bot/v3/info"), "bot_info"),
    ("POST", re.compile(r"/open-apis/im/v1/messages"), "send"),
    ("GET", re.compile(r"/open-apis/im/v1/messages"), "list"),
    ("POST", re.compile(r"/open-apis/im/v1/messages/(?P<id>[^/]+)/reply"), "reply"),
    ("PATCH", re.compile(r"/open-apis/im/v1/messages/(?P<id>[^/]+)"), "patch"),
    ("POST", re.compile(r"/open-apis/im/v1/messages/(?P<id>[^/]+)/reactions"), "react"),
    ("GET", re.compile(r"/open-apis/im/v1/messages/(?P<id>[^/]+)/reactions"), "react_list"),
    (
        "DELETE",
        re.compile(r"/open-apis/im/v1/messages/(?P<id>[^/]+)/reactions/(?P<rid>[^/]+)"),
        "unreact",
    ),
    ("GET", re.compile(r"/open-apis/contact/v3/users/(?P<id>[^/]+)"), "user"),
    ("POST", re.compile(r"/open-apis/cardkit/v1/cards"), "card_create"),
    ("PUT", re.compile(r"/open-apis/cardkit/v1/cards/(?P<id>[^/]+)"), "card_update"),
    (
        "PUT",
        re.compile(r"/open-apis/cardkit/v1/cards/(?P<id>[^/]+)/elements/(?P<eid>[^/]+)/content"),
        "card_text",
    ),
    ("PATCH", re.compile(r"/open-apis/cardkit/v1/cards/(?P<id>[^/]+)/settings"), "card_settings"),
]
SEQUENCE_ERROR = 300317
STREAMING_TIMEOUT = 200850
STREAMING_CLOSED = 300309
CHAT_REFUSES_THREADS = 230071
AGGREGATED_REFUSES_THREADS = 230072


class FakeFeishuAPI(LocalServer):
    """The fake open API; use as a context manager (or `start`/`close`)."""

    def __init__(
        self,
        *,
        app_id: str = "cli_test",
        app_secret: str = "secret-test",
        bot_open_id: str = BOT_OPEN_ID,
        token_expire: int = 7200,
    ) -> None:
        super().__init__()
        self.handler = _Handler
        self.app_id = app_id
        self.app_secret = app_secret
        self.bot_open_id = bot_open_id
        self.token_expire = token_expire
        self.ws: Any = None  # a FeishuLongConnectionServer, for `/callback/ws/endpoint`
        self._lock = threading.Condition()
        self._calls: list[FeishuCall] = []
        self._tokens: set[str] = set()
        self._ids = itertools.count(1)
        self.messages: dict[str, dict[str, Any]] = {}
        self._uuids: dict[str, tuple[str, float]] = {}  # uuid: message id, when sent
        self.uuid_window = 3600.0  # seconds a message's uuid is kept (Feishu: one hour)
        self._reactions: dict[str, dict[str, str]] = defaultdict(dict)
        self._users: dict[str, dict[str, Any]] = {}
        self._cards: dict[str, dict[str, Any]] = {}
        self._steer: dict[str, list[Callable[[FeishuCall], tuple[int, dict[str, Any]] | None]]]
        self._steer = defaultdict(list)
        self._delays: dict[str, tuple[float, int | None]] = {}
        self._threadless: set[str] = set()  # chats that refuse replies in threads
        self.streaming_window = 600.0  # seconds a card streams after streaming was turned on

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # -- recording ------------------------------------------------------------------------

    @property
    def calls(self) -> list[FeishuCall]:
        with self._lock:
            return list(self._calls)

    def calls_to(self, kind: str, *, ok: bool = False) -> list[FeishuCall]:
        with self._lock:
            return [c for c in self._calls if c.kind == kind and (c.ok or not ok)]

    @property
    def token_requests(self) -> int:
        return len(self.calls_to("token"))

    def wait_for(
        self,
        kind: str,
        count: int = 1,
        timeout: float = 5.0,
        where: Callable[[FeishuCall], bool] | None = None,
        *,
        ok: bool = False,
    ) -> list[FeishuCall]:
        """Block until `count` calls of `kind` (matching `where`, answered ok) arrived."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                found = [
                    c
                    for c in self._calls
                    if c.kind == kind and (where is None or where(c)) and (c.ok or not ok)
                ]
                if len(found) >= count:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    seen = [(c.kind, c.answer.get("code")) for c in self._calls]
                    raise AssertionError(
                        f"expected {count} {kind} call(s), got {len(found)}: {seen}"
                    )
                self._lock.wait(min(left, 0.1))

    def replies_to(self, message_id: str) -> list[dict[str, Any]]:
        """The bot's replies to a message, oldest first, as they look now."""
        with self._lock:
            return [dict(m) for m in self.messages.values() if m.get("parent_id") == message_id]

    def sent_to(self, open_id: str) -> list[dict[str, Any]]:
        """Messages the bot sent to a person directly."""
        with self._lock:
            return [dict(m) for m in self.messages.values() if m.get("receive_id") == open_id]

    def in_chat(self, chat_id: str) -> list[dict[str, Any]]:
        """The bot's messages in a chat (replies and new messages), oldest first."""
        with self._lock:
            return [
                dict(m)
                for m in self.messages.values()
                if m.get("chat_id") == chat_id and m["sender"].get("sender_type") == "app"
            ]

    def card(self, card_id: str) -> dict[str, Any]:
        with self._lock:
            return json.loads(json.dumps(self._cards[card_id]))

    def reactions(self, message_id: str) -> set[str]:
        with self._lock:
            return set(self._reactions.get(message_id, {}).values())

    # -- steering and state -----------------------------------------------------------------

    def expire_tokens(self) -> None:
        with self._lock:
            self._tokens.clear()

    def rate_limit(
        self,
        kind: str,
        times: int = 1,
        *,
        code: int = 99991400,
        status: int = 400,
        reset: float = 1,
    ) -> None:
        body = {"code": code, "msg": "request trigger frequency limit"}
        headers = {"x-ogw-ratelimit-reset": f"{reset:g}"}
        self._push(kind, times, lambda call: (status, {**body, "_headers": headers}))

    def fail(
        self, kind: str, code: int = 1500, msg: str = "internal error", times: int = 1
    ) -> None:
        self._push(kind, times, lambda call: (400, {"code": code, "msg": msg}))

    def broken(self, kind: str, times: int = 1) -> None:
        self._push(kind, times, lambda call: (502, {"_html": "<html>Bad Gateway</html>"}))

    def lose(self, kind: str, times: int = 1) -> None:
        """Do what the next `times` calls ask, then lose the answer (an error page)."""

        def done_then_lost(call: FeishuCall) -> tuple[int, dict[str, Any]]:
            self._serve_call(call)
            return 502, {"_html": "<html>Gateway Timeout</html>"}

        self._push(kind, times, done_then_lost)

    def take_then_reset(self, kind: str, times: int = 1) -> None:
        """Do what the next `times` calls ask, then reset the connection unanswered."""

        def done_then_reset(call: FeishuCall) -> tuple[int, dict[str, Any]]:
            self._serve_call(call)
            return 0, {"_reset": True}

        self._push(kind, times, done_then_reset)

    def pass_time(self, seconds: float) -> None:
        """Age the messages' uuids by `seconds`, as if sent that much earlier."""
        with self._lock:
            self._uuids = {k: (m, at - seconds) for k, (m, at) in self._uuids.items()}

    def delay(self, kind: str, seconds: float, times: int | None = None) -> None:
        with self._lock:
            self._delays[kind] = (seconds, times)

    def _push(self, kind: str, times: int, answer: Callable[[FeishuCall], Any]) -> None:
        with self._lock:
            self._steer[kind].extend([answer] * times)

    def refuse_threads(self, chat_id: str) -> None:
        """The chat does not allow replies in threads (Feishu's 230071)."""
        with self._lock:
            self._threadless.add(chat_id)

    def add_user(self, open_id: str, *, name: str = "", city: str = "", country: str = "") -> None:
        """A person as the contact API documents them (no time zone: it has none)."""
        with self._lock:
            self._users[open_id] = {
                "open_id": open_id,
                "name": name or open_id,
                "city": city,
                "country": country,
            }

    def add_message(
        self,
        message_id: str,
        *,
        chat_id: str,
        sender: str,
        text: str = "",
        msg_type: str = "text",
        content: dict[str, Any] | None = None,
        root_id: str = "",
        thread_id: str = "",
        mentions: list[dict[str, Any]] | None = None,
        aggregated: bool = False,
    ) -> None:
        """A person's message (the bot replies to it; a thread's list shows it);
        `aggregated`: a merged message, which refuses replies in its thread."""
        with self._lock:
            self.messages[message_id] = {
                "message_id": message_id,
                "chat_id": chat_id,
                "msg_type": msg_type,
                "content": content if content is not None else {"text": text},
                "root_id": root_id,
                "parent_id": root_id,
                "thread_id": thread_id,
                "sender": {"id": sender, "id_type": "open_id", "sender_type": "user"},
                "mentions": mentions or [],
                "create_time": str(int(time.time() * 1000) + next(self._ids)),
                "aggregated": aggregated,
            }

    # -- serving ----------------------------------------------------------------------------

    def _record(self, call: FeishuCall) -> None:
        with self._lock:
            self._calls.append(call)
            self._lock.notify_all()

    def _answered(self, call: FeishuCall, status: int, body: dict[str, Any]) -> None:
        with self._lock:
            call.answer.update(status=status, code=body.get("code"), body=body)
            self._lock.notify_all()

    def _steered(self, call: FeishuCall) -> tuple[int, dict[str, Any]] | None:
        with self._lock:
            delay = self._delays.get(call.kind)
            if delay is not None:
                seconds, times = delay
                if times is not None:
                    self._delays[call.kind] = (seconds, times - 1) if times > 1 else (0.0, 0)
            queued = self._steer[call.kind]
            answer = queued.pop(0) if queued else None
        if delay is not None and delay[0] > 0 and self.closing.wait(delay[0]):
            return 503, {"code": 1, "msg": "closing"}
        return answer(call) if answer is not None else None

    def _answer(self, call: FeishuCall) -> tuple[int, dict[str, Any]]:
        steered = self._steered(call)
        if steered is not None:
            return steered
        return self._serve_call(call)

    def _serve_call(self, call: FeishuCall) -> tuple[int, dict[str, Any]]:
        if call.kind == "token":
            return self._token(call)
        if call.kind == "ws_endpoint":
            return self._ws_endpoint(call)
        auth = call.headers.get("authorization", "")
        token = auth[7:] if auth.lower().startswith("bearer ") else ""
        with self._lock:
            valid = token in self._tokens
        if not token or token == "None":
            return 400, {"code": 99991661, "msg": "Missing access token for authorization."}
        if not valid:
            return 400, {"code": 99991663, "msg": "Invalid access token for authorization."}
        return getattr(self, f"_{call.kind}")(call)

    def _token(self, call: FeishuCall) -> tuple[int, dict[str, Any]]:
        if (call.body.get("app_id"), call.body.get("app_secret")) != (self.app_id, self.app_secret):
            return 400, {"code": 10014, "msg": "app secret invalid"}
        token = f"t-{uuidlib.uuid4().hex}"
        with self._lock:
            self._tokens.add(token)
        body = {"code": 0, "msg": "ok", "tenant_access_token": token, "expire": self.token_expire}
        return 200, body

    def _ws_endpoint(self, call: FeishuCall) -> tuple[int, dict[str, Any]]:
        if (call.body.get("AppID"), call.body.get("AppSecret")) != (self.app_id, self.app_secret):
            return 200, {"code": 10014, "msg": "app secret invalid"}
        if self.ws is None:
            return 200, {"code": 1, "msg": "system busy"}
        return 200, {"code": 0, "msg": "ok", "data": self.ws.endpoint()}

    def _bot_info(self, call: FeishuCall) -> tuple[int, dict[str, Any]]:
        bot = {"activate_status": 2, "app_name": "TravelBot", "open_id": self.bot_open_id}
        return 200, {"code": 0, "msg": "ok", "bot": bot}

    def _new_message(self, call: FeishuCall, **fields: Any) -> tuple[int, dict[str, Any]]:
        msg_type = str(call.body.get("msg_type") or "")
        try:
            content = json.loads(str(call.body.get("content")))
        except ValueError:
            return 400, {"code": 230001, "msg": "invalid message content"}
        if msg_type == "interactive" and content.get("type") == "card":
            card_id = str((content.get("data") or {}).get("card_id") or "")
            with self._lock:
                if card_id not in self._cards:
                    return 400, {"code": 230099, "msg": "card not found"}
        key = call.body.get("uuid")
        with self._lock:
            kept = self._uuids.get(key) if key else None
            if kept and time.monotonic() - kept[1] < self.uuid_window:  # the same message
                return 200, {"code": 0, "msg": "success", "data": _api(self.messages[kept[0]])}
            message_id = f"om_bot{next(self._ids):06d}"
            message = {
                "message_id": message_id,
                "msg_type": msg_type,
                "content": content,
                "sender": {"id": "cli_bot", "id_type": "app_id", "sender_type": "app"},
                "create_time": str(int(time.time() * 1000)),
                **fields,
            }
            self.messages[message_id] = message
            if key:
                self._uuids[key] = (message_id, time.monotonic())
        return 200, {"code": 0, "msg": "success", "data": _api(message)}

    def _send(self, call: FeishuCall) -> tuple[int, dict[str, Any]]:
        kind = call.query.get("receive_id_type", "")
        receive_id = str(call.body.get("receive_id") or "")
        if kind not in ("open_id", "chat_id", "user_id", "union_id", "email") or not receive_id:
            return 400, {"code": 99992402, "msg": "field validation failed"}
        chat = receive_id if kind == "chat_id" else f"oc_p2p_{receive_id}"
        return self._new_message(call, receive_id=receive_id, chat_id=chat)

    def _reply(self, call: FeishuCall) -> tuple[int, dict[str, Any]]:
        parent_id = call.params["id"]
        with self._lock:
            parent = self.messages.get(parent_id)
            if parent is None:
                return 400, {"code": 230011, "msg": "the message was withdrawn or not found"}
            in_thread = bool(call.body.get("reply_in_thread"))
            if in_thread and parent.get("chat_id") in self._threadless:
                return 400, {
                    "code": CHAT_REFUSES_THREADS,
                    "msg": "The group to which the message belongs does not support reply "
                    "in thread.",
                }
            if in_thread and parent.get("aggregated"):
                return 400, {
                    "code": AGGREGATED_REFUSES_THREADS,
                    "msg": "Aggregated messages do not support reply in thread.",
                }
            thread = parent.get("thread_id") or ""
            if not thread and in_thread:
                thread = parent["thread_id"] = f"omt_{uuidlib.uuid4().hex[:12]}"
        return self._new_message(
            call,
            parent_id=parent_id,
            root_id=parent.get("root_id") or parent_id,
            thread_id=thread,
            chat_id=parent.get("chat_id"),
        )

    def _patch(self, call: FeishuCall) -> tuple[int, dict[str, Any]]:
        with self._lock:
            message = self.messages.get(call.params["id"])
            if message is None or message.get("msg_type") != "interactive":
                return 400, {"code": 230001, "msg": "not a card message"}
            message["content"] = json.loads(str(call.body.get("content")))
        return 200, {"code": 0, "msg": "success", "data": {}}

    def _list(self, call: FeishuCall) -> tuple[int, dict[str, Any]]:
        thread = call.query.get("container_id", "")
        with self._lock:
            found = [
                _api(m)
                for m in self.messages.values()
                if call.query.get("container_id_type") == "thread" and m.get("thread_id") == thread
            ]
        for item in found:
            item["mentions"] = [
                {"key": x["key"], "id": x["id"]["open_id"], "id_type": "open_id", "name": x["name"]}
                for x in item.get("mentions") or []
            ]
        return 200, {"code": 0, "msg": "success", "data": {"has_more": False, "items": found}}

    def _react(self, call: FeishuCall) -> tuple[int, dict[str, Any]]:
        emoji = str(((call.body.get("reaction_type") or {}).get("emoji_type")) or "")
        reaction_id = f"r_{next(self._ids)}"
        with self._lock:
            if call.params["id"] not in self.messages:
                return 400, {"code": 231003, "msg": "message not found"}
            self._reactions[call.params["id"]][reaction_id] = emoji
        data = {"reaction_id": reaction_id, "reaction_type": {"emoji_type": emoji}}
        return 200, {"code": 0, "msg": "success", "data": data}

    def _react_list(self, call: FeishuCall) -> tuple[int, dict[str, Any]]:
        """A message's reactions, the bot's own (`operator_type` app), of one emoji type
        when `reaction_type` names it, oldest first."""
        wanted = call.query.get("reaction_type")
        with self._lock:
            if call.params["id"] not in self.messages:
                return 400, {"code": 231003, "msg": "message not found"}
            found = list(self._reactions.get(call.params["id"], {}).items())
        items = [
            {
                "reaction_id": reaction_id,
                "operator": {"operator_id": self.app_id, "operator_type": "app"},
                "reaction_type": {"emoji_type": emoji},
            }
            for reaction_id, emoji in found
            if not wanted or emoji == wanted
        ]
        data = {"items": items, "has_more": False, "page_token": ""}
        return 200, {"code": 0, "msg": "success", "data": data}

    def _unreact(self, call: FeishuCall) -> tuple[int, dict[str, Any]]:
        with self._lock:
            emoji = self._reactions[call.params["id"]].pop(call.params["rid"], None)
        if emoji is None:
            return 400, {"code": 231004, "msg": "reaction not found"}
        return 200, {"code": 0, "msg": "success", "data": {"reaction_id": call.params["rid"]}}

    def _user(self, call: FeishuCall) -> tuple[int, dict[str, Any]]:
        with self._lock:
            user = self._users.get(call.params["id"])
        if user is None:
            return 400, {"code": 41050, "msg": "no user authority error"}
        return 200, {"code": 0, "msg": "success", "data": {"user": user}}

    def _card_create(self, call: FeishuCall) -> tuple[int, dict[str, Any]]:
        try:
            card = json.loads(str(call.body.get("data")))
        except ValueError:
            return 400, {"code": 300001, "msg": "invalid card json"}
        elements = _elements(card)
        card_id = f"card_{next(self._ids)}"
        with self._lock:
            self._cards[card_id] = {
                "card": card,
                "elements": elements,
                "streaming": bool((card.get("config") or {}).get("streaming_mode")),
                "streaming_since": time.monotonic(),
                "sequence": 0,
                "uuids": [],
                "updates": [],
            }
        return 200, {"code": 0, "msg": "success", "data": {"card_id": card_id}}

    def _card_sequenced(self, call: FeishuCall, apply: Callable[[dict[str, Any]], None]) -> Any:
        with self._lock:
            card = self._cards.get(call.params["id"])
            if card is None:
                return 400, {"code": 300002, "msg": "card not found"}
            key, sequence = call.body.get("uuid"), int(call.body.get("sequence") or 0)
            if key and key in card["uuids"]:
                return 200, {"code": 0, "msg": "success", "data": {}}
            if sequence <= card["sequence"]:
                return 400, {"code": SEQUENCE_ERROR, "msg": "sequence number compare failed"}
            card["sequence"] = sequence
            card["uuids"].append(key)
            apply(card)
        return 200, {"code": 0, "msg": "success", "data": {}}

    def _card_text(self, call: FeishuCall) -> tuple[int, dict[str, Any]]:
        def apply(card: dict[str, Any]) -> None:
            card["elements"][call.params["eid"]] = call.body.get("content")
            card["updates"].append((call.body.get("sequence"), call.body.get("content")))

        with self._lock:
            card = self._cards.get(call.params["id"])
            if card is not None and card["streaming"]:
                if time.monotonic() - card["streaming_since"] > self.streaming_window:
                    card["streaming"] = False  # Feishu closed it: ten minutes are up
                    return 400, {"code": STREAMING_TIMEOUT, "msg": "Card streaming timeout"}
            elif card is not None:
                return 400, {"code": STREAMING_CLOSED, "msg": "Card streaming closed"}
            if card is not None and call.params["eid"] not in card["elements"]:
                return 400, {"code": 300301, "msg": "element not found"}
        result: tuple[int, dict[str, Any]] = self._card_sequenced(call, apply)
        return result

    def _card_update(self, call: FeishuCall) -> tuple[int, dict[str, Any]]:
        """A full update: the card entity becomes the card JSON sent (`card.data`)."""
        try:
            card_json = json.loads(str((call.body.get("card") or {}).get("data")))
        except ValueError:
            return 400, {"code": 200220, "msg": "Failed to generate card content"}

        def apply(card: dict[str, Any]) -> None:
            card["card"] = card_json
            card["elements"] = _elements(card_json)
            streaming = bool((card_json.get("config") or {}).get("streaming_mode"))
            if streaming and not card["streaming"]:
                card["streaming_since"] = time.monotonic()
            card["streaming"] = streaming
            card["updates"].append((call.body.get("sequence"), card["elements"]))

        result: tuple[int, dict[str, Any]] = self._card_sequenced(call, apply)
        return result

    def _card_settings(self, call: FeishuCall) -> tuple[int, dict[str, Any]]:
        settings = json.loads(str(call.body.get("settings") or "{}"))

        def apply(card: dict[str, Any]) -> None:
            mode = (settings.get("config") or {}).get("streaming_mode")
            if mode is not None:
                card["streaming"] = bool(mode)
                if mode:  # turned on (again): another ten minutes
                    card["streaming_since"] = time.monotonic()

        result: tuple[int, dict[str, Any]] = self._card_sequenced(call, apply)
        return result


def _elements(card: dict[str, Any]) -> dict[str, Any]:
    """Every element with an id, at any depth (a collapsible panel holds elements of its
    own; element ids are unique in a card), by id: its content."""
    found: dict[str, Any] = {}
    todo = list((card.get("body") or {}).get("elements", []))
    while todo:
        element = todo.pop(0)
        if element.get("element_id"):
            found[element["element_id"]] = element.get("content", "")
        todo.extend(element.get("elements") or [])
        for column in element.get("columns") or []:
            todo.extend(column.get("elements") or [])
    return found


def _route(method: str, path: str) -> tuple[str, dict[str, str]] | None:
    """The kind of call a request is, and its path parameters."""
    for verb, pattern, kind in _ROUTES:
        match = pattern.fullmatch(path)
        if verb == method and match:
            return kind, {k: v for k, v in match.groupdict().items() if v}
    return None


def _api(message: dict[str, Any]) -> dict[str, Any]:
    """A stored message as the API shows it: the content a JSON string in `body`."""
    hidden = ("content", "receive_id", "aggregated")
    shown = {k: v for k, v in message.items() if k not in hidden}
    shown["body"] = {"content": json.dumps(message["content"], ensure_ascii=False)}
    return shown


class _Handler(JSONHandler):
    owner: FakeFeishuAPI
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def do_PUT(self) -> None:
        self._serve("PUT")

    def do_PATCH(self) -> None:
        self._serve("PATCH")

    def do_DELETE(self) -> None:
        self._serve("DELETE")

    def _serve(self, method: str) -> None:
        url = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:  # the SDK sends JSON without a Content-Type for the token request
            body = json.loads(raw) if raw else {}
        except ValueError:
            body = {}
        route = _route(method, url.path)
        if route is None:
            self.send_json(404, {"code": 404, "msg": f"no route {method} {url.path}"})
            return
        kind, params = route
        call = FeishuCall(
            kind=kind,
            method=method,
            path=url.path,
            query={k: v[0] for k, v in parse_qs(url.query).items()},
            body=body if isinstance(body, dict) else {},
            headers={k.lower(): v for k, v in self.headers.items()},
            params=params,
        )
        self.owner._record(call)
        status, answer = self.owner._answer(call)
        self.owner._answered(call, status, answer)
        if answer.get("_reset"):  # taken, never answered. Linger 0: a reset, not a close.
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True
            return
        if "_html" in answer:
            data = answer["_html"].encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        headers = answer.pop("_headers", None)
        self.send_json(status, answer, headers)


__all__ = [
    "AGGREGATED_REFUSES_THREADS",
    "BOT_OPEN_ID",
    "CHAT_REFUSES_THREADS",
    "SEQUENCE_ERROR",
    "STREAMING_CLOSED",
    "STREAMING_TIMEOUT",
    "FakeFeishuAPI",
    "FeishuCall",
]
