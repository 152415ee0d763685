"""A local HTTP server that plays DingTalk's OpenAPI and the session webhooks, for tests.

A real HTTP server on 127.0.0.1 (random port, own thread). Point the bot at
`fake.base_url` (`DINGTALK_API_URL`); it answers the way DingTalk does:

- `POST /v1.0/oauth2/accessToken` (`appKey`/`appSecret` checked): a fresh token each
  time, `expireIn` = `token_lifetime`; `expire_tokens()` makes every issued token
  answer 401 `InvalidAuthentication` from then on;
- `POST /v1.0/gateway/connections/open` (credentials checked, subscriptions recorded):
  the stream gateway's endpoint (`gateway`, a `FakeGateway`) and a ticket;
- `POST /v1.0/robot/oToMessages/batchSend` and `/v1.0/robot/groupMessages/send`: token
  checked, `msgParam` must be a JSON *string*; answered with a `processQueryKey`;
- `POST /robot/sendBySession?session=ID`: a message's session webhook
  (`new_session(...)` hands one out); an unknown or expired session answers
  `{"errcode": 300001, "errmsg": "session 不存在"}`, as DingTalk does;
- AI cards: `POST /v1.0/card/instances/createAndDeliver`, `PUT /v1.0/card/streaming`
  and `PUT /v1.0/card/instances` (`tests.support.dingtalk_cards`: templates, `cards`).

Everything the robot sent lands in `sent` as a `Sent` (how, where, what), whatever way
it took; `requests` lists the path of every request the server received at all.
Steering: `rate_limit(kind, times)` answers 403 `Forbidden.AccessDenied.QpsLimitForApi`;
`fail(kind, times, status)` answers an error; `refuse(kind, code, status)` answers with
DingTalk's error `code`; `webhook_too_fast(times)` answers a webhook with errcode
130101; `invalid_staff(times)` answers batchSend with the users in `invalidStaffIdList`;
`flow_control(times)` answers batchSend with the user in `flowControlledStaffIdList`;
`down(True)` answers every robot send and webhook with 503. `kind` is "otm"
(one-to-one), "group", "webhook", "token", "card_create", "card_stream" or
"card_update". Transport faults:
`refuse_connections()` / `accept_connections()` close the port and open it again (a
client is refused: nothing reaches DingTalk);
`take_then_fail(kind, "reset" | "hang" | "500")` takes the next message of `kind`
("webhook", "otm" or "group": it is in `sent`, the chat shows it; "card_create": the card
is in `cards`) and then resets the connection, answers nothing until `hang_seconds`
have passed, or answers HTTP 500 ("500").
"""

from __future__ import annotations

import itertools
import json
import socket
import struct
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Self
from urllib.parse import parse_qs, urlsplit

from tests.support.dingtalk_cards import CardMethods
from tests.support.dingtalk_gateway import FakeGateway
from tests.support.http import JSONHandler, LocalServer

CLIENT_ID = "dingtestappkey"
CLIENT_SECRET = "test-app-secret-5c2e"
QPS_LIMIT = "Forbidden.AccessDenied.QpsLimitForApi"


@dataclass(frozen=True)
class Sent:
    """One message the robot sent, whichever way."""

    via: str  # "webhook" or "openapi"
    conversation: str  # the chat's id ("" for a one-to-one OpenAPI send)
    users: tuple[str, ...]  # batchSend's staff ids
    kind: str  # "markdown", "actionCard" or "text"
    title: str
    text: str
    buttons: tuple[tuple[str, str], ...] = ()
    at: tuple[str, ...] = ()
    at_time: float = field(default_factory=time.monotonic)

    @property
    def button_urls(self) -> list[str]:
        return [url for _, url in self.buttons]


@dataclass
class _Session:
    conversation: str
    expires_ms: int


class FakeDingTalkAPI(CardMethods, LocalServer):
    """The fake OpenAPI server; use as a context manager (or `start`/`close`)."""

    def __init__(self, *, client_id: str = CLIENT_ID, client_secret: str = CLIENT_SECRET) -> None:
        super().__init__()
        self.handler = _Handler
        self.client_id = client_id
        self.client_secret = client_secret
        self.token_lifetime = 7200
        self.gateway = FakeGateway()
        self.subscriptions: list[list[dict[str, Any]]] = []
        self.tokens_issued: list[str] = []
        self._requests: list[str] = []
        self._valid_tokens: set[str] = set()
        self._sessions: dict[str, _Session] = {}
        self._sent: list[Sent] = []
        self._rejected: list[tuple[str, int]] = []
        self._steer: dict[str, list[tuple[int, dict[str, Any]]]] = defaultdict(list)
        self._down = False
        self._faults: dict[str, list[str]] = defaultdict(list)
        self.hang_seconds = 3.0
        self._lock = threading.Condition()
        self._ids = itertools.count(1)
        self._init_cards()

    def start(self) -> Self:
        self.gateway.start()
        return super().start()

    def close(self) -> None:
        self.gateway.close()
        super().close()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # -- sessions and tokens --------------------------------------------------------------------

    def new_session(self, conversation: str, *, expires_in: float = 5400) -> tuple[str, int]:
        """A session webhook for `conversation`: (URL, expiry in epoch ms)."""
        session = uuid.uuid4().hex[:16]
        expires_ms = int((time.time() + expires_in) * 1000)
        with self._lock:
            self._sessions[session] = _Session(conversation, expires_ms)
        return f"{self.base_url}/robot/sendBySession?session={session}", expires_ms

    def end_sessions(self) -> None:
        """Every session webhook handed out so far stops working ("session 不存在")."""
        with self._lock:
            self._sessions.clear()

    def expire_tokens(self) -> None:
        with self._lock:
            self._valid_tokens.clear()

    # -- steering ------------------------------------------------------------------------------

    def rate_limit(self, kind: str, times: int = 1) -> None:
        self._push(kind, times, 403, {"code": QPS_LIMIT, "message": "qps limit", "requestid": "r"})

    def fail(self, kind: str, times: int = 1, status: int = 500) -> None:
        self._push(kind, times, status, {"code": "ServiceUnavailable", "message": "try later"})

    def refuse(self, kind: str, code: str, status: int = 400, times: int = 1) -> None:
        """Answer the next `times` calls of `kind` with DingTalk's error `code`."""
        self._push(kind, times, status, {"code": code, "message": code, "requestid": "r"})

    def webhook_too_fast(self, times: int = 1) -> None:
        """Answer the next `times` session-webhook posts as DingTalk does a robot sending
        faster than it allows: HTTP 200 with errcode 130101 (nothing posted)."""
        body = {"errcode": 130101, "errmsg": "send too fast, exceed 20 times per minute"}
        self._push("webhook", times, 200, body)

    def invalid_staff(self, times: int = 1) -> None:
        """Answer batchSend with its users in `invalidStaffIdList` (outside the app's
        visible range, or gone)."""
        self._push("otm", times, 200, {"invalid_staff": True})

    def flow_control(self, times: int = 1) -> None:
        self._push("otm", times, 200, {"flow_controlled": True})

    def take_then_fail(self, kind: str, fault: str, times: int = 1) -> None:
        """The next `times` messages of `kind` are taken, then the connection is reset
        ("reset"), left without an answer for `hang_seconds` ("hang"), or answered with
        HTTP 500 ("500": DingTalk failed after sending it)."""
        assert fault in ("reset", "hang", "500")
        assert kind in ("webhook", "otm", "group", "card_create")
        with self._lock:
            self._faults[kind].extend([fault] * times)

    def down(self, value: bool = True) -> None:
        with self._lock:
            self._down = value

    def _push(self, kind: str, times: int, status: int, body: dict[str, Any]) -> None:
        with self._lock:
            self._steer[kind].extend([(status, body)] * times)

    def _steered(self, kind: str) -> tuple[int, dict[str, Any]] | None:
        with self._lock:
            if self._down and kind != "token":
                return 503, {"code": "ServiceUnavailable", "message": "down"}
            queue = self._steer.get(kind)
            return queue.pop(0) if queue else None

    # -- recording ------------------------------------------------------------------------------

    @property
    def sent(self) -> list[Sent]:
        with self._lock:
            return list(self._sent)

    @property
    def requests(self) -> list[str]:
        """The path of every request received, in order."""
        with self._lock:
            return list(self._requests)

    @property
    def rejected(self) -> list[tuple[str, int]]:
        """(kind, status) of every robot call answered with an error."""
        with self._lock:
            return list(self._rejected)

    def wait_for(
        self, count: int = 1, *, where: Callable[[Sent], bool] | None = None, timeout: float = 15.0
    ) -> list[Sent]:
        """The first `count` messages matching `where`, waiting for them (no fixed sleeps)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                found = [s for s in self._sent if where is None or where(s)]
                if len(found) >= count:
                    return found[:count]
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(
                        f"expected {count} message(s), got {len(found)}: {self._sent!r}"
                    )
                self._lock.wait(remaining)

    def _record(self, sent: Sent) -> None:
        with self._lock:
            self._sent.append(sent)
            self._lock.notify_all()

    def _reject(self, kind: str, status: int) -> None:
        with self._lock:
            self._rejected.append((kind, status))


def _from_webhook(payload: dict[str, Any], conversation: str) -> Sent:
    kind = str(payload.get("msgtype"))
    at = tuple(payload.get("at", {}).get("atUserIds") or ())
    if kind == "actionCard":
        card = payload["actionCard"]
        buttons = tuple((b["title"], b["actionURL"]) for b in card.get("btns", []))
        if card.get("singleURL"):
            buttons = ((card["singleTitle"], card["singleURL"]),)
        return Sent("webhook", conversation, (), kind, card["title"], card["text"], buttons, at)
    if kind == "markdown":
        body = payload["markdown"]
        return Sent("webhook", conversation, (), kind, body["title"], body["text"], (), at)
    return Sent("webhook", conversation, (), kind, "", str(payload.get("text", {}).get("content")))


def _from_openapi(body: dict[str, Any], conversation: str, users: tuple[str, ...]) -> Sent:
    key = str(body["msgKey"])
    param = json.loads(body["msgParam"])
    if key == "sampleMarkdown":
        return Sent("openapi", conversation, users, "markdown", param["title"], param["text"])
    if key == "sampleText":
        return Sent("openapi", conversation, users, "text", "", param["content"])
    if key == "sampleActionCard":
        buttons = ((param["singleTitle"], param["singleURL"]),)
    else:
        count = int(key.removeprefix("sampleActionCard") or 1)
        buttons = tuple(
            (param[f"actionTitle{i}"], param[f"actionURL{i}"]) for i in range(1, count + 1)
        )
    return Sent(
        "openapi", conversation, users, "actionCard", param["title"], param["text"], buttons
    )


class _Handler(JSONHandler):
    owner: FakeDingTalkAPI

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _read(self) -> tuple[Any, dict[str, Any] | None]:
        """The request's URL (recorded) and JSON body; None (answered 400) if not JSON."""
        url = urlsplit(self.path)
        with self.owner._lock:
            self.owner._requests.append(url.path)
        size = int(self.headers.get("Content-Length") or 0)
        try:
            return url, json.loads(self.rfile.read(size) or b"{}")
        except ValueError:
            self.send_json(400, {"code": "InvalidParameter", "message": "not JSON"})
            return url, None

    def do_POST(self) -> None:
        fake = self.owner
        url, body = self._read()
        if body is None:
            return
        if url.path == "/v1.0/oauth2/accessToken":
            self._token(body)
        elif url.path == "/v1.0/gateway/connections/open":
            self._open(body)
        elif url.path == "/robot/sendBySession":
            self._webhook(parse_qs(url.query).get("session", [""])[0], body)
        elif url.path == "/v1.0/robot/oToMessages/batchSend":
            self._robot_send("otm", body)
        elif url.path == "/v1.0/robot/groupMessages/send":
            self._robot_send("group", body)
        elif url.path == "/v1.0/card/instances/createAndDeliver":
            self._card("card_create", body)
        else:
            self.send_json(404, {"code": "NotFound", "message": fake.base_url + url.path})

    def do_GET(self) -> None:
        with self.owner._lock:
            self.owner._requests.append(urlsplit(self.path).path)
        self.send_json(404, {"code": "NotFound", "message": "not found"})

    def do_PUT(self) -> None:
        url, body = self._read()
        if body is None:
            return
        kinds = {"/v1.0/card/streaming": "card_stream", "/v1.0/card/instances": "card_update"}
        if url.path not in kinds:
            self.send_json(404, {"code": "NotFound", "message": url.path})
            return
        self._card(kinds[url.path], body)

    def _authorized(self, kind: str) -> bool:
        """Whether the call carries a valid access token (else it is answered 401)."""
        fake = self.owner
        token = self.headers.get("x-acs-dingtalk-access-token", "")
        with fake._lock:
            valid = token in fake._valid_tokens
        if not valid:
            fake._reject(kind, 401)
            self.send_json(401, {"code": "InvalidAuthentication", "message": "token expired"})
        return valid

    def _card(self, kind: str, body: dict[str, Any]) -> None:
        fake = self.owner
        if not self._authorized(kind):
            return
        status, answer = fake.card_call(kind, body)
        if status != 200:
            fake._reject(kind, status)
        elif self._failed_after_taking(kind):
            return
        self.send_json(status, answer)

    def _token(self, body: dict[str, Any]) -> None:
        fake = self.owner
        steered = fake._steered("token")
        if steered is not None:
            self.send_json(*steered)
            return
        if body.get("appKey") != fake.client_id or body.get("appSecret") != fake.client_secret:
            self.send_json(400, {"code": "invalidClientIdOrSecret", "message": "bad credentials"})
            return
        token = f"tok-{next(fake._ids)}-{uuid.uuid4().hex[:6]}"
        with fake._lock:
            fake.tokens_issued.append(token)
            fake._valid_tokens.add(token)
        self.send_json(200, {"accessToken": token, "expireIn": fake.token_lifetime})

    def _open(self, body: dict[str, Any]) -> None:
        fake = self.owner
        steered = fake._steered("open")
        if steered is not None:
            self.send_json(*steered)
            return
        if body.get("clientId") != fake.client_id or body.get("clientSecret") != fake.client_secret:
            self.send_json(401, {"code": "InvalidAuthentication", "message": "bad credentials"})
            return
        with fake._lock:
            fake.subscriptions.append(list(body.get("subscriptions") or []))
        ticket = fake.gateway.issue_ticket()
        self.send_json(200, {"endpoint": fake.gateway.url, "ticket": ticket})

    def _webhook(self, session_id: str, body: dict[str, Any]) -> None:
        fake = self.owner
        steered = fake._steered("webhook")
        if steered is not None:
            fake._reject("webhook", steered[0])
            self.send_json(*steered)
            return
        with fake._lock:
            session = fake._sessions.get(session_id)
        if session is None or session.expires_ms < time.time() * 1000:
            fake._reject("webhook", 200)
            self.send_json(200, {"errcode": 300001, "errmsg": "session 不存在"})
            return
        fake._record(_from_webhook(body, session.conversation))
        if not self._failed_after_taking("webhook"):
            self.send_json(200, {"errcode": 0, "errmsg": "ok"})

    def _failed_after_taking(self, kind: str) -> bool:
        """A message of `kind` was taken: reset or hang if steered to (True)."""
        fake = self.owner
        with fake._lock:
            faults = fake._faults[kind]
            fault = faults.pop(0) if faults else None
        if fault == "hang":
            fake.closing.wait(fake.hang_seconds)
        if fault is None:
            return False
        if fault == "500":  # taken, then a server error
            self.send_json(500, {"code": "InternalError", "message": "internal error"})
            return True
        # Taken, never answered: the client cannot know. Linger 0: a reset, not a close.
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True
        return True

    def _robot_send(self, kind: str, body: dict[str, Any]) -> None:
        fake = self.owner
        if not self._authorized(kind):
            return
        steered = fake._steered(kind)
        users = tuple(body.get("userIds") or ())
        if steered is not None and steered[1].get("invalid_staff"):
            fake._reject(kind, 200)
            answer = {"processQueryKey": "", "invalidStaffIdList": list(users)}
            self.send_json(200, answer | {"flowControlledStaffIdList": []})
            return
        if steered is not None and steered[1].get("flow_controlled"):
            fake._reject(kind, 200)
            self.send_json(200, {"processQueryKey": "", "flowControlledStaffIdList": list(users)})
            return
        if steered is not None:
            fake._reject(kind, steered[0])
            self.send_json(*steered)
            return
        if body.get("robotCode") != fake.client_id or not isinstance(body.get("msgParam"), str):
            self.send_json(400, {"code": "InvalidParameter", "message": "robotCode or msgParam"})
            return
        conversation = str(body.get("openConversationId") or "")
        fake._record(_from_openapi(body, conversation, users))
        if self._failed_after_taking(kind):
            return
        answer: dict[str, Any] = {"processQueryKey": uuid.uuid4().hex}
        if kind == "otm":
            answer.update(invalidStaffIdList=[], flowControlledStaffIdList=[])
        self.send_json(200, answer)


__all__ = ["CLIENT_ID", "CLIENT_SECRET", "QPS_LIMIT", "FakeDingTalkAPI", "Sent"]
