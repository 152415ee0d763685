"""The tool-calling agent: one loop over an OpenAI-compatible chat-completions endpoint.

    agent = Agent(llm=openai_client, model="gpt-4o-mini", memory=memory)
    reply = agent.run(ToolContext(namespace="T1:U1"), "I never take red-eye flights")

Built with a `Memory` in "agent_control" mode, the agent offers `record_to_memory` and
`retrieve_from_memory` by itself. Transient model errors (429, 5xx, timeouts, dropped
connections) are retried with exponential backoff and jitter; when the model still
cannot answer, `LLMUnavailable` is raised for the caller to turn into a kind reply.
Logs carry ids and counts, never message text.

The model's answers are streamed (`stream=True`, `bot.agent.completion`): the text the
person will see goes to `run(..., on_text=...)` as it arrives, across tool calls (a text
the model writes before calling a tool stays, and the next step's text follows it after
a paragraph break), so a channel can show the answer while it is written; the reply's
`text` is everything that was passed on. Before each tool runs, `ctx.progress` hears what
the agent is doing, in the person's language ("Recalling your travel preferences…").
A request that fails before any of its text was passed on is retried as before; once
some was, the answer cannot be taken back, so the failure ends the turn
(`LLMUnavailable`). `stream=False` asks for whole answers instead (endpoints that cannot
stream); `on_text` then hears each step's text at once.
"""

from __future__ import annotations

import dataclasses
import logging
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import httpx
import openai

import prompts
from bot.agent.completion import (
    BrokenStream,
    CallRequest,
    ModelMessage,
    StreamReader,
    from_response,
)
from bot.agent.memory_tools import memory_tools, preferences_block
from bot.agent.prompt import system_prompt
from bot.agent.tools import Tool, ToolContext, ToolRegistry
from bot.errors import LLMUnavailable
from bot.messages import lang_of, t
from bot.retry import retry_after as parse_retry_after
from memory.lang import Lang

if TYPE_CHECKING:
    from bot.metrics import Metrics
    from bot.settings import Settings
    from memory.engine import Memory

log = logging.getLogger(__name__)

MemoryMode = Literal["agent_control", "static_control", "both"]
HistoryTurn = Mapping[str, Any]
TextSink = Callable[[str], None]

_RETRYABLE_STATUS = frozenset({408, 409, 425, 429})


class ToolCall(NamedTuple):
    """One tool call the model made in a turn, and what the tool answered."""

    name: str
    arguments: str
    result: str


@dataclass(frozen=True, slots=True)
class Usage:
    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True, slots=True)
class AgentReply:
    """The answer of one turn."""

    text: str
    tool_calls: list[ToolCall]
    usage: Usage
    lang: Lang = "en"
    steps: int = 0
    step_capped: bool = False


class _Turn:
    """Mutable bookkeeping of one `Agent.run`."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.requests = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.calls: list[ToolCall] = []

    def usage(self) -> Usage:
        return Usage(self.requests, self.prompt_tokens, self.completion_tokens)


class _Said:
    """What the person has been shown of the answer so far, passed on to `on_text`.

    Leading blank space is dropped; a step's text after an earlier step's starts a new
    paragraph. A failing `on_text` is logged once and never stops the turn.
    """

    def __init__(self, on_text: TextSink | None) -> None:
        self._on_text = on_text
        self._parts: list[str] = []
        self._new_step = False
        self._broken = False

    @property
    def text(self) -> str:
        return "".join(self._parts)

    def step(self) -> None:
        """A new request to the model begins."""
        self._new_step = bool(self._parts)

    def __call__(self, delta: str) -> None:
        if not self._parts:
            delta = delta.lstrip()
            if not delta:
                return
        if self._new_step:
            self._new_step = False
            shown = self.text
            gap = "" if shown.endswith("\n\n") else "\n" if shown.endswith("\n") else "\n\n"
            if gap:
                self._emit(gap)
        self._emit(delta)

    def _emit(self, text: str) -> None:
        self._parts.append(text)
        if self._on_text is None or self._broken:
            return
        try:
            self._on_text(text)
        except Exception as exc:
            self._broken = True
            log.warning("could not pass the answer on as it came (%s)", type(exc).__name__)


class Agent:
    """Runs turns against the model with the registered tools; thread-safe."""

    def __init__(
        self,
        *,
        llm: openai.OpenAI,
        model: str,
        memory: Memory | None = None,
        memory_mode: MemoryMode = "agent_control",
        tools: Iterable[Tool | Callable[..., Any]] = (),
        max_steps: int = 6,
        timeout_seconds: float = 90.0,
        request_timeout_seconds: float = 30.0,
        max_retries: int = 3,
        backoff_seconds: float = 0.5,
        max_backoff_seconds: float = 8.0,
        max_retry_after_seconds: float = 10.0,
        temperature: float | None = None,
        metrics: Metrics | None = None,
        clock: Callable[[], datetime] | None = None,
        stream: bool = True,
    ) -> None:
        if max_steps < 1:
            raise ValueError("max_steps must be at least 1")
        self._completions: Any = llm.with_options(max_retries=0).chat.completions
        self.model = model
        self.memory = memory
        self.memory_mode = memory_mode
        self.tools = ToolRegistry()
        if memory is not None and memory_mode in ("agent_control", "both"):
            for built in memory_tools(memory):
                self.tools.add(built)
        for item in tools:
            self.tools.add(item)
        self.max_steps = max_steps
        self.timeout_seconds = timeout_seconds
        self.request_timeout_seconds = request_timeout_seconds
        self.max_retries = max_retries
        self.backoff_seconds = backoff_seconds
        self.max_backoff_seconds = max_backoff_seconds
        self.max_retry_after_seconds = max_retry_after_seconds
        self.temperature = temperature
        self.metrics = metrics
        self._clock = clock or (lambda: datetime.now(UTC))
        self.stream = stream

    # -- one turn -----------------------------------------------------------------------

    def run(
        self,
        ctx: ToolContext,
        user_message: str,
        history: Sequence[HistoryTurn] = (),
        *,
        on_text: TextSink | None = None,
    ) -> AgentReply:
        """Answer `user_message`, calling tools as the model asks.

        `history` holds earlier turns of the conversation as `{"role", "content"}` dicts
        (user and assistant only). `on_text` hears the answer as it is written (see the
        module docstring). Raises `LLMUnavailable` when the model cannot answer.
        """
        started = time.monotonic()
        turn = _Turn(deadline=started + self.timeout_seconds)
        lang = lang_of(user_message, ctx.lang)
        if lang != ctx.lang:
            ctx = dataclasses.replace(ctx, lang=lang)
        messages = self._opening(ctx, user_message, history)
        offered = {tool.name: tool for tool in self.tools.offered(ctx)}
        schemas = [tool.schema for tool in offered.values()]
        said = _Said(on_text)
        if self.metrics is not None:
            self.metrics.inc("agent_turns_total")
        try:
            for step in range(1, self.max_steps + 1):
                message = self._complete(messages, schemas, turn, said)
                if not message.calls:
                    return self._finish(ctx, turn, said, step, capped=False)
                messages.append(_assistant_message(message))
                for call in message.calls:
                    messages.append(self._call_tool(ctx, call, offered, turn))
            messages.append(
                {"role": "system", "content": prompts.render(f"agent_final_answer.{lang}.md")}
            )
            self._complete(messages, schemas, turn, said, final=True)
            return self._finish(ctx, turn, said, self.max_steps + 1, capped=True)
        finally:
            log.info(
                "agent turn ns=%s requests=%d tool_calls=%d tokens=%d seconds=%.2f",
                ctx.namespace,
                turn.requests,
                len(turn.calls),
                turn.prompt_tokens + turn.completion_tokens,
                time.monotonic() - started,
            )

    def _opening(
        self, ctx: ToolContext, user_message: str, history: Sequence[HistoryTurn]
    ) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": system_prompt(ctx, self._clock())}
        ]
        if self.memory is not None and self.memory_mode in ("static_control", "both"):
            recalled = self.memory.recall(ctx.subject_namespace, user_message)
            block = preferences_block(
                recalled.summary,
                colleague=ctx.on_behalf_of is not None,
                unavailable=recalled.status == "unavailable",
            )
            messages.append({"role": "system", "content": block})
        for turn in history:
            role, content = turn.get("role"), turn.get("content")
            if role in ("user", "assistant") and isinstance(content, str) and content.strip():
                messages.append({"role": role, "content": content})
        messages.append({"role": "user", "content": user_message})
        return messages

    def _finish(
        self, ctx: ToolContext, turn: _Turn, said: _Said, steps: int, *, capped: bool
    ) -> AgentReply:
        text = said.text.strip()
        if not text:
            said(t("agent_step_cap" if capped else "agent_empty_reply", ctx.lang))
            text = said.text.strip()
        return AgentReply(
            text=text,
            tool_calls=turn.calls,
            usage=turn.usage(),
            lang=ctx.lang,
            steps=steps,
            step_capped=capped,
        )

    def _call_tool(
        self, ctx: ToolContext, call: CallRequest, offered: Mapping[str, Tool], turn: _Turn
    ) -> dict[str, Any]:
        name = call.name or call.kind
        chosen = offered.get(name) if call.kind == "function" else None
        if chosen is None:
            known = ", ".join(offered) or "none"
            result = f"error: unknown tool '{name}'; the available tools are: {known}"
        else:
            ctx.tell(t(chosen.status, ctx.lang))
            result = chosen.invoke(ctx, call.arguments)
        turn.calls.append(ToolCall(name, call.arguments, result))
        if self.metrics is not None:
            self.metrics.inc("tool_calls_total", tool=name if chosen is not None else "unknown")
        log.info(
            "tool call ns=%s tool=%s ok=%s",
            ctx.namespace,
            name if chosen is not None else "unknown",
            not result.startswith("error:"),
        )
        return {"role": "tool", "tool_call_id": call.id, "content": result}

    # -- the model request, with retries ------------------------------------------------

    def _complete(
        self,
        messages: list[dict[str, Any]],
        schemas: list[dict[str, Any]],
        turn: _Turn,
        said: _Said,
        *,
        final: bool = False,
    ) -> ModelMessage:
        request: dict[str, Any] = {"model": self.model, "messages": messages}
        if schemas:
            request["tools"] = schemas
            if final:
                request["tool_choice"] = "none"
        if self.temperature is not None:
            request["temperature"] = self.temperature
        if self.stream:
            request["stream"] = True
            request["stream_options"] = {"include_usage": True}
        attempt = 0
        while True:
            remaining = turn.deadline - time.monotonic()
            if remaining <= 0:
                raise LLMUnavailable("the model did not answer within the turn's time limit")
            timeout = min(self.request_timeout_seconds, remaining)
            started = time.monotonic()
            retry_after: float | None = None
            said.step()
            shown = len(said.text)
            try:
                message = self._request(request, timeout, turn, said, started)
            except openai.APIStatusError as exc:
                self._observe(started, outcome=str(exc.status_code))
                status = exc.status_code
                if status not in _RETRYABLE_STATUS and status < 500:
                    raise LLMUnavailable(f"the model refused the request (HTTP {status})") from exc
                retry_after = parse_retry_after(exc.response.headers)
                reason = f"HTTP {status}"
                cause: Exception = exc
            except (openai.APIConnectionError, httpx.HTTPError, BrokenStream) as exc:
                timed_out = _is_timeout(exc)
                self._observe(started, outcome="timeout" if timed_out else "connection")
                reason = "timeout" if timed_out else "connection error"
                cause = exc
            except openai.APIError as exc:  # an error event in the middle of a stream
                self._observe(started, outcome="stream_error")
                reason = "error in the stream"
                cause = exc
            except (openai.OpenAIError, ValueError) as exc:
                self._observe(started, outcome="invalid")
                raise LLMUnavailable(f"unusable model response ({type(exc).__name__})") from exc
            else:
                self._observe(started, outcome="ok")
                return self._accept(message, turn)
            if len(said.text) > shown:  # part of this answer is shown: it cannot be redone
                raise LLMUnavailable(f"the model's answer broke off ({reason})") from cause
            attempt += 1
            if attempt > self.max_retries:
                raise LLMUnavailable(f"the model failed {attempt} times ({reason})") from cause
            delay = self._delay(attempt, retry_after)
            if time.monotonic() + delay >= turn.deadline:
                raise LLMUnavailable(f"no time left to retry the model ({reason})") from cause
            log.info("model request failed (%s); retry %d in %.2fs", reason, attempt, delay)
            time.sleep(delay)

    def _request(
        self,
        request: dict[str, Any],
        timeout: float,
        turn: _Turn,
        said: _Said,
        started: float,
    ) -> ModelMessage:
        """One request: the streamed answer read to its end (or a whole one)."""
        if not self.stream:
            message = from_response(self._completions.create(**request, timeout=timeout))
            if message.content:
                said(message.content)
            return message
        first: list[float] = []

        def text(delta: str) -> None:
            if not first:
                first.append(time.monotonic() - started)
            said(delta)

        reader = StreamReader(text)
        with self._completions.create(**request, timeout=timeout) as stream:
            for chunk in stream:
                reader.feed(chunk)
                if time.monotonic() > turn.deadline:
                    raise LLMUnavailable("the model did not finish within the turn's time limit")
        if first and self.metrics is not None:
            self.metrics.observe("llm_first_token_seconds", first[0])
        return reader.message()

    def _accept(self, message: ModelMessage, turn: _Turn) -> ModelMessage:
        turn.requests += 1
        turn.prompt_tokens += message.prompt_tokens
        turn.completion_tokens += message.completion_tokens
        if self.metrics is not None:
            self.metrics.inc("llm_tokens_total", message.prompt_tokens, kind="prompt")
            self.metrics.inc("llm_tokens_total", message.completion_tokens, kind="completion")
        return message

    def _observe(self, started: float, *, outcome: str) -> None:
        if self.metrics is not None:
            self.metrics.observe("llm_request_seconds", time.monotonic() - started)
            if outcome != "ok":
                self.metrics.inc("llm_errors_total", kind=outcome)

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None and 0 <= retry_after <= self.max_retry_after_seconds:
            return retry_after
        ceiling = min(self.max_backoff_seconds, self.backoff_seconds * 2 ** (attempt - 1))
        return random.uniform(ceiling / 2, ceiling)


def _assistant_message(message: ModelMessage) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": message.content,
        "tool_calls": [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": call.arguments},
            }
            for call in message.calls
        ],
    }


def _is_timeout(exc: Exception) -> bool:
    return isinstance(exc, (openai.APITimeoutError, httpx.TimeoutException))


def build_agent(
    settings: Settings,
    memory: Memory | None,
    metrics: Metrics | None = None,
    extra_tools: Iterable[Tool | Callable[..., Any]] = (),
) -> Agent | None:
    """The agent the console and the Slack app run; None when no LLM is configured."""
    if not settings.llm_configured:
        return None
    from memory.llm import openai_client

    request_timeout = settings.llm_timeout_seconds
    return Agent(
        llm=openai_client(settings, max_retries=0),
        model=settings.llm_model,
        memory=memory,
        tools=extra_tools,
        request_timeout_seconds=request_timeout,
        timeout_seconds=max(request_timeout * 3, 60.0),
        metrics=metrics,
        stream=settings.llm_stream,
    )


__all__ = [
    "Agent",
    "AgentReply",
    "HistoryTurn",
    "MemoryMode",
    "TextSink",
    "ToolCall",
    "Usage",
    "build_agent",
]
