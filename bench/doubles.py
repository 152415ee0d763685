"""The servers the load benchmarks need in place of Slack, Feishu and a model, kept small.

- `SlackDouble`: answers every Slack Web API method the bot calls under load (`auth.test`,
  `chat.postMessage`, `reactions.*`, `users.info`, `views.*`, ...) with `ok`, and writes
  down when each `chat.postMessage` arrived; `response_url` POSTs are accepted.
- `FeishuDouble` (`feishu_load.py`): Feishu's open API as the bot calls it under load (the
  tenant token, `/bot/v3/info`, replies, reactions, user info, CardKit cards), writing
  down when each reply to a message arrived.
- `ModelDouble`: an OpenAI-compatible `chat/completions` that answers after a fixed
  delay, with a text or a `retrieve_from_memory` call (`answer(body) -> (text, tool)`).

The tests have fuller doubles (`tests/support/`); benchmarks do not import tests.
Both serve HTTP/1.1 with Nagle's algorithm off: the model's client keeps its connection
alive, and a delayed ACK on a kept-alive connection would add ~40 ms to every answer,
which would be counted as the bot's own overhead.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

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
        self.send_json(self.owner.answer(urlsplit(self.path).path, body))

    def send_json(self, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class _Server:
    def __init__(self) -> None:
        handler = type("Handler", (_Handler,), {"owner": self})
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), handler)
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
    """A `chat.postMessage` the bot made: its arguments and when it arrived."""

    args: dict[str, Any]
    at: float = field(default_factory=time.monotonic)


class SlackDouble(_Server):
    team_id = "T0BENCH"
    bot_user_id = "U0BENCHBOT"

    def __init__(self) -> None:
        super().__init__()
        self.base_url = self.base + "/api/"
        self._posts: list[Post] = []
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

    def reset(self) -> None:
        with self._lock:
            self._posts.clear()

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
        if "/contact/v3/users/" in path:
            user = {"open_id": path.rsplit("/", 1)[-1], "time_zone": "Asia/Shanghai"}
            return {"code": 0, "msg": "success", "data": {"user": user}}
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
    def __init__(self, delay: float, decide: Callable[[dict[str, Any]], Answer]) -> None:
        super().__init__()
        self.base_url = self.base + "/v1"
        self._delay = delay
        self._decide = decide
        self._ids = itertools.count(1)

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


__all__ = ["FeishuDouble", "ModelDouble", "Post", "SlackDouble"]
