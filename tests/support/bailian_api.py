"""A local HTTP server that plays Bailian's memory API (长期记忆), for tests.

A real HTTP server on 127.0.0.1 (random port, own thread) answering under
`/api/v2/apps/memory/` the calls `memory.bailian` makes, with the fields and error bodies
of the API reference (docs/bailian.md): `add`, `add-async`, `events/{id}`,
`memory_nodes/search`, `memory_nodes` (list), `memory_nodes/{id}` (DELETE, soft, without
an ownership check, as the real service), `profile_schemas` (create, list, get) and
`profile_schemas/{id}/user_profile`. It checks the API key (401 `InvalidApiKey`) and the
required fields (400 `MissingParameter` / `InvalidParameter`).

    with FakeBailian() as bailian:
        mem = open_memory(dsn="bailian://default", dashscope_api_key=bailian.api_key,
                          bailian_base_url=bailian.base_url, redis_url="")

Extraction: each user message becomes one node, in the words sent (an exact repeat of
a node makes none, like the service's dedupe); a profile schema's attributes are filled
from messages naming one of the options its description lists. `add` extracts at once
(its profile after `profile_seconds`); `add-async` after `extraction_seconds`, or, with
`hold_events`, only when `complete_events()` is called; until then its event is PENDING
and its nodes are invisible.

Recording: `requests` (method, path, query, body, headers), `calls(path)`, `sent()` (every
body and query as text, for "nothing sensitive left the machine" checks).

Steering: `fault(*steps, path=None, user=None)` queues answers for the next requests
(optionally only those whose path contains `path`, or for the memory entity `user`):
`Fail(status, retry_after, code)`, `Malformed()`,
`Slow(seconds)`, `Drop()`. `sloppy = True` makes search and list also return other
entities' nodes, each with its `user_id` (the real answers carry none).
"""

from __future__ import annotations

import itertools
import json
import re
import threading
import time
import uuid
from collections import deque
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from tests.support.http import JSONHandler, LocalServer

PREFIX = "/api/v2/apps/memory"
_OPTIONS = re.compile(r"[：:]([^：:]+)$")


@dataclass(frozen=True)
class Fail:
    status: int
    retry_after: float | str | None = None
    code: str = ""


@dataclass(frozen=True)
class Malformed:
    body: bytes = b'{"memory_nodes": [ {"content": '


@dataclass(frozen=True)
class Slow:
    seconds: float


@dataclass(frozen=True)
class Drop:
    pass


Step = Fail | Malformed | Slow | Drop


@dataclass(frozen=True)
class Request:
    method: str
    path: str  # relative to the API prefix, e.g. "memory_nodes/search"
    query: dict[str, str]
    body: dict[str, Any] | None
    headers: dict[str, str]


@dataclass
class _Node:
    id: str
    user_id: str
    library: str | None
    project: str | None
    content: str
    created: int
    meta: dict[str, Any]
    status: str = "valid"


@dataclass
class _Event:
    id: str
    user_id: str
    library: str | None
    texts: list[str]
    project: str | None
    meta: dict[str, Any]
    schema: str | None
    ready_at: float | None  # None: held until complete_events()
    status: str = "PENDING"
    result: list[dict[str, Any]] = field(default_factory=list)


class FakeBailian(LocalServer):
    def __init__(
        self,
        *,
        api_key: str = "sk-test-bailian",
        extraction_seconds: float = 0.0,
        profile_seconds: float = 0.0,
        hold_events: bool = False,
    ) -> None:
        super().__init__()
        self.handler = _Handler
        self.api_key = api_key
        self.extraction_seconds = extraction_seconds
        self.profile_seconds = profile_seconds
        self.hold_events = hold_events
        self.sloppy = False
        self.lock = threading.RLock()
        self.requests: list[Request] = []
        self.nodes: dict[str, _Node] = {}
        self.events: dict[str, _Event] = {}
        self.schemas: dict[str, dict[str, Any]] = {}
        self.profiles: dict[tuple[str, str], dict[str, str]] = {}
        self._faults: deque[tuple[str | None, str | None, Step]] = deque()
        self._later: list[tuple[float, str, str, str]] = []  # (at, schema, user, text)
        self._clock = itertools.count(1_700_000_000)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{PREFIX}"

    # -- steering and seeding -----------------------------------------------------------

    def fault(self, *steps: Step, path: str | None = None, user: str | None = None) -> None:
        """Answer the next matching requests with `steps`, one each (see the docstring)."""
        with self.lock:
            self._faults.extend((path, user, step) for step in steps)

    def complete_events(self) -> None:
        with self.lock:
            for event in self.events.values():
                if event.status == "PENDING":
                    event.ready_at = 0.0
            self._advance()

    def add_node(
        self, user_id: str, content: str, *, library: str | None = None, source: str = "seed"
    ) -> str:
        with self.lock:
            return self._store(user_id, library, None, content, {"source": source})

    def set_profile(self, schema_id: str, user_id: str, values: dict[str, str]) -> None:
        with self.lock:
            self.profiles.setdefault((schema_id, user_id), {}).update(values)

    def calls(self, path: str) -> list[Request]:
        with self.lock:
            return [r for r in self.requests if r.path == path]

    def sent(self) -> str:
        """Everything clients sent (bodies and queries), as one text."""
        with self.lock:
            return "\n".join(
                json.dumps([r.query, r.body], ensure_ascii=False) for r in self.requests
            )

    def visible(self, user_id: str) -> list[str]:
        with self.lock:
            self._advance()
            return [
                n.content
                for n in self.nodes.values()
                if n.user_id == user_id and n.status == "valid"
            ]

    # -- the service --------------------------------------------------------------------

    def _next_fault(self, path: str, user: str | None) -> Step | None:
        with self.lock:
            for index, (where, whose, step) in enumerate(self._faults):
                if (where is None or where in path) and (whose is None or whose == user):
                    del self._faults[index]
                    return step
        return None

    def _store(
        self,
        user_id: str,
        library: str | None,
        project: str | None,
        text: str,
        meta: dict[str, Any],
    ) -> str:
        node_id = uuid.uuid4().hex
        self.nodes[node_id] = _Node(
            node_id, user_id, library, project, text, next(self._clock), dict(meta)
        )
        return node_id

    def _extract(
        self,
        user_id: str,
        library: str | None,
        project: str | None,
        texts: list[str],
        meta: dict[str, Any],
    ) -> list[dict[str, Any]]:
        changes = []
        for text in texts:
            same = [
                n
                for n in self.nodes.values()
                if n.user_id == user_id
                and n.library == library
                and n.content == text
                and n.status == "valid"
            ]
            if same:
                continue
            node_id = self._store(user_id, library, project, text, meta)
            changes.append({"memory_node_id": node_id, "content": text, "event": "ADD"})
        return changes

    def _extract_profile(self, schema_id: str, user_id: str, text: str) -> None:
        schema = self.schemas.get(schema_id)
        if schema is None:
            return
        values = self.profiles.setdefault((schema_id, user_id), {})
        for attribute in schema["attributes"]:
            found = _OPTIONS.search(attribute.get("description") or "")
            options = found.group(1).split("、") if found else []
            named = [o for o in options if o and o in text]
            if named:
                values[attribute["name"]] = "、".join(named)

    def _advance(self) -> None:
        """Finish due events and profile extractions (called under the lock)."""
        now = time.monotonic()
        for event in self.events.values():
            if event.status != "PENDING" or event.ready_at is None or event.ready_at > now:
                continue
            changes = self._extract(
                event.user_id, event.library, event.project, event.texts, event.meta
            )
            event.result = [{"memory_type": "observation", **c} for c in changes]
            event.status = "SUCCEEDED"
            if event.schema:
                for text in event.texts:
                    self._extract_profile(event.schema, event.user_id, text)
        due = [job for job in self._later if job[0] <= now]
        self._later = [job for job in self._later if job[0] > now]
        for _, schema, user, text in due:
            self._extract_profile(schema, user, text)

    def answer(
        self, method: str, path: str, query: dict[str, str], body: dict[str, Any] | None
    ) -> tuple[int, dict[str, Any]]:
        with self.lock:
            self._advance()
            return _route(self, method, path, query, body or {})


def _error(status: int, code: str, message: str) -> tuple[int, dict[str, Any]]:
    return status, {"code": code, "message": message, "request_id": uuid.uuid4().hex}


def _ok(payload: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    return 200, {**payload, "request_id": uuid.uuid4().hex}


def _node_json(node: _Node, fake: FakeBailian, score: float | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "memory_node_id": node.id,
        "content": node.content,
        "created_at": node.created,
        "updated_at": node.created,
        "memory_type": "observation",
        "status": node.status,
        "meta_data": node.meta,
        "project_id": node.project or "",
    }
    if score is not None:
        out["score"] = round(score, 3)
    if fake.sloppy:
        out["user_id"] = node.user_id
    return out


def _tokens(text: str) -> set[str]:
    lowered = text.lower()
    words = set(re.findall(r"[a-z0-9]{3,}", lowered))
    chars = re.findall(r"[\u4e00-\u9fff]", lowered)
    return words | {a + b for a, b in itertools.pairwise(chars)}


def _route(
    fake: FakeBailian, method: str, path: str, query: dict[str, str], body: dict[str, Any]
) -> tuple[int, dict[str, Any]]:
    library = body.get("memory_library_id") or query.get("memory_library_id") or None
    if method == "POST" and path in ("add", "add-async"):
        user = body.get("user_id")
        if not isinstance(user, str) or not user:
            return _error(400, "MissingParameter", "user_id is required")
        if len(user) > 64:
            return _error(400, "InvalidParameter", "user_id is too long")
        messages = body.get("messages") or []
        if not messages or len(messages) > 50:
            return _error(400, "InvalidParameter", "messages must hold 1 to 50 messages")
        texts = [m["content"] for m in messages if m.get("role") == "user"]
        meta = body.get("meta_data") or {}
        schema = body.get("profile_schema")
        project = body.get("project_id")
        if path == "add":
            changes = fake._extract(user, library, project, texts, meta)
            if schema:
                at = time.monotonic() + fake.profile_seconds
                fake._later += [(at, schema, user, text) for text in texts]
                fake._advance()
            return _ok({"memory_nodes": changes})
        event_id = uuid.uuid4().hex
        ready = None if fake.hold_events else time.monotonic() + fake.extraction_seconds
        fake.events[event_id] = _Event(event_id, user, library, texts, project, meta, schema, ready)
        return _ok({"event_id": event_id, "events": [_event_json(fake.events[event_id])]})
    if method == "GET" and path.startswith("events/"):
        event = fake.events.get(path.removeprefix("events/"))
        if event is None:
            return _error(404, "NotFound", "event not found")
        return _ok({"events": [_event_json(event)]})
    if method == "POST" and path == "memory_nodes/search":
        user = body.get("user_id")
        if not isinstance(user, str) or not user:
            return _error(400, "MissingParameter", "user_id is required")
        top_k, min_score = body.get("top_k", 10), body.get("min_score", 0.3)
        if not 1 <= top_k <= 100 or not 0 <= min_score <= 1:
            return _error(400, "InvalidParameter", "top_k or min_score out of range")
        asked = _tokens(" ".join(m.get("content", "") for m in body.get("messages") or []))
        scored = []
        for node in fake.nodes.values():
            if node.status != "valid" or node.library != library:
                continue
            if node.user_id != user and not fake.sloppy:
                continue
            score = len(asked & _tokens(node.content)) / max(1, len(asked))
            if score >= min_score or (fake.sloppy and node.user_id != user):
                scored.append((score, node))
        scored.sort(key=lambda pair: -pair[0])
        return _ok({"memory_nodes": [_node_json(n, fake, s) for s, n in scored[:top_k]]})
    if method == "GET" and path == "memory_nodes":
        user = query.get("user_id")
        if not user:
            return _error(400, "MissingParameter", "user_id is required")
        page, size = int(query.get("page_num", 1)), int(query.get("page_size", 10))
        mine = [
            n
            for n in sorted(fake.nodes.values(), key=lambda n: n.created)
            if n.status == "valid"
            and n.library == library
            and (n.user_id == user or fake.sloppy)
            and (not query.get("project_id") or n.project == query["project_id"])
        ]
        chunk = mine[(page - 1) * size : page * size]
        return _ok(
            {
                "memory_nodes": [_node_json(n, fake) for n in chunk],
                "total": len(mine),
                "page_num": page,
                "page_size": size,
            }
        )
    if method == "DELETE" and path.startswith("memory_nodes/"):
        node = fake.nodes.get(path.removeprefix("memory_nodes/"))
        if node is None or node.status != "valid":
            return _error(404, "NotFound", "memory node not found")
        node.status = "delete"
        return _ok({})
    if method == "POST" and path == "profile_schemas":
        attributes = body.get("attributes")
        if not body.get("name") or not attributes:
            return _error(400, "InvalidParameter", "name and attributes are required")
        schema_id = uuid.uuid4().hex
        fake.schemas[schema_id] = {
            "name": body["name"],
            "description": body.get("description", ""),
            "attributes": [{"attribute_id": uuid.uuid4().hex, **a} for a in attributes],
        }
        return _ok({"profile_schema_id": schema_id})
    if method == "GET" and path == "profile_schemas":
        listed = [
            {"profile_schema_id": sid, "name": s["name"], "description": s["description"]}
            for sid, s in fake.schemas.items()
        ]
        return _ok({"profile_schemas": listed, "total": len(listed)})
    match = re.fullmatch(r"profile_schemas/([^/]+)(/user_profile)?", path)
    if method == "GET" and match:
        schema = fake.schemas.get(match.group(1))
        if schema is None:
            return _error(404, "NotFound", "profile schema not found")
        if not match.group(2):
            return _ok(dict(schema))
        user = query.get("user_id")
        if not user:
            return _error(400, "MissingParameter", "user_id is required")
        values = fake.profiles.get((match.group(1), user), {})
        attributes = []
        for attribute in schema["attributes"]:
            entry = {"id": attribute["attribute_id"], "name": attribute["name"]}
            if attribute["name"] in values:
                entry["value"] = values[attribute["name"]]
            attributes.append(entry)
        return _ok(
            {
                "profile": {
                    "schema_name": schema["name"],
                    "schema_description": schema["description"],
                    "attributes": attributes,
                }
            }
        )
    return _error(404, "NotFound", f"no route {method} {path}")


def _event_json(event: _Event) -> dict[str, Any]:
    return {
        "event_id": event.id,
        "event_type": "ADD_ASYNC",
        "resource_type": "observation",
        "resource_id": event.project or "",
        "memory_library_id": event.library or "",
        "user_id": event.user_id,
        "status": event.status,
        "created_at": 1_700_000_000,
        "updated_at": 1_700_000_000,
        "result": event.result,
    }


class _Handler(JSONHandler):
    owner: FakeBailian
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def do_DELETE(self) -> None:
        self._serve("DELETE")

    def _serve(self, method: str) -> None:
        parts = urlsplit(self.path)
        path = parts.path.removeprefix(PREFIX).strip("/")
        query = dict(parse_qsl(parts.query))
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            self.send_json(400, _error(400, "InvalidParameter", "body is not JSON")[1])
            return
        fake = self.owner
        with fake.lock:
            fake.requests.append(
                Request(method, path, query, body, {k.lower(): v for k, v in self.headers.items()})
            )
        user = (body or {}).get("user_id") or query.get("user_id")
        step = fake._next_fault(path, user if isinstance(user, str) else None)
        if isinstance(step, Slow):
            if fake.closing.wait(step.seconds):
                return
            step = None
        if isinstance(step, Drop):
            self.close_connection = True
            return
        if isinstance(step, Fail):
            headers = {} if step.retry_after is None else {"Retry-After": str(step.retry_after)}
            code = step.code or {401: "InvalidApiKey", 429: "TooManyRequests"}.get(
                step.status, "InternalError"
            )
            self.send_json(step.status, _error(step.status, code, "scripted failure")[1], headers)
            return
        if isinstance(step, Malformed):
            self._send_raw(200, step.body)
            return
        if self.headers.get("Authorization") != f"Bearer {fake.api_key}":
            self.send_json(*_error(401, "InvalidApiKey", "Invalid API-key provided."))
            return
        status, payload = fake.answer(method, path, query, body)
        self.send_json(status, payload)

    def _send_raw(self, status: int, data: bytes) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True


__all__ = ["Drop", "Fail", "FakeBailian", "Malformed", "Request", "Slow"]
