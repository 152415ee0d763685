"""A scripted OpenAI-compatible chat-completions server for tests.

A real HTTP server on 127.0.0.1 (random port, own thread) that answers
`POST /v1/chat/completions` (and `/chat/completions`) from a script, and records every
request body it receives, so tests can assert on what the model was sent.

    with ScriptedModel() as model:
        model.script(
            [("record_to_memory", {"thinking": "a preference", "content": ["No red-eyes"]})],
            "Noted: no red-eye flights.",
        )
        client = OpenAI(base_url=model.base_url, api_key="test")
        ...
        assert "No red-eyes" in model.requests[1]["messages"][-1]["content"]

A step is one of:
- `str`: a plain assistant text (also what a `response_format` JSON request gets back);
- a list of tool calls `[(name, arguments), ...]`, where `arguments` is a dict (sent as
  JSON) or a str (sent verbatim, so a test can send malformed arguments);
- `Reply(content, tool_calls)`: text and tool calls together, or a custom finish reason;
- `Fail(status, retry_after=None)`: an HTTP error with an OpenAI-style error body;
- `Drop()`: close the connection without answering (a connection error);
- `Delay(seconds, then=step)`: wait, then answer with `then`;
- a callable `(request_json) -> step` for dynamic replies.
When the script is empty the model answers `default` ("OK").

Streaming. A request with `"stream": true` is answered as server-sent events, the way
OpenAI streams: the text one token at a time (a word, or one CJK character), then each
tool call as deltas (its id and name first, then its arguments in pieces), then the
finish reason, a usage chunk when `stream_options.include_usage` asks for one, and
`[DONE]`. `tokens_per_second` paces the chunks (None: as fast as possible) and
`first_token_seconds` waits after the headers before the first one, like a model's
prefill. `Reply(..., cut_after=N)` drops the connection after N chunks, before the end
of the chunked body (a stream that breaks halfway: the client sees a protocol error).
`timings` records when each streamed answer's first token and its last chunk were written
(`time.monotonic()`), so a test can tell what was visible before the model had finished.
Without `stream` the whole answer comes as one JSON body, as before.
"""

from __future__ import annotations

import itertools
import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.support.http import JSONHandler, LocalServer

ToolCallSpec = tuple[str, Mapping[str, Any] | str]


@dataclass(frozen=True)
class Reply:
    """An assistant message with optional text and tool calls."""

    content: str | None = None
    tool_calls: Sequence[ToolCallSpec] = ()
    finish_reason: str | None = None
    cut_after: int | None = None  # streaming only: drop the connection after N chunks


@dataclass(frozen=True)
class Fail:
    """Answer with an HTTP error (e.g. 429 with `Retry-After`, or 500)."""

    status: int
    retry_after: float | None = None
    message: str = "scripted failure"


@dataclass(frozen=True)
class Drop:
    """Close the connection without sending a response."""


@dataclass(frozen=True)
class Delay:
    """Wait `seconds`, then answer with `then`."""

    seconds: float
    then: Step = "OK"


Step = str | Sequence[ToolCallSpec] | Reply | Fail | Drop | Delay | Callable[[dict[str, Any]], Any]


@dataclass(frozen=True)
class StreamTiming:
    """When a streamed answer's first token and its end were written (monotonic seconds)."""

    first_token_at: float
    done_at: float


@dataclass
class _State:
    steps: deque[Step] = field(default_factory=deque)
    requests: list[dict[str, Any]] = field(default_factory=list)
    timings: list[StreamTiming] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))


class ScriptedModel(LocalServer):
    """The scripted model server; use as a context manager (or call `start`/`close`)."""

    def __init__(
        self,
        *,
        default: Step = "OK",
        model: str = "scripted-model",
        tokens_per_second: float | None = None,
        first_token_seconds: float = 0.0,
    ) -> None:
        super().__init__()
        self.handler = _Handler
        self.default = default
        self.model = model
        self.tokens_per_second = tokens_per_second
        self.first_token_seconds = first_token_seconds
        self._state = _State()

    # -- scripting ----------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """The OpenAI base URL, e.g. `http://127.0.0.1:PORT/v1`."""
        return f"http://127.0.0.1:{self.port}/v1"

    def script(self, *steps: Step) -> ScriptedModel:
        """Queue responses, answered in order, one per request."""
        with self._state.lock:
            self._state.steps.extend(steps)
        return self

    def clear(self) -> None:
        """Forget queued steps, recorded requests and stream timings."""
        with self._state.lock:
            self._state.steps.clear()
            self._state.requests.clear()
            self._state.timings.clear()

    @property
    def timings(self) -> list[StreamTiming]:
        """First token and end of every streamed answer so far, oldest first."""
        with self._state.lock:
            return list(self._state.timings)

    @property
    def pending(self) -> int:
        """How many scripted steps are still queued."""
        with self._state.lock:
            return len(self._state.steps)

    @property
    def requests(self) -> list[dict[str, Any]]:
        """Every request body received so far (a copy), oldest first."""
        with self._state.lock:
            return list(self._state.requests)

    @property
    def last_request(self) -> dict[str, Any]:
        reqs = self.requests
        if not reqs:
            raise AssertionError("the scripted model received no request")
        return reqs[-1]

    def _next(self, body: dict[str, Any]) -> tuple[Step, str]:
        with self._state.lock:
            self._state.requests.append(body)
            step = self._state.steps.popleft() if self._state.steps else self.default
            number = next(self._state.ids)
        return step, f"chatcmpl-scripted-{number}"


class _Handler(JSONHandler):
    # Answers are small writes; without this each one waits ~40 ms for a delayed ACK.
    disable_nagle_algorithm = True
    owner: ScriptedModel
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return  # keep test output quiet

    def do_POST(self) -> None:
        path = self.path.split("?", 1)[0].rstrip("/")
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if path not in ("/v1/chat/completions", "/chat/completions"):
            self.send_json(404, _error_body(f"no route {path}", "not_found"))
            return
        try:
            body = json.loads(raw or b"{}")
            if not isinstance(body, dict):
                raise ValueError("body is not an object")
        except ValueError:
            self.send_json(400, _error_body("invalid JSON body", "invalid_request_error"))
            return
        step, completion_id = self.owner._next(body)
        self._answer(step, body, completion_id)

    def _answer(self, step: Step, body: dict[str, Any], completion_id: str) -> None:
        while True:
            if isinstance(step, Delay):
                if self.owner.closing.wait(step.seconds):
                    return
                step = step.then
            elif callable(step) and not isinstance(step, (Reply, Fail, Drop)):
                step = step(body)
            else:
                break
        if isinstance(step, Drop):
            self.close_connection = True
            return
        if isinstance(step, Fail):
            headers = {}
            if step.retry_after is not None:
                headers["Retry-After"] = f"{step.retry_after:g}"
            kind = "rate_limit_exceeded" if step.status == 429 else "server_error"
            self.send_json(step.status, _error_body(step.message, kind), headers)
            return
        reply = _as_reply(step)
        model = str(body.get("model") or self.owner.model)
        if body.get("stream"):
            self._send_stream(reply, model, completion_id, body)
        else:
            self.send_json(200, _completion(reply, model, completion_id, body))

    def _send_stream(self, reply: Reply, model: str, completion_id: str, body: Any) -> None:
        owner = self.owner
        pause = 1.0 / owner.tokens_per_second if owner.tokens_per_second else 0.0
        chunks = _stream_chunks(reply, completion_id)
        if (body.get("stream_options") or {}).get("include_usage"):
            chunks.append({"usage": _usage(reply, completion_id, body)})
        created = int(time.time())
        first_token_at = 0.0
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Transfer-Encoding", "chunked")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.flush()
            if owner.first_token_seconds and owner.closing.wait(owner.first_token_seconds):
                return
            for number, chunk in enumerate(chunks):
                if reply.cut_after is not None and number >= reply.cut_after:
                    self.close_connection = True
                    return
                if number and pause and owner.closing.wait(pause):
                    return
                event = {
                    "id": completion_id,
                    "object": "chat.completion.chunk",
                    "created": created,
                    "model": model,
                    "choices": [chunk["choice"]] if "choice" in chunk else [],
                }
                if "usage" in chunk:
                    event["usage"] = chunk["usage"]
                self._write_chunk(f"data: {json.dumps(event, ensure_ascii=False)}\n\n")
                first_token_at = first_token_at or time.monotonic()
            # Recorded before the end is written: a client that has read the whole
            # stream finds its timing (after, it could look before this thread got here).
            with owner._state.lock:
                owner._state.timings.append(StreamTiming(first_token_at, time.monotonic()))
            self._write_chunk("data: [DONE]\n\n")
            self.wfile.write(b"0\r\n\r\n")  # the end of the chunked body
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            self.close_connection = True

    def _write_chunk(self, text: str) -> None:
        data = text.encode()
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()


# A token: one CJK character, or a run of other non-space characters with the spaces
# before it, or trailing spaces.
_TOKEN = re.compile(r"\s*[\u3000-\u9fff\uff00-\uffef]|\s*[^\s\u3000-\u9fff\uff00-\uffef]+|\s+")
_ARGUMENT_PIECE = 12  # characters of tool arguments per chunk


def tokens(text: str) -> list[str]:
    """`text` cut the way the scripted model streams it; the pieces join back to `text`."""
    return _TOKEN.findall(text)


def _stream_chunks(reply: Reply, completion_id: str) -> list[dict[str, Any]]:
    """The choices of a streamed answer, one chunk each: role, text, tool calls, finish."""
    choices: list[dict[str, Any]] = [{"index": 0, "delta": {"role": "assistant"}}]
    for token in tokens(reply.content or ""):
        choices.append({"index": 0, "delta": {"content": token}})
    for index, call in enumerate(_tool_calls(reply.tool_calls, completion_id)):
        function = call["function"]
        head = {"index": index, "id": call["id"], "type": "function"}
        head["function"] = {"name": function["name"], "arguments": ""}
        choices.append({"index": 0, "delta": {"tool_calls": [head]}})
        arguments = function["arguments"]
        for at in range(0, len(arguments), _ARGUMENT_PIECE):
            piece = {
                "index": index,
                "function": {"arguments": arguments[at : at + _ARGUMENT_PIECE]},
            }
            choices.append({"index": 0, "delta": {"tool_calls": [piece]}})
    choices.append({"index": 0, "delta": {}, "finish_reason": _finish_reason(reply)})
    for choice in choices:
        choice.setdefault("finish_reason", None)
    return [{"choice": choice} for choice in choices]


def _as_reply(step: Any) -> Reply:
    if isinstance(step, Reply):
        return step
    if isinstance(step, str):
        return Reply(content=step)
    if isinstance(step, Sequence):
        return Reply(tool_calls=[(str(name), args) for name, args in step])
    raise TypeError(f"not a scripted step: {step!r}")


def _finish_reason(reply: Reply) -> str:
    if reply.finish_reason:
        return reply.finish_reason
    return "tool_calls" if reply.tool_calls else "stop"


def _tool_calls(specs: Sequence[ToolCallSpec], completion_id: str) -> list[dict[str, Any]]:
    calls = []
    for index, (name, args) in enumerate(specs):
        arguments = args if isinstance(args, str) else json.dumps(dict(args), ensure_ascii=False)
        calls.append(
            {
                "id": f"call_{completion_id.rsplit('-', 1)[-1]}_{index}",
                "type": "function",
                "function": {"name": name, "arguments": arguments},
            }
        )
    return calls


def _count_tokens(value: Any) -> int:
    """A rough, deterministic token count (about four characters a token)."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return max(1, len(text) // 4)


def _message(reply: Reply, completion_id: str) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    calls = _tool_calls(reply.tool_calls, completion_id)
    if calls:
        message["tool_calls"] = calls
    return message


def _usage(reply: Reply, completion_id: str, body: Mapping[str, Any]) -> dict[str, int]:
    prompt_tokens = _count_tokens(body.get("messages") or [])
    completion_tokens = _count_tokens(_message(reply, completion_id))
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }


def _completion(
    reply: Reply, model: str, completion_id: str, body: Mapping[str, Any]
) -> dict[str, Any]:
    message = _message(reply, completion_id)
    return {
        "id": completion_id,
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": _finish_reason(reply),
                "logprobs": None,
            }
        ],
        "usage": _usage(reply, completion_id, body),
    }


def _error_body(message: str, kind: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": kind}}


__all__ = ["Delay", "Drop", "Fail", "Reply", "ScriptedModel", "Step", "StreamTiming", "tokens"]
