"""One answer of the model, read whole or as a stream: its text, tool calls and usage.

The agent asks the chat-completions endpoint for a stream (`stream=True`): the text
arrives a few characters at a time and is passed on as it comes (`on_text`), while tool
calls arrive as deltas that only make sense once assembled: each call's id and name
first, its JSON arguments in pieces, keyed by the call's `index` (`StreamReader`).
Endpoints differ in small ways, so the reader is lenient: a delta without an index
continues the last call unless it brings a new id, a name sent again is not doubled,
and usage is taken from whichever chunk carries it (the last one, when
`stream_options.include_usage` is honoured). A stream that ends with nothing in it and
no finish reason broke off, and says so (`BrokenStream`).

`from_response` reads a whole (non-streamed) answer into the same `ModelMessage`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


class BrokenStream(Exception):
    """The stream ended before the model's answer did."""


@dataclass(frozen=True, slots=True)
class CallRequest:
    """A tool call as the model asked for it (arguments are the model's raw JSON text)."""

    id: str
    name: str
    arguments: str
    kind: str = "function"


@dataclass(frozen=True, slots=True)
class ModelMessage:
    """The model's answer to one request."""

    content: str | None
    calls: tuple[CallRequest, ...] = ()
    finish_reason: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0


@dataclass(slots=True)
class _PartialCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)
    kind: str = "function"

    def request(self) -> CallRequest:
        return CallRequest(self.id, self.name, "".join(self.arguments), self.kind or "function")


class StreamReader:
    """Assembles a streamed answer chunk by chunk; text goes to `on_text` as it comes."""

    def __init__(self, on_text: Callable[[str], None] | None = None) -> None:
        self._on_text = on_text
        self._text: list[str] = []
        self._calls: dict[int, _PartialCall] = {}
        self._last_call: int | None = None
        self._finish: str | None = None
        self._usage: tuple[int, int] = (0, 0)
        self.chunks = 0

    @property
    def text(self) -> str:
        """The text so far."""
        return "".join(self._text)

    def feed(self, chunk: Any) -> None:
        """Take one `ChatCompletionChunk`."""
        self.chunks += 1
        usage = getattr(chunk, "usage", None)
        if usage is not None:
            self._usage = (
                int(getattr(usage, "prompt_tokens", 0) or 0),
                int(getattr(usage, "completion_tokens", 0) or 0),
            )
        for choice in getattr(chunk, "choices", None) or []:
            if int(getattr(choice, "index", 0) or 0) != 0:
                continue  # only the first choice is ever asked for
            delta = getattr(choice, "delta", None)
            if delta is not None:
                for call in getattr(delta, "tool_calls", None) or []:
                    self._call_delta(call)
                content = getattr(delta, "content", None)
                if isinstance(content, str) and content:
                    self._text.append(content)
                    if self._on_text is not None:
                        self._on_text(content)
            reason = getattr(choice, "finish_reason", None)
            if reason:
                self._finish = str(reason)

    def message(self) -> ModelMessage:
        """The whole answer, once the stream has ended; `BrokenStream` if it broke off."""
        text = self.text
        if self._finish is None and not text and not self._calls:
            raise BrokenStream("the stream ended before the answer began")
        calls = tuple(self._calls[index].request() for index in sorted(self._calls))
        prompt, completion = self._usage
        return ModelMessage(text or None, calls, self._finish, prompt, completion)

    def _call_delta(self, delta: Any) -> None:
        index = getattr(delta, "index", None)
        call_id = str(getattr(delta, "id", "") or "")
        if index is None:  # some endpoints leave it out: a new id is a new call
            known = self._last_call
            if known is None or (call_id and self._calls[known].id not in ("", call_id)):
                index = len(self._calls)
            else:
                index = known
        index = int(index)
        partial = self._calls.setdefault(index, _PartialCall())
        self._last_call = index
        if call_id:
            partial.id = call_id
        kind = getattr(delta, "type", None)
        if isinstance(kind, str) and kind:
            partial.kind = kind
        function = getattr(delta, "function", None)
        if function is None:
            return
        name = getattr(function, "name", None)
        if isinstance(name, str) and name and name != partial.name:
            partial.name += name
        arguments = getattr(function, "arguments", None)
        if isinstance(arguments, str) and arguments:
            partial.arguments.append(arguments)


def from_response(response: Any) -> ModelMessage:
    """A whole `ChatCompletion` as a `ModelMessage` (`ValueError` when it holds no answer)."""
    choices = getattr(response, "choices", None) or []
    message = getattr(choices[0], "message", None) if choices else None
    if message is None:
        raise ValueError("the model returned no answer")
    calls = []
    for call in getattr(message, "tool_calls", None) or []:
        function = getattr(call, "function", None)
        calls.append(
            CallRequest(
                id=str(getattr(call, "id", "") or ""),
                name=str(getattr(function, "name", "") or ""),
                arguments=str(getattr(function, "arguments", "") or ""),
                kind=str(getattr(call, "type", "") or "function"),
            )
        )
    usage = getattr(response, "usage", None)
    content = getattr(message, "content", None)
    return ModelMessage(
        content=content if isinstance(content, str) else None,
        calls=tuple(calls),
        finish_reason=getattr(choices[0], "finish_reason", None),
        prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
        completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
    )


__all__ = ["BrokenStream", "CallRequest", "ModelMessage", "StreamReader", "from_response"]
