"""The tool-calling agent: one loop over an OpenAI-compatible chat-completions endpoint.

    agent = Agent(llm=openai_client, model="gpt-4o-mini", memory=memory)
    reply = agent.run(ToolContext(namespace="T1:U1"), "I never take red-eye flights")

Built with a `Memory` in "agent_control" mode, the agent offers `record_to_memory` and
`retrieve_from_memory` by itself. Transient model errors (429, 5xx, timeouts, dropped
connections) are retried with exponential backoff and jitter; when the model still
cannot answer, `LLMUnavailable` is raised for the caller to turn into a kind reply.
Logs carry ids and counts, never message text.
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

import openai

import prompts
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
    from memory.protocol import LongTermMemory

log = logging.getLogger(__name__)

MemoryMode = Literal["agent_control", "static_control", "both"]
HistoryTurn = Mapping[str, Any]

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


class Agent:
    """Runs turns against the model with the registered tools; thread-safe."""

    def __init__(
        self,
        *,
        llm: openai.OpenAI,
        model: str,
        memory: LongTermMemory | None = None,
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

    # -- one turn -----------------------------------------------------------------------

    def run(
        self, ctx: ToolContext, user_message: str, history: Sequence[HistoryTurn] = ()
    ) -> AgentReply:
        """Answer `user_message`, calling tools as the model asks.

        `history` holds earlier turns of the conversation as `{"role", "content"}` dicts
        (user and assistant only). Raises `LLMUnavailable` when the model cannot answer.
        """
        started = time.monotonic()
        turn = _Turn(deadline=started + self.timeout_seconds)
        lang = lang_of(user_message, ctx.lang)
        if lang != ctx.lang:
            ctx = dataclasses.replace(ctx, lang=lang)
        messages = self._opening(ctx, user_message, history)
        offered = {tool.name: tool for tool in self.tools.offered(ctx)}
        schemas = [tool.schema for tool in offered.values()]
        if self.metrics is not None:
            self.metrics.inc("agent_turns_total")
        try:
            for step in range(1, self.max_steps + 1):
                message = self._complete(messages, schemas, turn)
                calls = list(message.tool_calls or [])
                if not calls:
                    return self._finish(ctx, turn, message.content, step, capped=False)
                messages.append(_assistant_message(message.content, calls))
                for call in calls:
                    messages.append(self._call_tool(ctx, call, offered, turn))
            messages.append(
                {"role": "system", "content": prompts.render(f"agent_final_answer.{lang}.md")}
            )
            message = self._complete(messages, schemas, turn, final=True)
            text = None if message.tool_calls else message.content
            return self._finish(ctx, turn, text, self.max_steps + 1, capped=True)
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
        self, ctx: ToolContext, turn: _Turn, text: str | None, steps: int, *, capped: bool
    ) -> AgentReply:
        text = (text or "").strip()
        if not text:
            text = t("agent_step_cap" if capped else "agent_empty_reply", ctx.lang)
        return AgentReply(
            text=text,
            tool_calls=turn.calls,
            usage=turn.usage(),
            lang=ctx.lang,
            steps=steps,
            step_capped=capped,
        )

    def _call_tool(
        self, ctx: ToolContext, call: Any, offered: Mapping[str, Tool], turn: _Turn
    ) -> dict[str, Any]:
        function = getattr(call, "function", None)
        name = str(getattr(function, "name", "") or getattr(call, "type", "") or "")
        arguments = str(getattr(function, "arguments", "") or "")
        chosen = offered.get(name) if getattr(call, "type", "function") == "function" else None
        if chosen is None:
            known = ", ".join(offered) or "none"
            result = f"error: unknown tool '{name}'; the available tools are: {known}"
        else:
            result = chosen.invoke(ctx, arguments)
        turn.calls.append(ToolCall(name, arguments, result))
        if self.metrics is not None:
            self.metrics.inc("tool_calls_total", tool=name if chosen is not None else "unknown")
        log.info(
            "tool call ns=%s tool=%s ok=%s",
            ctx.namespace,
            name if chosen is not None else "unknown",
            not result.startswith("error:"),
        )
        return {"role": "tool", "tool_call_id": str(getattr(call, "id", "")), "content": result}

    # -- the model request, with retries ------------------------------------------------

    def _complete(
        self,
        messages: list[dict[str, Any]],
        schemas: list[dict[str, Any]],
        turn: _Turn,
        *,
        final: bool = False,
    ) -> Any:
        request: dict[str, Any] = {"model": self.model, "messages": messages}
        if schemas:
            request["tools"] = schemas
            if final:
                request["tool_choice"] = "none"
        if self.temperature is not None:
            request["temperature"] = self.temperature
        attempt = 0
        while True:
            remaining = turn.deadline - time.monotonic()
            if remaining <= 0:
                raise LLMUnavailable("the model did not answer within the turn's time limit")
            timeout = min(self.request_timeout_seconds, remaining)
            started = time.monotonic()
            retry_after: float | None = None
            try:
                response = self._completions.create(**request, timeout=timeout)
            except openai.APIStatusError as exc:
                self._observe(started, outcome=str(exc.status_code))
                status = exc.status_code
                if status not in _RETRYABLE_STATUS and status < 500:
                    raise LLMUnavailable(f"the model refused the request (HTTP {status})") from exc
                retry_after = parse_retry_after(exc.response.headers)
                reason = f"HTTP {status}"
                cause: Exception = exc
            except openai.APIConnectionError as exc:  # includes timeouts
                self._observe(started, outcome="timeout" if _is_timeout(exc) else "connection")
                reason = "timeout" if _is_timeout(exc) else "connection error"
                cause = exc
            except openai.OpenAIError as exc:
                self._observe(started, outcome="invalid")
                raise LLMUnavailable(f"unusable model response ({type(exc).__name__})") from exc
            else:
                self._observe(started, outcome="ok")
                return self._accept(response, turn)
            attempt += 1
            if attempt > self.max_retries:
                raise LLMUnavailable(f"the model failed {attempt} times ({reason})") from cause
            delay = self._delay(attempt, retry_after)
            if time.monotonic() + delay >= turn.deadline:
                raise LLMUnavailable(f"no time left to retry the model ({reason})") from cause
            log.info("model request failed (%s); retry %d in %.2fs", reason, attempt, delay)
            time.sleep(delay)

    def _accept(self, response: Any, turn: _Turn) -> Any:
        turn.requests += 1
        usage = getattr(response, "usage", None)
        prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion = int(getattr(usage, "completion_tokens", 0) or 0)
        turn.prompt_tokens += prompt
        turn.completion_tokens += completion
        if self.metrics is not None:
            self.metrics.inc("llm_tokens_total", prompt, kind="prompt")
            self.metrics.inc("llm_tokens_total", completion, kind="completion")
        choices = getattr(response, "choices", None) or []
        if not choices or getattr(choices[0], "message", None) is None:
            raise LLMUnavailable("the model returned no answer")
        return choices[0].message

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


def _assistant_message(content: str | None, calls: Sequence[Any]) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": content,
        "tool_calls": [
            {
                "id": str(getattr(call, "id", "")),
                "type": "function",
                "function": {
                    "name": str(getattr(getattr(call, "function", None), "name", "") or ""),
                    "arguments": str(
                        getattr(getattr(call, "function", None), "arguments", "") or ""
                    ),
                },
            }
            for call in calls
        ],
    }


def _is_timeout(exc: Exception) -> bool:
    return isinstance(exc, openai.APITimeoutError)


def build_agent(
    settings: Settings,
    memory: LongTermMemory | None,
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
    )


__all__ = [
    "Agent",
    "AgentReply",
    "HistoryTurn",
    "MemoryMode",
    "ToolCall",
    "Usage",
    "build_agent",
]
