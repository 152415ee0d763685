"""A local HTTP server that plays the Slack Web API, for tests and benchmarks.

A real HTTP server on 127.0.0.1 (random port, own thread). Point the bot's `WebClient`
at `fake.base_url` (`SLACK_API_URL`); every call is recorded and answered the way Slack
answers it (`{"ok": true, ...}` with plausible fields), so tests assert on what a user
would see in Slack.

    with FakeSlackAPI() as slack:
        client = WebClient(token="xoxb-test", base_url=slack.base_url)
        client.chat_postMessage(channel="D1", text="hi", thread_ts="1.0")
        [call] = slack.wait_for("chat.postMessage")
        assert call.args["thread_ts"] == "1.0"

Recording: `calls` (every call, oldest first, each with `.args`, `.headers`, `.at` and,
once answered, `.status`/`.ok`), `calls_to(method)`, `wait_for(method, count=1,
timeout=5.0, where=None, ok=False)` (waits on a condition, no fixed sleeps),
`posted(channel, thread_ts)`
(messages posted, as Slack would list them), `reactions(channel, ts)` (current
reactions), `views` (views opened/published/updated, by id), `response_calls` (what was
POSTed to a `response_url`).

Steering: `rate_limit(method, times=1, retry_after=1)` answers HTTP 429 with
`Retry-After`; `delay(method, seconds, times=None)` sleeps before answering;
`fail(method, error, times=1)` answers `{"ok": false, "error": error}`;
`fail_5xx(method, times=1, status=503, taken=False)` answers an HTTP 5xx (Slack is down
for a while; `taken`: it did what the call asks first, as a 500 may have);
`take_then_reset(method, times=1)` does what the next calls ask, then resets the
connection without an answer (Slack may have acted; the client cannot know);
`fail("response_url", error)` and `take_then_reset("response_url")` steer the next POST to
any `response_url` (refused with `RESPONSE_URL_ERRORS`' status and the error as plain text,
or shown and then reset); `handle(method, fn)` installs a custom answer
`fn(call) -> dict`; `add_user(...)`, `add_usergroup(...)`, `add_message(...)` seed
workspace state; `reset()` clears calls and steering but keeps the workspace's identity.

Methods answered out of the box: auth.test, chat.postMessage, chat.postEphemeral,
chat.update, chat.delete, chat.getPermalink, reactions.add, reactions.remove,
reactions.get, users.info, users.list, usergroups.list, usergroups.users.list,
conversations.open, conversations.info, conversations.replies, conversations.history,
views.open, views.push, views.update, views.publish, assistant.threads.setStatus,
assistant.threads.setSuggestedPrompts, assistant.threads.setTitle, apps.connections.open,
team.info, chat.startStream, chat.appendStream, chat.stopStream,
agents.sessions.setStatus, agents.sessions.rename. Anything else answers
`unknown_method`, like Slack; `forget(method)` makes a method unknown (a workspace
where it is not available).

Streaming (`chat.startStream` / `appendStream` / `stopStream`) keeps a message in the
thread whose text grows with each call (`markdown_text`, or the text of `markdown_text`
chunks) and whose `streaming` is "in_progress" until it is stopped ("completed"; the
blocks passed to `stopStream` are kept). Like Slack, it refuses a stream without
`thread_ts`, a start or an append with neither `markdown_text` nor `chunks`
(`invalid_arguments`), one in a channel without `recipient_team_id` and
`recipient_user_id` (`missing_recipient_team_id` / `missing_recipient_user_id`), more
than 12,000 characters in one call (`msg_too_long`), and appending to or stopping a
stream that is not streaming (`message_not_in_streaming_state`, e.g. stopping twice).
`stop_stream_by_user(ts)` plays the person pressing Stop (later calls answer
`stopped_by_user`); `expire_streams(seconds)` ends streams that old, as Slack does after
about five minutes (the message keeps what it had; later calls are refused).
`shown(channel, thread_ts)` lists what a person sees in a thread from the bot: posted
messages and finished streams; `wait_shown(...)` waits for them. The assistant methods
record their arguments: `statuses(channel, thread_ts)` lists the statuses set, in order;
`status_of(channel, thread_ts)` is the status a person sees now: as Slack does, a message
the bot posts or starts streaming in the thread removes it.

Socket Mode: `apps.connections.open` (called with an app-level `xapp-` token, checked
against `app_token` when set) answers `ws://127.0.0.1:PORT/socket-mode`, a websocket
served by `socket` (a `tests.support.slack_socket.SocketModeEndpoint`): it says hello,
sends envelopes (`socket.send_event(body)`, `socket.send_command(form)`) and records the
app's acks (`socket.wait_for_ack(envelope_id)`).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import socket
import struct
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Self
from urllib.parse import parse_qsl, urlsplit

from tests.support.http import JSONHandler, LocalServer
from tests.support.slack_socket import SocketModeEndpoint, is_upgrade
from tests.support.slack_streams import STREAM_TEXT_LIMIT, SessionMethods, StreamingMethods

# Form fields that carry JSON (Slack accepts both encodings for these).
# What a `response_url` answers to a refused POST (plain text, this HTTP status), as Slack's
# documentation and the SDK's tests show: an expired or overused URL, a bad message.
RESPONSE_URL_ERRORS = {
    "expired_url": 404,
    "used_url": 404,
    "invalid_blocks": 400,
    "no_text": 400,
    "msg_too_long": 400,
    "invalid_payload": 400,
}
_JSON_FIELDS = frozenset({"blocks", "attachments", "view", "metadata", "prompts", "chunks"})


@dataclass(frozen=True)
class Call:
    """One request to the fake Slack Web API."""

    method: str
    args: dict[str, Any]
    headers: dict[str, str]
    http_method: str = "POST"
    at: float = field(default_factory=time.monotonic)
    # Filled in once the fake has answered: {"status": 200, "body": {...}}.
    answer: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def status(self) -> int | None:
        """The HTTP status answered (None while the answer is pending)."""
        status = self.answer.get("status")
        return int(status) if status is not None else None

    @property
    def ok(self) -> bool:
        """Whether Slack answered `{"ok": true}` (a rate-limited or failed call is not ok)."""
        return self.status == 200 and bool(self.answer.get("body", {}).get("ok"))

    @property
    def token(self) -> str | None:
        """The bearer token sent (header or `token` argument), if any."""
        auth = self.headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            return auth[7:].strip()
        token = self.args.get("token")
        return str(token) if token else None


Handler = Callable[[Call], Mapping[str, Any]]


@dataclass
class _Steer:
    rate_limited: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    delays: dict[str, tuple[float, int | None]] = field(default_factory=dict)
    failures: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    handlers: dict[str, Handler] = field(default_factory=dict)
    unknown: set[str] = field(default_factory=set)
    resets: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    server_errors: dict[str, list[tuple[int, bool]]] = field(
        default_factory=lambda: defaultdict(list)
    )


class FakeSlackAPI(StreamingMethods, SessionMethods, LocalServer):
    """The fake Slack Web API server; use as a context manager (or `start`/`close`)."""

    def __init__(
        self,
        *,
        team_id: str = "T0TEST",
        team_domain: str = "travel-test",
        bot_user_id: str = "UBOT",
        bot_id: str = "BBOT",
        token: str | None = None,
        app_token: str | None = None,
    ) -> None:
        super().__init__()
        self.handler = _Handler
        self.team_id = team_id
        self.team_domain = team_domain
        self.bot_user_id = bot_user_id
        self.bot_id = bot_id
        self.token = token  # when set, calls with another token get `invalid_auth`
        self.app_token = app_token  # the same, for the app-level token (Socket Mode)
        self.socket = SocketModeEndpoint()
        self._lock = threading.Condition()
        self._calls: list[Call] = []
        self._response_calls: list[Call] = []
        self._steer = _Steer()
        self._users: dict[str, dict[str, Any]] = {}
        self._usergroups: dict[str, dict[str, Any]] = {}
        self._messages: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self._reactions: dict[tuple[str, str], dict[str, set[str]]] = defaultdict(dict)
        self._views: dict[str, dict[str, Any]] = {}
        self._streams: dict[str, str] = {}  # stream ts -> "in_progress" | "completed" | "stopped"
        self._status: dict[tuple[str, str], str] = {}  # (channel, thread_ts) -> status shown
        self._made: set[str] = set()  # ts of the messages the bot posted or streamed
        self._stream_started: dict[str, float] = {}
        self._stream_ttl: float | None = None
        self._sessions: dict[tuple[str, str], dict[str, Any]] = {}  # agent sessions
        self._ids = itertools.count(1)
        self._clock = time.time()

    def start(self) -> Self:
        self.socket.reopen()
        return super().start()

    def close(self) -> None:
        self.socket.close()  # websockets first, so the server's threads can finish
        super().close()

    @property
    def base_url(self) -> str:
        """The Web API base URL (what `SLACK_API_URL` is set to), ending in `/api/`."""
        return f"http://127.0.0.1:{self.port}/api/"

    def response_url(self, name: str = "") -> str:
        """A `response_url` for slash commands and actions; POSTs land in `response_calls`."""
        return f"http://127.0.0.1:{self.port}/response/{name or uuid.uuid4().hex[:8]}"

    # -- recording ------------------------------------------------------------------------

    @property
    def calls(self) -> list[Call]:
        with self._lock:
            return list(self._calls)

    def calls_to(self, method: str) -> list[Call]:
        with self._lock:
            return [c for c in self._calls if c.method == method]

    @property
    def response_calls(self) -> list[Call]:
        with self._lock:
            return list(self._response_calls)

    def wait_for(
        self,
        method: str,
        count: int = 1,
        timeout: float = 5.0,
        where: Callable[[Call], bool] | None = None,
        *,
        ok: bool = False,
    ) -> list[Call]:
        """Block until at least `count` calls of `method` (matching `where`) arrived.

        With `ok=True` only calls Slack answered successfully count (not rate-limited or
        failed ones). Returns the matching calls; raises AssertionError (listing what did
        arrive) on timeout. Use `method="response_url"` for POSTs to a response_url.
        """
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                pool = self._response_calls if method == "response_url" else self._calls
                found = [
                    c
                    for c in pool
                    if c.method == method and (where is None or where(c)) and (not ok or c.ok)
                ]
                if len(found) >= count:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    seen = [c.method for c in self._calls]
                    raise AssertionError(
                        f"expected {count} call(s) to {method}, got {len(found)}; calls: {seen}"
                    )
                self._lock.wait(min(left, 0.1))

    def posted(self, channel: str, thread_ts: str | None = None) -> list[dict[str, Any]]:
        """Messages in `channel` (only the replies of `thread_ts` when given), oldest first."""
        with self._lock:
            messages = list(self._messages.get(channel, []))
        if thread_ts is None:
            return messages
        return [m for m in messages if m.get("thread_ts") == thread_ts and m["ts"] != thread_ts]

    def statuses(self, channel: str, thread_ts: str) -> list[str]:
        """The assistant thread statuses set in a thread, oldest first ("" clears)."""
        return [
            str(c.args.get("status", ""))
            for c in self.calls_to("assistant.threads.setStatus")
            if c.ok and c.args.get("channel_id") == channel and c.args.get("thread_ts") == thread_ts
        ]

    def status_of(self, channel: str, thread_ts: str) -> str:
        """The assistant thread's status a person sees now ("": none)."""
        with self._lock:
            return self._status.get((channel, thread_ts), "")

    def _replied_in(self, channel: str, thread_ts: str | None) -> None:
        """The bot posted in a thread: its status goes (call with the lock held)."""
        if thread_ts:
            self._status.pop((channel, str(thread_ts)), None)

    def reactions(self, channel: str, ts: str) -> set[str]:
        """Names of the reactions currently on a message."""
        with self._lock:
            return set(self._reactions.get((channel, ts), {}))

    @property
    def views(self) -> dict[str, dict[str, Any]]:
        """Views opened, pushed, updated or published, by view id."""
        with self._lock:
            return dict(self._views)

    # -- steering -------------------------------------------------------------------------

    def rate_limit(self, method: str, times: int = 1, retry_after: float = 1) -> None:
        """Answer the next `times` calls of `method` with HTTP 429 and `Retry-After`."""
        with self._lock:
            self._steer.rate_limited[method].extend([retry_after] * times)

    def delay(self, method: str, seconds: float, times: int | None = None) -> None:
        """Sleep `seconds` before answering `method` (the next `times` calls, or all)."""
        with self._lock:
            self._steer.delays[method] = (seconds, times)

    def fail(self, method: str, error: str = "internal_error", times: int = 1) -> None:
        """Answer the next `times` calls of `method` with `{"ok": false, "error": error}`."""
        with self._lock:
            self._steer.failures[method].extend([error] * times)

    def fail_5xx(self, method: str, times: int = 1, status: int = 503, taken: bool = False) -> None:
        """Answer the next `times` calls of `method` with HTTP `status` (a 5xx) and Slack's
        error for it (500: `internal_error`, else `service_unavailable`). Not `taken`: Slack
        did nothing (as a 503 says); `taken`: it did what they ask first (a message is
        posted and shown), as Slack warns a 500's `internal_error` may have."""
        with self._lock:
            self._steer.server_errors[method].extend([(status, taken)] * times)

    def take_then_reset(self, method: str, times: int = 1) -> None:
        """Do what the next `times` calls of `method` ask, then reset each connection
        without an answer (a read error: Slack may have acted, the client cannot know)."""
        with self._lock:
            self._steer.resets[method] += times

    def _reset_now(self, method: str) -> bool:
        with self._lock:
            if self._steer.resets.get(method, 0) <= 0:
                return False
            self._steer.resets[method] -= 1
            return True

    def forget(self, method: str) -> None:
        """Answer `method` with `unknown_method` from now on (not available here)."""
        with self._lock:
            self._steer.unknown.add(method)

    def handle(self, method: str, fn: Handler) -> None:
        """Answer `method` with `fn(call)` (the dict is sent as JSON; add `ok` yourself)."""
        with self._lock:
            self._steer.handlers[method] = fn

    def reset(self) -> None:
        """Forget calls, messages, reactions, views and steering; keep users and groups."""
        with self._lock:
            self._calls.clear()
            self._response_calls.clear()
            self._steer = _Steer()
            self._messages.clear()
            self._reactions.clear()
            self._views.clear()
            self._streams.clear()
            self._made.clear()
            self._stream_started.clear()
            self._status.clear()
            self._sessions.clear()
            self._stream_ttl = None

    # -- workspace state --------------------------------------------------------------------

    def add_user(
        self,
        user_id: str,
        *,
        name: str | None = None,
        locale: str = "en-US",
        tz: str = "America/Los_Angeles",
        is_bot: bool = False,
        is_admin: bool = False,
        **extra: Any,
    ) -> dict[str, Any]:
        user = {
            "id": user_id,
            "team_id": self.team_id,
            "name": name or user_id.lower(),
            "real_name": name or user_id,
            "deleted": False,
            "tz": tz,
            "tz_label": tz,
            "tz_offset": 0,
            "locale": locale,
            "is_bot": is_bot,
            "is_admin": is_admin,
            "profile": {"display_name": name or user_id, "real_name": name or user_id},
            **extra,
        }
        with self._lock:
            self._users[user_id] = user
        return user

    def add_usergroup(self, group_id: str, users: Iterable[str], handle: str = "") -> None:
        with self._lock:
            self._usergroups[group_id] = {
                "id": group_id,
                "team_id": self.team_id,
                "handle": handle or group_id.lower(),
                "name": handle or group_id,
                "users": list(users),
            }

    def add_message(
        self, channel: str, text: str, *, user: str, ts: str | None = None, **extra: Any
    ) -> dict[str, Any]:
        """Seed a message (e.g. a user's, for `conversations.replies`); returns it."""
        message = {"type": "message", "user": user, "text": text, "ts": ts or self._ts()}
        message.update(extra)
        with self._lock:
            self._messages[channel].append(message)
        return message

    # -- serving ----------------------------------------------------------------------------

    def _ts(self) -> str:
        n = next(self._ids)
        return f"{self._clock + n / 1000:.6f}"

    def _record(self, call: Call, response_url: bool = False) -> None:
        with self._lock:
            (self._response_calls if response_url else self._calls).append(call)
            self._lock.notify_all()

    def _answered(self, call: Call, status: int, body: dict[str, Any]) -> None:
        with self._lock:
            call.answer.update(status=status, body=body)
            self._lock.notify_all()

    def _steering(self, method: str) -> tuple[float, float | None, str | None, Handler | None]:
        """(delay seconds, retry-after if rate limited, error if failing, custom handler)."""
        with self._lock:
            steer = self._steer
            wait = 0.0
            if method in steer.delays:
                wait, left = steer.delays[method]
                if left is not None:
                    if left <= 1:
                        del steer.delays[method]
                    else:
                        steer.delays[method] = (wait, left - 1)
            limited = steer.rate_limited.get(method)
            retry_after = limited.pop(0) if limited else None
            failures = steer.failures.get(method)
            error = failures.pop(0) if failures and retry_after is None else None
            if error is None and method in steer.unknown:
                error = "unknown_method"
            return wait, retry_after, error, steer.handlers.get(method)

    def _answer(self, call: Call) -> tuple[int, dict[str, Any], dict[str, str]]:
        wait, retry_after, error, custom = self._steering(call.method)
        if wait and self.closing.wait(wait):
            return 503, {"ok": False, "error": "service_unavailable"}, {}
        if retry_after is not None:
            return 429, {"ok": False, "error": "ratelimited"}, {"Retry-After": f"{retry_after:g}"}
        with self._lock:
            down = self._steer.server_errors.get(call.method)
            status, taken = down.pop(0) if down else (None, False)
        if status is not None:
            error = "internal_error" if status == 500 else "service_unavailable"
            if taken:
                self._answer_now(call, error=None, custom=custom)  # done, then failed
            return status, {"ok": False, "error": error}, {}
        return self._answer_now(call, error=error, custom=custom)

    def _answer_now(
        self, call: Call, *, error: str | None, custom: Handler | None
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        if call.method == "apps.connections.open":
            if call.token is not None and not call.token.startswith("xapp-"):
                return 200, {"ok": False, "error": "not_allowed_token_type"}, {}
            if self.app_token is not None and call.token != self.app_token:
                return 200, {"ok": False, "error": "invalid_auth"}, {}
        elif self.token is not None and call.method != "api.test" and call.token != self.token:
            return 200, {"ok": False, "error": "invalid_auth"}, {}
        if call.token is None and call.method not in ("api.test",):
            return 200, {"ok": False, "error": "not_authed"}, {}
        if error is not None:
            return 200, {"ok": False, "error": error}, {}
        if custom is not None:
            return 200, dict(custom(call)), {}
        answer = getattr(self, "_m_" + call.method.replace(".", "_"), None)
        if answer is None:
            return 200, {"ok": False, "error": "unknown_method"}, {}
        body: dict[str, Any] = answer(call.args)
        return 200, body, {}

    # -- the methods ------------------------------------------------------------------------

    def _m_api_test(self, args: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "args": args}

    def _m_auth_test(self, args: dict[str, Any]) -> dict[str, Any]:
        return {
            "ok": True,
            "url": f"https://{self.team_domain}.example/",
            "team": self.team_domain,
            "user": "travelbot",
            "team_id": self.team_id,
            "user_id": self.bot_user_id,
            "bot_id": self.bot_id,
            "is_enterprise_install": False,
        }

    def _m_chat_postMessage(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = str(args.get("channel") or "")
        if not channel:
            return {"ok": False, "error": "channel_not_found"}
        text = args.get("text")
        if not text and not args.get("blocks") and not args.get("attachments"):
            return {"ok": False, "error": "no_text"}
        if text is not None and len(str(text)) > 40000:
            return {"ok": False, "error": "msg_too_long"}
        message: dict[str, Any] = {
            "type": "message",
            "subtype": None,
            "text": text or "",
            "user": self.bot_user_id,
            "bot_id": self.bot_id,
            "ts": self._ts(),
            "team": self.team_id,
        }
        for key in ("thread_ts", "blocks", "attachments", "metadata", "mrkdwn"):
            if args.get(key) is not None:
                message[key] = args[key]
        del message["subtype"]
        with self._lock:
            self._messages[channel].append(message)
            self._made.add(message["ts"])
            self._replied_in(channel, message.get("thread_ts"))
        return {"ok": True, "channel": channel, "ts": message["ts"], "message": message}

    def _m_chat_postEphemeral(self, args: dict[str, Any]) -> dict[str, Any]:
        if not args.get("channel") or not args.get("user"):
            return {"ok": False, "error": "channel_not_found"}
        return {"ok": True, "message_ts": self._ts()}

    def _m_chat_update(self, args: dict[str, Any]) -> dict[str, Any]:
        channel, ts = str(args.get("channel") or ""), str(args.get("ts") or "")
        with self._lock:
            for message in self._messages.get(channel, []):
                if message["ts"] == ts:
                    for key in ("text", "blocks", "attachments"):
                        if key in args:
                            message[key] = args[key]
                    message["edited"] = {"user": self.bot_user_id, "ts": self._ts()}
                    return {"ok": True, "channel": channel, "ts": ts, "text": message["text"]}
        return {"ok": False, "error": "message_not_found"}

    def _m_chat_delete(self, args: dict[str, Any]) -> dict[str, Any]:
        channel, ts = str(args.get("channel") or ""), str(args.get("ts") or "")
        with self._lock:
            messages = self._messages.get(channel, [])
            for index, message in enumerate(messages):
                if message["ts"] == ts:
                    del messages[index]
                    return {"ok": True, "channel": channel, "ts": ts}
        return {"ok": False, "error": "message_not_found"}

    def _m_chat_getPermalink(self, args: dict[str, Any]) -> dict[str, Any]:
        channel, ts = args.get("channel"), str(args.get("message_ts") or "")
        link = f"https://{self.team_domain}.example/archives/{channel}/p{ts.replace('.', '')}"
        return {"ok": True, "channel": channel, "permalink": link}

    def _m_reactions_add(self, args: dict[str, Any]) -> dict[str, Any]:
        key = (str(args.get("channel") or ""), str(args.get("timestamp") or ""))
        name = str(args.get("name") or "")
        with self._lock:
            users = self._reactions[key].setdefault(name, set())
            if self.bot_user_id in users:
                return {"ok": False, "error": "already_reacted"}
            users.add(self.bot_user_id)
        return {"ok": True}

    def _m_reactions_remove(self, args: dict[str, Any]) -> dict[str, Any]:
        key = (str(args.get("channel") or ""), str(args.get("timestamp") or ""))
        name = str(args.get("name") or "")
        with self._lock:
            users = self._reactions.get(key, {}).get(name)
            if not users or self.bot_user_id not in users:
                return {"ok": False, "error": "no_reaction"}
            users.discard(self.bot_user_id)
            if not users:
                del self._reactions[key][name]
        return {"ok": True}

    def _m_reactions_get(self, args: dict[str, Any]) -> dict[str, Any]:
        key = (str(args.get("channel") or ""), str(args.get("timestamp") or ""))
        with self._lock:
            reactions = [
                {"name": name, "users": sorted(users), "count": len(users)}
                for name, users in self._reactions.get(key, {}).items()
            ]
        return {"ok": True, "type": "message", "message": {"ts": key[1], "reactions": reactions}}

    def _user(self, user_id: str) -> dict[str, Any]:
        with self._lock:
            known = self._users.get(user_id)
        return known if known is not None else self.add_user(user_id)

    def _m_users_info(self, args: dict[str, Any]) -> dict[str, Any]:
        user_id = str(args.get("user") or "")
        if not user_id:
            return {"ok": False, "error": "user_not_found"}
        return {"ok": True, "user": self._user(user_id)}

    def _m_users_list(self, args: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            members = list(self._users.values())
        return {"ok": True, "members": members, "response_metadata": {"next_cursor": ""}}

    def _m_usergroups_list(self, args: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            groups = [dict(g) for g in self._usergroups.values()]
        if str(args.get("include_users", "")).lower() not in ("1", "true"):
            for group in groups:
                group.pop("users", None)
        return {"ok": True, "usergroups": groups}

    def _m_usergroups_users_list(self, args: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            group = self._usergroups.get(str(args.get("usergroup") or ""))
        if group is None:
            return {"ok": False, "error": "no_such_subteam"}
        return {"ok": True, "users": list(group["users"])}

    def _m_conversations_open(self, args: dict[str, Any]) -> dict[str, Any]:
        users = str(args.get("users") or args.get("channel") or "")
        if not users:
            return {"ok": False, "error": "users_list_not_supplied"}
        return {"ok": True, "channel": {"id": "D" + users.split(",")[0].lstrip("UW")}}

    def _m_conversations_info(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = str(args.get("channel") or "")
        return {
            "ok": True,
            "channel": {"id": channel, "is_im": channel.startswith("D"), "name": channel.lower()},
        }

    def _m_conversations_replies(self, args: dict[str, Any]) -> dict[str, Any]:
        channel, ts = str(args.get("channel") or ""), str(args.get("ts") or "")
        with self._lock:
            thread = [
                m
                for m in self._messages.get(channel, [])
                if m["ts"] == ts or m.get("thread_ts") == ts
            ]
        if not thread:
            return {"ok": False, "error": "thread_not_found"}
        return {"ok": True, "messages": thread, "has_more": False}

    def _m_conversations_history(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = str(args.get("channel") or "")
        with self._lock:
            top = [
                m for m in self._messages.get(channel, []) if m.get("thread_ts", m["ts"]) == m["ts"]
            ]
        return {"ok": True, "messages": list(reversed(top)), "has_more": False}

    def _store_view(self, args: dict[str, Any], view_id: str | None = None) -> dict[str, Any]:
        view = args.get("view")
        if isinstance(view, str):
            view = json.loads(view)
        if not isinstance(view, dict):
            return {"ok": False, "error": "invalid_arguments"}
        view_id = view_id or f"V{next(self._ids):08d}"
        stored = {
            **view,
            "id": view_id,
            "team_id": self.team_id,
            "hash": uuid.uuid4().hex[:16],
            "root_view_id": view_id,
            "bot_id": self.bot_id,
            "state": {"values": {}},
        }
        if args.get("user_id"):
            stored["user_id"] = args["user_id"]
        with self._lock:
            self._views[view_id] = stored
        return {"ok": True, "view": stored}

    def _m_views_open(self, args: dict[str, Any]) -> dict[str, Any]:
        if not args.get("trigger_id") and not args.get("interactivity_pointer"):
            return {"ok": False, "error": "invalid_trigger_id"}
        return self._store_view(args)

    def _m_views_push(self, args: dict[str, Any]) -> dict[str, Any]:
        return self._m_views_open(args)

    def _m_views_update(self, args: dict[str, Any]) -> dict[str, Any]:
        view_id = args.get("view_id")
        if view_id is None and args.get("external_id") is None:
            return {"ok": False, "error": "not_found"}
        with self._lock:
            known = view_id in self._views if view_id else True
        if not known:
            return {"ok": False, "error": "not_found"}
        return self._store_view(args, view_id=str(view_id) if view_id else None)

    def _m_views_publish(self, args: dict[str, Any]) -> dict[str, Any]:
        if not args.get("user_id"):
            return {"ok": False, "error": "invalid_arguments"}
        return self._store_view(args, view_id=f"VHOME{args['user_id']}")

    def _m_assistant_threads_setStatus(self, args: dict[str, Any]) -> dict[str, Any]:
        if not args.get("channel_id") or not args.get("thread_ts") or "status" not in args:
            return {"ok": False, "error": "invalid_arguments"}
        with self._lock:
            where = (str(args["channel_id"]), str(args["thread_ts"]))
            self._status[where] = str(args.get("status") or "")
        return {"ok": True}

    def _m_assistant_threads_setSuggestedPrompts(self, args: dict[str, Any]) -> dict[str, Any]:
        prompts = args.get("prompts")
        if not args.get("channel_id") or not isinstance(prompts, list) or not prompts:
            return {"ok": False, "error": "invalid_arguments"}
        if len(prompts) > 4:
            return {"ok": False, "error": "invalid_arguments"}
        return {"ok": True}

    def _m_assistant_threads_setTitle(self, args: dict[str, Any]) -> dict[str, Any]:
        if not args.get("channel_id") or not args.get("thread_ts") or not args.get("title"):
            return {"ok": False, "error": "invalid_arguments"}
        return {"ok": True}

    def _m_apps_connections_open(self, args: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "url": f"ws://127.0.0.1:{self.port}/socket-mode"}

    def _m_team_info(self, args: dict[str, Any]) -> dict[str, Any]:
        return {
            "ok": True,
            "team": {"id": self.team_id, "name": self.team_domain, "domain": self.team_domain},
        }


class _Handler(JSONHandler):
    owner: FakeSlackAPI
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes; without TCP_NODELAY the body can wait
    # for the client's delayed ACK (40 ms) on a kept-alive connection.
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        return  # keep test output quiet

    def do_GET(self) -> None:
        if urlsplit(self.path).path.rstrip("/") == "/socket-mode" and is_upgrade(self):
            self.owner.socket.serve(self)
            return
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def _serve(self, http_method: str) -> None:
        parts = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        args: dict[str, Any] = dict(parse_qsl(parts.query, keep_blank_values=True))
        try:
            args.update(_parse_body(raw, headers.get("content-type", "")))
        except ValueError:
            self.send_json(400, {"ok": False, "error": "invalid_json"})
            return
        path = parts.path.rstrip("/")
        if path.startswith("/response/"):
            self._response_url(Call("response_url", args, headers, http_method))
            return
        method = path.rsplit("/", 1)[-1]
        if not method or "." not in method:
            self.send_json(404, {"ok": False, "error": "unknown_method"})
            return
        call = Call(method, args, headers, http_method)
        self.owner._record(call)
        status, body, extra = self.owner._answer(call)
        self.owner._answered(call, status, body)
        if self.owner._reset_now(method):  # taken, never answered. Linger 0: a reset.
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True
            return
        self.send_json(status, body, extra)

    def _response_url(self, call: Call) -> None:
        """A POST to a `response_url`: shown, unless steered to fail (Slack answers the
        error as plain text with its HTTP status) or to reset after taking it."""
        _, retry_after, error, _ = self.owner._steering("response_url")
        if retry_after is not None:
            error = "ratelimited"
        if error is not None:
            status = 429 if retry_after is not None else RESPONSE_URL_ERRORS.get(error, 500)
            call.answer.update(status=status, body={"ok": False, "error": error})
            self.owner._record(call, response_url=True)
            self.owner._answered(call, status, {"ok": False, "error": error})
            raw = error.encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/plain")
            if retry_after is not None:
                self.send_header("Retry-After", f"{retry_after:g}")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)
            return
        call.answer.update(status=200, body={"ok": True})
        self.owner._record(call, response_url=True)
        if self.owner._reset_now("response_url"):  # shown, never answered
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True
            return
        self.send_json(200, {"ok": True})


def _parse_body(raw: bytes, content_type: str) -> dict[str, Any]:
    if not raw:
        return {}
    text = raw.decode("utf-8")
    if "json" in content_type:
        parsed = json.loads(text)
        if not isinstance(parsed, dict):
            raise ValueError("body is not an object")
        return parsed
    args: dict[str, Any] = dict(parse_qsl(text, keep_blank_values=True))
    for key in _JSON_FIELDS & args.keys():
        value = args[key]
        if isinstance(value, str) and value[:1] in "[{":
            with contextlib.suppress(ValueError):
                args[key] = json.loads(value)
    return args


__all__ = ["STREAM_TEXT_LIMIT", "Call", "FakeSlackAPI"]
