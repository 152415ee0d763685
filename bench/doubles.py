"""The servers the benchmarks need in place of Slack, Feishu, DingTalk, a model and
Bailian, kept small on purpose.

- `SlackDouble`: answers every Slack Web API method the bot calls under load (`auth.test`,
  `chat.postMessage`, `reactions.*`, `users.info`, `views.*`, `chat.*Stream`, ...) with
  `ok`, and writes down when each answer was complete (a `chat.postMessage`, or the
  `chat.stopStream` that ends a streamed answer: `posts`) and when a streamed answer's
  first text arrived (`chat.startStream` with text, or the first `chat.appendStream` with
  text of a stream a step began: `first_text`); `response_url` POSTs are
  accepted.
- `FeishuDouble` (`feishu_load.py`): Feishu's open API as the bot calls it under load (the
  tenant token, `/bot/v3/info`, replies, reactions, user info, CardKit cards), writing
  down when each reply to a message arrived.
- `ModelDouble`: an OpenAI-compatible `chat/completions` that answers after a fixed
  delay, with a text or a `retrieve_from_memory` call (`answer(body) -> (text, tool)`).
  Asked to stream, it sends the answer as server-sent events, one word a chunk, at
  `tokens_per_second` (None: all at once), and writes down when each answer's first
  token and its end went out (`streamed`).
- `DingTalkDouble` (`dingtalk_load.py`): DingTalk's access token, robot sends and session
  webhooks, writing down when each reply arrived, to which message's session and how
  (`via`: the session webhook, or the robot's one-to-one OpenAPI send to the writer).
- `BailianDouble`: Bailian's memory API for `latency.py --backend bailian`: every
  traveller has the same `facts`; search answers the first `top_k` of them with scores,
  list pages through them, the profile has a few attributes, writes are accepted and
  their events finished at once.

The tests have fuller doubles (`tests/support/`); benchmarks do not import tests.
Both serve HTTP/1.1 with Nagle's algorithm off: the model's client keeps its connection
alive, and a delayed ACK on a kept-alive connection would add ~40 ms to every answer,
which would be counted as the bot's own overhead.
"""

from __future__ import annotations

import itertools
import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import SplitResult, parse_qsl, urlsplit

Answer = tuple[str, dict[str, Any] | None]  # (text, or a retrieve_from_memory call's arguments)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    owner: Any = None

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self.send_json(self.owner.answer(urlsplit(self.path).path, {}))

    def do_PUT(self) -> None:
        self.do_POST()

    def do_PATCH(self) -> None:
        self.do_POST()

    def do_DELETE(self) -> None:
        self.do_POST()

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        kind = self.headers.get("Content-Type") or ""
        body: dict[str, Any] = (
            json.loads(raw or b"{}")
            if "json" in kind or raw.startswith(b"{")
            else dict(parse_qsl(raw.decode()))
        )
        if body.get("stream") is True and hasattr(self.owner, "stream"):
            self.owner.stream(self, body)
            return
        url = urlsplit(self.path)
        with_query = getattr(self.owner, "answer_url", None)  # a double that reads the query
        self.send_json(with_query(url, body) if with_query else self.owner.answer(url.path, body))

    def send_events(self, events: list[dict[str, Any]], pause: float, first: float) -> list[float]:
        """Server-sent events, the first after `first` seconds and a word every `pause`
        (chunked, so a client sees each at once); when each went out."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        time.sleep(first)
        sent: list[float] = []
        for index, event in enumerate([*events, "[DONE]"]):
            if 1 < index < len(events) and pause:  # the role and the end need no pause
                time.sleep(pause)
            payload = event if isinstance(event, str) else json.dumps(event)
            data = f"data: {payload}\n\n".encode()
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()
            sent.append(time.monotonic())
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()
        return sent

    def send_json(self, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class _Quiet(ThreadingHTTPServer):
    # socketserver's default listen queue is 5: a burst of new connections (the bot's
    # answers to 200 conversations arriving together) overflowed it, and the kernel reset
    # some of them (the bot saw `ReadError`): a fault of the double, not of the service
    # it stands in for. The kernel caps this at `net.core.somaxconn`.
    request_queue_size = 1024

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client closing its kept-alive connection at the end is no news


class _Server:
    def __init__(self) -> None:
        handler = type("Handler", (_Handler,), {"owner": self})
        self._http = _Quiet(("127.0.0.1", 0), handler)
        self._http.daemon_threads = True
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)
        self._thread.start()
        self.base = f"http://127.0.0.1:{self._http.server_address[1]}"

    def answer(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def close(self) -> None:
        self._http.shutdown()
        self._http.server_close()


@dataclass(frozen=True)
class Post:
    """An answer the bot completed (posted, or a stream stopped): its arguments (with
    `thread_ts` and `channel`) and when it arrived."""

    args: dict[str, Any]
    at: float = field(default_factory=time.monotonic)


@dataclass(frozen=True)
class Streamed:
    """One streamed model answer: when its first token and its end were written."""

    marker: str  # the last user message, to tell conversations apart
    first_token_at: float
    done_at: float


class SlackDouble(_Server):
    team_id = "T0BENCH"
    bot_user_id = "U0BENCHBOT"

    def __init__(self) -> None:
        super().__init__()
        self.base_url = self.base + "/api/"
        self._posts: list[Post] = []
        self._first_text: dict[str, float] = {}  # thread_ts -> when its stream started
        self._streams: dict[str, dict[str, Any]] = {}  # stream ts -> thread_ts, channel
        self._lock = threading.Condition()
        self._ts = itertools.count(1)

    def response_url(self) -> str:
        return self.base + "/response/bench"

    def answer(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        method = path.removeprefix("/api/")
        ts = f"{int(time.time())}.{next(self._ts):06d}"
        if method == "chat.postMessage":
            with self._lock:
                self._posts.append(Post(body))
                self._lock.notify_all()
            return {"ok": True, "channel": body.get("channel"), "ts": ts}
        if method == "chat.startStream":
            thread = str(body.get("thread_ts") or "")
            with self._lock:
                self._streams[ts] = {"thread_ts": thread, "channel": body.get("channel")}
                if body.get("markdown_text"):
                    self._first_text.setdefault(thread, time.monotonic())
            return {"ok": True, "channel": body.get("channel"), "ts": ts}
        if method == "chat.appendStream":  # a stream begun with a step shows text here
            with self._lock:
                stream = self._streams.get(str(body.get("ts") or ""), {})
                if body.get("markdown_text") and stream:
                    self._first_text.setdefault(str(stream["thread_ts"]), time.monotonic())
            return {"ok": True, "channel": body.get("channel"), "ts": body.get("ts")}
        if method == "chat.stopStream":
            with self._lock:
                stream = self._streams.get(str(body.get("ts") or ""), {})
                self._posts.append(Post({**body, **stream}))
                self._lock.notify_all()
            return {"ok": True, "channel": body.get("channel"), "ts": body.get("ts")}
        if method == "auth.test":
            return {"ok": True, "team_id": self.team_id, "user_id": self.bot_user_id}
        if method == "users.info":
            user = {"id": body.get("user"), "locale": "en-US", "tz": "Asia/Shanghai"}
            return {"ok": True, "user": user}
        if method.startswith("views."):
            return {"ok": True, "view": {"id": f"V{next(self._ts)}", "hash": ts}}
        return {"ok": True, "ts": ts}

    @property
    def posts(self) -> list[Post]:
        with self._lock:
            return list(self._posts)

    def first_text(self, thread_ts: str) -> float | None:
        """When the streamed answer in `thread_ts` first showed text (None: not streamed)."""
        with self._lock:
            return self._first_text.get(thread_ts)

    def reset(self) -> None:
        with self._lock:
            self._posts.clear()
            self._first_text.clear()
            self._streams.clear()

    def wait_for_posts(
        self, count: int, timeout: float, where: Callable[[Post], bool] = lambda p: True
    ) -> list[Post]:
        """The first `count` posts matching `where`, once they arrived (else SystemExit)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while len(found := [p for p in self._posts if where(p)]) < count:
                if not self._lock.wait(timeout=max(0.0, deadline - time.monotonic())):
                    raise SystemExit(f"only {len(found)} of {count} replies arrived")
            return found[:count]


class DingTalkDouble(_Server):
    """DingTalk's OpenAPI and session webhooks (`webhook(session)` hands one out)."""

    def __init__(self) -> None:
        super().__init__()
        self._replies: list[Post] = []
        self._lock = threading.Condition()
        self._sessions: dict[str, str] = {}  # staff id -> the session of their last message

    def webhook(self, session: str, staff_id: str = "") -> str:
        """A session webhook whose replies are written down with `session` (DingTalk's
        shape: the bot posts only to `/robot/sendBySession` on DingTalk's origins or
        `DINGTALK_API_URL`'s). With `staff_id`, the robot's one-to-one OpenAPI send to
        that person (the bot's way when a webhook fails) is written down with `session`
        too, as the same answer reaching the same chat."""
        if staff_id:
            with self._lock:
                self._sessions[staff_id] = session
        return f"{self.base}/robot/sendBySession?session={session}"

    def answer(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        return self.answer_url(urlsplit(path), body)

    def answer_url(self, url: SplitResult, body: dict[str, Any]) -> dict[str, Any]:
        path = url.path
        if path == "/v1.0/oauth2/accessToken":
            return {"accessToken": "bench-token", "expireIn": 7200}
        if path == "/robot/sendBySession" or path.startswith("/v1.0/robot/"):
            with self._lock:
                if path == "/robot/sendBySession":
                    session = dict(parse_qsl(url.query)).get("session", "")
                    self._replies.append(Post({"session": session, "via": "webhook", **body}))
                else:
                    users = body.get("userIds") or [""]
                    for user in users if isinstance(users, list) else [""]:
                        session = self._sessions.get(str(user), "")
                        self._replies.append(Post({"session": session, "via": "openapi", **body}))
                self._lock.notify_all()
            return {"errcode": 0, "errmsg": "ok", "processQueryKey": "q"}
        return {}

    @property
    def replies(self) -> list[Post]:
        with self._lock:
            return list(self._replies)

    def reset(self) -> None:
        with self._lock:
            self._replies.clear()

    def wait_for_replies(
        self, count: int, timeout: float, where: Callable[[Post], bool] = lambda p: True
    ) -> list[Post]:
        """The first reply of `count` sessions matching `where`, once they arrived (else
        SystemExit naming the sessions that got none)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while len(found := self._first_per_session(where)) < count:
                if not self._lock.wait(timeout=max(0.0, deadline - time.monotonic())):
                    raise SystemExit(f"only {len(found)} of {count} replies arrived")
            return found[:count]

    def answered(self, where: Callable[[Post], bool] = lambda p: True) -> int:
        """How many sessions matching `where` got a reply."""
        with self._lock:
            return len(self._first_per_session(where))

    def _first_per_session(self, where: Callable[[Post], bool]) -> list[Post]:
        first: dict[str, Post] = {}
        for post in self._replies:
            if where(post):
                first.setdefault(str(post.args["session"]), post)
        return list(first.values())


class FeishuDouble(_Server):
    """Feishu's open API, answering every call the bot makes with success."""

    bot_open_id = "ou_benchbot"

    def __init__(self) -> None:
        super().__init__()
        self.base_url = self.base
        self._replies: dict[str, float] = {}  # the message replied to -> when
        self._lock = threading.Condition()
        self._ids = itertools.count(1)

    def answer(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        number = next(self._ids)
        if path.endswith("/tenant_access_token/internal"):
            return {"code": 0, "msg": "ok", "tenant_access_token": "t-bench", "expire": 7200}
        if path.endswith("/bot/v3/info"):
            return {"code": 0, "msg": "ok", "bot": {"open_id": self.bot_open_id}}
        if path.endswith("/reply"):
            parent = path.split("/")[-2]
            with self._lock:
                self._replies.setdefault(parent, time.monotonic())
                self._lock.notify_all()
            return {"code": 0, "msg": "success", "data": {"message_id": f"om_b{number}"}}
        if path.endswith("/reactions"):
            return {"code": 0, "msg": "success", "data": {"reaction_id": f"r_{number}"}}
        if path.endswith("/cardkit/v1/cards"):
            return {"code": 0, "msg": "success", "data": {"card_id": f"card_{number}"}}
        return {"code": 0, "msg": "success", "data": {"message_id": f"om_b{number}"}}

    @property
    def replies(self) -> dict[str, float]:
        with self._lock:
            return dict(self._replies)

    def wait_for_replies(self, message_ids: list[str], timeout: float) -> dict[str, float]:
        """When each of `message_ids` was replied to (else SystemExit)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while missing := [m for m in message_ids if m not in self._replies]:
                if not self._lock.wait(timeout=max(0.0, deadline - time.monotonic())):
                    raise SystemExit(f"{len(missing)} of {len(message_ids)} replies missing")
            return {m: self._replies[m] for m in message_ids}


class ModelDouble(_Server):
    def __init__(
        self,
        delay: float,
        decide: Callable[[dict[str, Any]], Answer],
        tokens_per_second: float | None = None,
    ) -> None:
        super().__init__()
        self.base_url = self.base + "/v1"
        self._delay = delay
        self._decide = decide
        self._ids = itertools.count(1)
        self.tokens_per_second = tokens_per_second
        self._streamed: list[Streamed] = []
        self._lock = threading.Lock()

    @property
    def streamed(self) -> list[Streamed]:
        with self._lock:
            return list(self._streamed)

    def stream(self, handler: Any, body: dict[str, Any]) -> None:
        """The answer as server-sent events: the text a word a chunk, or the tool call."""
        text, tool = self._decide(body)
        number = next(self._ids)
        base = {"id": f"chatcmpl-{number}", "object": "chat.completion.chunk", "created": 0}
        base["model"] = body.get("model", "bench")

        def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
            return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

        events = [chunk({"role": "assistant"})]
        if tool is not None:
            call = {"name": "retrieve_from_memory", "arguments": json.dumps(tool)}
            delta = {"index": 0, "id": f"call_{number}", "type": "function", "function": call}
            events += [chunk({"tool_calls": [delta]}), chunk({}, "tool_calls")]
        else:
            words = re.findall(r"\s*\S+", text)
            events += [chunk({"content": word}) for word in words] + [chunk({}, "stop")]
        pause = 1.0 / self.tokens_per_second if self.tokens_per_second else 0.0
        sent = handler.send_events(events, pause, self._delay)
        if tool is None:
            started = sent[1]  # the first word (the role came just before)
            users = [m for m in body["messages"] if m.get("role") == "user"]
            marker = str(users[-1].get("content") or "") if users else ""
            with self._lock:
                self._streamed.append(Streamed(marker, started, sent[-1]))

    def answer(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        time.sleep(self._delay)
        text, tool = self._decide(body)
        message: dict[str, Any] = {"role": "assistant", "content": text or None}
        number = next(self._ids)
        if tool is not None:
            call = {"name": "retrieve_from_memory", "arguments": json.dumps(tool)}
            message["tool_calls"] = [{"id": f"call_{number}", "type": "function", "function": call}]
        return {
            "id": f"chatcmpl-{number}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "bench"),
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if tool else "stop",
                }
            ],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
        }


class _BailianHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    owner: Any = None

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    def do_DELETE(self) -> None:
        self._serve()

    def _serve(self) -> None:
        parts = urlsplit(self.path)
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = json.loads(raw) if raw else {}
        query = dict(parse_qsl(parts.query))
        path = parts.path.removeprefix("/api/v2/apps/memory/")
        data = json.dumps(self.owner.answer(self.command, path, query, body)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class BailianDouble:
    def __init__(self, facts: list[str], profile: dict[str, str], top_k: int = 10) -> None:
        self.facts = facts
        self.profile = profile
        self.top_k = top_k
        handler = type("Handler", (_BailianHandler,), {"owner": self})
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._http.daemon_threads = True
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)
        self._thread.start()
        self.base_url = f"http://127.0.0.1:{self._http.server_address[1]}/api/v2/apps/memory"

    def _node(self, number: int, score: float | None = None) -> dict[str, Any]:
        node: dict[str, Any] = {
            "memory_node_id": f"{number:032x}",
            "content": self.facts[number],
            "created_at": 1_700_000_000 + number,
            "updated_at": 1_700_000_000 + number,
            "memory_type": "observation",
            "status": "valid",
            "meta_data": {"source": "chat"},
        }
        if score is not None:
            node["score"] = score
        return node

    def answer(
        self, method: str, path: str, query: dict[str, str], body: dict[str, Any]
    ) -> dict[str, Any]:
        done = {"request_id": "bench"}
        if path == "memory_nodes/search":
            top = min(self.top_k, int(body.get("top_k", 10)), len(self.facts))
            return {**done, "memory_nodes": [self._node(n, 0.9 - n / 100) for n in range(top)]}
        if path == "memory_nodes" and method == "GET":
            page, size = int(query.get("page_num", 1)), int(query.get("page_size", 10))
            numbers = range((page - 1) * size, min(page * size, len(self.facts)))
            nodes = [self._node(n) for n in numbers]
            return {**done, "memory_nodes": nodes, "total": len(self.facts)}
        if path.endswith("/user_profile"):
            attributes = [{"id": k, "name": k, "value": v} for k, v in self.profile.items()]
            return {**done, "profile": {"schema_name": "bench", "attributes": attributes}}
        if path == "add-async":
            event = {"event_id": "e1", "status": "PENDING", "user_id": body.get("user_id")}
            return {**done, "event_id": "e1", "events": [event]}
        if path.startswith("events/"):
            return {**done, "events": [{"event_id": "e1", "status": "SUCCEEDED", "result": []}]}
        return {**done, "profile_schemas": [], "total": 0}

    def close(self) -> None:
        self._http.shutdown()
        self._http.server_close()


__all__ = [
    "BailianDouble",
    "DingTalkDouble",
    "FeishuDouble",
    "ModelDouble",
    "Post",
    "SlackDouble",
    "Streamed",
]
