"""The tool-calling agent: one loop over an OpenAI-compatible chat-completions endpoint.

    agent = Agent(llm=openai_client, model="gpt-4o-mini", memory=memory)
    reply = agent.run(ToolContext(namespace="T1:U1"), "I never take red-eye flights")

Built with a `Memory` in "agent_control" mode, the agent offers `record_to_memory` and
`retrieve_from_memory` by itself. The requests to the model (`bot.agent.model`) retry
transient errors (429, 5xx, timeouts, dropped connections) with exponential backoff and
jitter; when the model still cannot answer, `LLMUnavailable` is raised for the caller to
turn into a kind reply. Logs carry ids and counts, never message text.

The model's answers are streamed: the text the person will see goes to
`run(..., on_text=...)` as it arrives, across tool calls (a text the model writes before
calling a tool stays, and the next step's text follows it after a paragraph break), so a
channel can show the answer while it is written; the reply's `text` is everything that
was passed on. Before each tool runs, `ctx.progress` hears what the agent is doing, in
the person's language ("Recalling your travel preferences…"). A request that fails after
part of its text was passed on cannot take it back, so the turn ends (`LLMUnavailable`).
`stream=False` asks for whole answers (endpoints that cannot stream); `on_text` then
hears each step's text at once.

A turn the person stopped (`ctx.stop` set: a platform's stop button) ends at the next chunk
of the model's answer, before the next request or tool call, and before any tool writes:
`TurnStopped`. The reply says which remembered preferences the recall brought to the
model (`AgentReply.used`, `bot.agent.used`).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import openai

import prompts
from bot.agent.completion import CallRequest, ModelMessage
from bot.agent.memory_tools import memory_tools, note_unreadable, preferences_block
from bot.agent.model import Model, Said
from bot.agent.prompt import system_prompt
from bot.agent.tools import Tool, ToolContext, ToolRegistry
from bot.agent.used import UsedPreference, used_preferences
from bot.messages import lang_of, t
from memory.intake import repaired
from memory.lang import Lang

if TYPE_CHECKING:
    from bot.metrics import Metrics
    from memory.protocol import LongTermMemory

log = logging.getLogger(__name__)

MemoryMode = Literal["agent_control", "static_control", "both"]
HistoryTurn = Mapping[str, Any]
TextSink = Callable[[str], None]


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
    # The remembered preferences the turn's recall brought to the model, newest first.
    used: tuple[UsedPreference, ...] = ()


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
        stream: bool = True,
    ) -> None:
        if max_steps < 1:
            raise ValueError("max_steps must be at least 1")
        self.model = Model(
            llm=llm,
            model=model,
            request_timeout_seconds=request_timeout_seconds,
            max_retries=max_retries,
            backoff_seconds=backoff_seconds,
            max_backoff_seconds=max_backoff_seconds,
            max_retry_after_seconds=max_retry_after_seconds,
            temperature=temperature,
            metrics=metrics,
            stream=stream,
        )
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
        self.metrics = metrics
        self._clock = clock or (lambda: datetime.now(UTC))

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
        user_message = repaired(user_message)  # a lone surrogate cannot be sent as UTF-8
        lang = lang_of(user_message, ctx.lang)
        # this turn's notes and recalls only
        ctx = dataclasses.replace(ctx, lang=lang, notes=[], recalled=[])
        messages = self._opening(ctx, user_message, history)
        offered = {tool.name: tool for tool in self.tools.offered(ctx)}
        schemas = [tool.schema for tool in offered.values()]
        said = Said(on_text, stop=ctx.stop)
        if self.metrics is not None:
            self.metrics.inc("agent_turns_total")
        try:
            for step in range(1, self.max_steps + 1):
                ctx.check_stop()
                message = self._complete(messages, schemas, turn, said)
                if not message.calls:
                    return self._finish(ctx, turn, said, step, capped=False)
                messages.append(_assistant_message(message))
                for call in message.calls:
                    messages.append(self._call_tool(ctx, call, offered, turn))
            messages.append(
                {"role": "system", "content": prompts.render(f"agent_final_answer.{lang}.md")}
            )
            ctx.check_stop()
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
            if recalled.status == "unavailable":
                note_unreadable(ctx)
            ctx.recall_used(recalled.summary)
            block = preferences_block(
                recalled.summary,
                plain=ctx.plain,
                colleague=ctx.on_behalf_of is not None,
                unavailable=recalled.status == "unavailable",
            )
            messages.append({"role": "system", "content": block})
        for turn in history:
            role, content = turn.get("role"), turn.get("content")
            if role in ("user", "assistant") and isinstance(content, str) and content.strip():
                messages.append({"role": role, "content": repaired(content)})
        messages.append({"role": "user", "content": user_message})
        return messages

    def _finish(
        self, ctx: ToolContext, turn: _Turn, said: Said, steps: int, *, capped: bool
    ) -> AgentReply:
        if not said.text.strip():
            said(t("agent_step_cap" if capped else "agent_empty_reply", ctx.lang))
        for key in ctx.notes:  # what the person must hear, whether or not the model said it
            said.step()
            said(t(key, ctx.lang))
        text = said.text.strip()
        ctx.check_stop()
        return AgentReply(
            text=text,
            tool_calls=turn.calls,
            usage=turn.usage(),
            lang=ctx.lang,
            steps=steps,
            step_capped=capped,
            used=tuple(self._used(ctx)),
        )

    def _used(self, ctx: ToolContext) -> list[UsedPreference]:
        """The remembered preferences this turn's recall brought to the model (one read
        of the traveller's current facts, only when something was recalled)."""
        if self.memory is None or not ctx.recalled:
            return []
        try:
            items = self.memory.items(ctx.subject_namespace)
        except Exception as exc:  # the answer stands without them
            log.warning("could not tell which preferences were used (%s)", type(exc).__name__)
            return []
        return used_preferences(items, ctx.recalled, lang=ctx.lang, tz=ctx.tz)

    def _complete(
        self,
        messages: list[dict[str, Any]],
        schemas: list[dict[str, Any]],
        turn: _Turn,
        said: Said,
        *,
        final: bool = False,
    ) -> ModelMessage:
        message = self.model.complete(messages, schemas, turn.deadline, said, final=final)
        return self._accept(message, turn)

    def _accept(self, message: ModelMessage, turn: _Turn) -> ModelMessage:
        turn.requests += 1
        turn.prompt_tokens += message.prompt_tokens
        turn.completion_tokens += message.completion_tokens
        if self.metrics is not None:
            self.metrics.inc("llm_tokens_total", message.prompt_tokens, kind="prompt")
            self.metrics.inc("llm_tokens_total", message.completion_tokens, kind="completion")
        return message

    def _call_tool(
        self, ctx: ToolContext, call: CallRequest, offered: Mapping[str, Tool], turn: _Turn
    ) -> dict[str, Any]:
        name = call.name or call.kind
        chosen = offered.get(name) if call.kind == "function" else None
        if chosen is None:
            known = ", ".join(offered) or "none"
            result = f"error: unknown tool '{name}'; the available tools are: {known}"
        else:
            ctx.check_stop()
            ctx.tell(t(chosen.status, ctx.lang))
            result = repaired(chosen.invoke(ctx, call.arguments))
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


__all__ = [
    "Agent",
    "AgentReply",
    "HistoryTurn",
    "MemoryMode",
    "TextSink",
    "ToolCall",
    "Usage",
]
