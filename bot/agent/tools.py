"""Tools the agent offers the model, built from typed Python functions.

A tool is a function whose first parameter is the per-request `ToolContext` and whose
other parameters are JSON-friendly and annotated (`str`, `int`, `float`, `bool`,
`list[...]` of those, `Literal[...]`, and `X | None` with a default). Its docstring's
prose (everything before the first section) describes the tool to the model, so write
it for the model; an `Args:` section describes each parameter:

    @tool
    def lookup(ctx: ToolContext, city: str, limit: int = 3) -> str:
        '''Find hotels in a city.

        Args:
            city: The city name, in the user's language.
            limit: How many hotels to return.
        '''

`Tool.invoke(ctx, arguments)` checks and coerces the model's arguments and never
raises but `TurnStopped` (the person stopped the turn): bad JSON, missing, unexpected
or mistyped arguments and exceptions inside the tool all come back as an `error: ...`
text the model can act on. How parameters become
JSON schema and how arguments are checked lives in `bot.agent.tool_schema`.
"""

from __future__ import annotations

import inspect
import json
import logging
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, overload

from bot.agent.tool_schema import (
    ArgumentError,
    Parameter,
    bind_arguments,
    parameters_of,
    parameters_schema,
    parse_docstring,
)
from bot.errors import TurnStopped
from memory.lang import Lang

if TYPE_CHECKING:
    from bot.platform import Platform

log = logging.getLogger(__name__)

MAX_RESULT_CHARS = 8000


@dataclass(frozen=True, slots=True)
class ToolContext:
    """Who a request is for; passed to every tool, never sent to the model."""

    namespace: str
    user_id: str = ""
    tenant: str = ""  # the workspace, tenant or organisation on the chat platform
    lang: Lang = "en"
    tz: str = "UTC"
    on_behalf_of: str | None = None  # the colleague's namespace when an admin plans for one
    traveller_name: str | None = None  # how replies name that colleague (a mention)
    can_record: bool = True
    # Where the person is looking, when the platform says (an assistant pane beside a
    # channel: that channel), written as the model may repeat it.
    viewing: str | None = None
    # Hears what the agent is doing, in the person's language ("Scoring 25 options…"), for
    # channels that can show it; never sent to the model.
    progress: Callable[[str], None] | None = field(default=None, compare=False, repr=False)
    # What the person must be told under the answer whatever the model writes: keys of
    # `bot.messages` (memory could not be read, a preference was not saved). Tools add
    # them (`note`); the agent gives every turn a list of its own and says each once.
    notes: list[str] = field(default_factory=list, compare=False, repr=False)
    # The chat platform the person is on (None: none, e.g. a test): how the prompt names
    # it and its commands, and how its text writes a mention.
    platform: Platform | None = field(default=None, compare=False, repr=False)

    def plain(self, text: str) -> str:
        """`text` with the platform's markup made plain (`bot.platform.Markup.plain`)."""
        return self.platform.markup.plain(text) if self.platform is not None else text

    # Whether the person is a travel admin of their organisation, asked only when a tool
    # needs to know (the travel policy tool); None: not known to be one.
    travel_admin: Callable[[], bool] | None = field(default=None, compare=False, repr=False)
    # Set when the person stopped the turn (a platform's stop button): the agent stops at the
    # next model chunk or tool call, and no tool writes after it (`check_stop`).
    stop: threading.Event | None = field(default=None, compare=False, repr=False)
    # The preference summaries this turn's recall brought to the model (memory tools, the
    # planner): which remembered preferences the answer used (`bot.agent.used`).
    recalled: list[str] = field(default_factory=list, compare=False, repr=False)

    @property
    def subject_namespace(self) -> str:
        """The traveller whose preferences apply: the colleague when planning for one."""
        return self.on_behalf_of or self.namespace

    def is_travel_admin(self) -> bool:
        """Asks `travel_admin`; a failure to tell is "no"."""
        if self.travel_admin is None:
            return False
        try:
            return bool(self.travel_admin())
        except Exception as exc:
            log.warning(
                "could not tell whether the person is a travel admin (%s)", type(exc).__name__
            )
            return False

    @property
    def stopped(self) -> bool:
        """Whether the person stopped this turn."""
        return self.stop is not None and self.stop.is_set()

    def check_stop(self) -> None:
        """Raise `TurnStopped` once the person stopped this turn (before any write)."""
        if self.stopped:
            raise TurnStopped("the person stopped the turn")

    def recall_used(self, summary: str) -> None:
        """A recalled preference summary reached the model (`recalled`)."""
        if summary and summary not in self.recalled:
            self.recalled.append(summary)

    def note(self, key: str) -> None:
        """Have the `bot.messages` note `key` said under this turn's answer (once)."""
        if key not in self.notes:
            self.notes.append(key)

    def tell(self, status: str) -> None:
        """Say what the agent is doing now (`progress`); a failing listener is only logged."""
        if self.progress is None:
            return
        try:
            self.progress(status)
        except Exception as exc:
            log.warning("could not show what the agent is doing (%s)", type(exc).__name__)


def _always(ctx: ToolContext) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class Tool:
    """A function the model may call, with its schema and a safe `invoke`."""

    name: str
    description: str
    parameters: tuple[Parameter, ...]
    function: Callable[..., Any]
    available: Callable[[ToolContext], bool] = _always
    status: str = "working"  # the `bot.messages` key said while the tool runs

    @classmethod
    def from_function(
        cls,
        function: Callable[..., Any],
        *,
        name: str | None = None,
        description: str | None = None,
        available: Callable[[ToolContext], bool] | None = None,
        status: str = "working",
    ) -> Tool:
        """Build a tool from a typed function whose first parameter is the context."""
        summary, arg_docs = parse_docstring(inspect.getdoc(function) or "")
        return cls(
            name=name or function.__name__,
            description=description or summary,
            parameters=parameters_of(function, arg_docs),
            function=function,
            available=available or _always,
            status=status,
        )

    @property
    def schema(self) -> dict[str, Any]:
        """The OpenAI chat-completions tool definition."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": parameters_schema(self.parameters),
            },
        }

    def bind(self, arguments: str | Mapping[str, Any] | None) -> dict[str, Any]:
        """Parse and check the model's arguments; raises `ArgumentError` when they don't fit."""
        return bind_arguments(self.parameters, arguments)

    def invoke(self, ctx: ToolContext, arguments: str | Mapping[str, Any] | None) -> str:
        """Run the tool; every failure becomes an `error: ...` text for the model."""
        try:
            bound = self.bind(arguments)
        except ArgumentError as exc:
            return f"error: {exc}"
        try:
            result = self.function(ctx, **bound)
        except TurnStopped:
            raise  # the person stopped the turn: no answer, not an error for the model
        except Exception as exc:
            log.warning("tool %s failed: %s", self.name, type(exc).__name__)
            detail = " ".join(str(exc).split())[:300]
            return f"error: tool '{self.name}' failed ({type(exc).__name__}: {detail})"
        text = result if isinstance(result, str) else json.dumps(result, ensure_ascii=False)
        if len(text) > MAX_RESULT_CHARS:
            text = text[:MAX_RESULT_CHARS] + "\n[truncated]"
        return text


@overload
def tool(function: Callable[..., Any], /) -> Tool: ...


@overload
def tool(
    *, name: str | None = None, available: Callable[[ToolContext], bool] | None = None
) -> Callable[[Callable[..., Any]], Tool]: ...


def tool(
    function: Callable[..., Any] | None = None,
    /,
    *,
    name: str | None = None,
    available: Callable[[ToolContext], bool] | None = None,
) -> Tool | Callable[[Callable[..., Any]], Tool]:
    """Decorator: `@tool` or `@tool(name=..., available=...)` turns a function into a Tool."""

    def wrap(fn: Callable[..., Any]) -> Tool:
        return Tool.from_function(fn, name=name, available=available)

    return wrap(function) if function is not None else wrap


class ToolRegistry:
    """The tools an agent may offer, by name, in registration order."""

    def __init__(self, tools: Iterable[Tool] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        for item in tools:
            self.add(item)

    def add(self, item: Tool | Callable[..., Any]) -> Tool:
        built = item if isinstance(item, Tool) else Tool.from_function(item)
        if built.name in self._tools:
            raise ValueError(f"a tool named {built.name!r} is already registered")
        self._tools[built.name] = built
        return built

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def offered(self, ctx: ToolContext) -> list[Tool]:
        """The tools available for this request."""
        return [t for t in self._tools.values() if t.available(ctx)]

    def schemas(self, ctx: ToolContext) -> list[dict[str, Any]]:
        return [t.schema for t in self.offered(ctx)]

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __iter__(self) -> Iterator[Tool]:
        return iter(list(self._tools.values()))

    def __len__(self) -> int:
        return len(self._tools)


__all__ = [
    "ArgumentError",
    "Parameter",
    "Tool",
    "ToolContext",
    "ToolRegistry",
    "parse_docstring",
    "tool",
]
