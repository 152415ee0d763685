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
raises: bad JSON, missing, unexpected or mistyped arguments and exceptions inside the
tool all come back as an `error: ...` text the model can act on.
"""

from __future__ import annotations

import inspect
import json
import logging
import math
import re
import types
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, overload

from memory.lang import Lang

log = logging.getLogger(__name__)

MAX_RESULT_CHARS = 8000

_SECTION = re.compile(r"^(Args|Arguments|Parameters|Returns|Raises|Yields|Examples?|Notes?):\s*$")
_ARGS_HEADER = re.compile(r"^(Args|Arguments|Parameters):$")
_ARG_LINE = re.compile(r"^(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


@dataclass(frozen=True, slots=True)
class ToolContext:
    """Who a request is for; passed to every tool, never sent to the model."""

    namespace: str
    user_id: str = ""
    team_id: str = ""
    lang: Lang = "en"
    tz: str = "UTC"
    on_behalf_of: str | None = None
    can_record: bool = True
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def subject_namespace(self) -> str:
        """The traveller whose preferences apply: the colleague when planning for one."""
        return self.on_behalf_of or self.namespace


class ArgumentError(ValueError):
    """The model's arguments do not fit the tool's parameters."""


@dataclass(frozen=True, slots=True)
class Parameter:
    """One model-visible parameter of a tool."""

    name: str
    annotation: Any
    description: str = ""
    required: bool = True
    default: Any = None

    @property
    def schema(self) -> dict[str, Any]:
        schema = _json_schema(self.annotation)
        if self.description:
            schema["description"] = self.description
        if not self.required and self.default is not None:
            schema["default"] = self.default
        return schema

    def coerce(self, value: Any) -> Any:
        return _coerce(self.name, self.annotation, value)


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

    @classmethod
    def from_function(
        cls,
        function: Callable[..., Any],
        *,
        name: str | None = None,
        description: str | None = None,
        available: Callable[[ToolContext], bool] | None = None,
    ) -> Tool:
        """Build a tool from a typed function whose first parameter is the context."""
        signature = inspect.signature(function)
        hints = typing.get_type_hints(function)
        summary, arg_docs = parse_docstring(inspect.getdoc(function) or "")
        params = list(signature.parameters.values())
        if not params:
            raise TypeError(f"{function.__name__}: the first parameter must be the ToolContext")
        parameters = []
        for param in params[1:]:
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD, param.POSITIONAL_ONLY):
                raise TypeError(f"{function.__name__}: parameter {param.name} cannot be a tool arg")
            if param.name not in hints:
                raise TypeError(f"{function.__name__}: parameter {param.name} has no annotation")
            annotation = hints[param.name]
            _json_schema(annotation)  # reject unsupported types when the tool is built
            required = param.default is inspect.Parameter.empty
            parameters.append(
                Parameter(
                    name=param.name,
                    annotation=annotation,
                    description=arg_docs.get(param.name, ""),
                    required=required,
                    default=None if required else param.default,
                )
            )
        return cls(
            name=name or function.__name__,
            description=description or summary,
            parameters=tuple(parameters),
            function=function,
            available=available or _always,
        )

    @property
    def schema(self) -> dict[str, Any]:
        """The OpenAI chat-completions tool definition."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": {
                    "type": "object",
                    "properties": {p.name: p.schema for p in self.parameters},
                    "required": [p.name for p in self.parameters if p.required],
                    "additionalProperties": False,
                },
            },
        }

    def bind(self, arguments: str | Mapping[str, Any] | None) -> dict[str, Any]:
        """Parse and check the model's arguments; raises `ArgumentError` when they don't fit."""
        if arguments is None or (isinstance(arguments, str) and not arguments.strip()):
            raw: Any = {}
        elif isinstance(arguments, str):
            try:
                raw = json.loads(arguments)
            except json.JSONDecodeError as exc:
                raise ArgumentError(
                    f"arguments are not valid JSON ({exc.msg} at position {exc.pos}); "
                    f"send one JSON object, e.g. {self._example()}"
                ) from None
        else:
            raw = arguments
        if not isinstance(raw, Mapping):
            raise ArgumentError(f"arguments must be a JSON object, e.g. {self._example()}")
        known = {p.name: p for p in self.parameters}
        extra = sorted(set(raw) - set(known))
        if extra:
            names = ", ".join(f"'{name}'" for name in extra)
            expected = ", ".join(known) or "none"
            raise ArgumentError(f"unexpected argument {names} (expected: {expected})")
        bound: dict[str, Any] = {}
        for param in self.parameters:
            if param.name in raw:
                bound[param.name] = param.coerce(raw[param.name])
            elif param.required:
                raise ArgumentError(f"missing required argument '{param.name}'")
            else:
                bound[param.name] = param.default
        return bound

    def invoke(self, ctx: ToolContext, arguments: str | Mapping[str, Any] | None) -> str:
        """Run the tool; every failure becomes an `error: ...` text for the model."""
        try:
            bound = self.bind(arguments)
        except ArgumentError as exc:
            return f"error: {exc}"
        try:
            result = self.function(ctx, **bound)
        except Exception as exc:
            log.warning("tool %s failed: %s", self.name, type(exc).__name__)
            detail = " ".join(str(exc).split())[:300]
            return f"error: tool '{self.name}' failed ({type(exc).__name__}: {detail})"
        text = result if isinstance(result, str) else json.dumps(result, ensure_ascii=False)
        if len(text) > MAX_RESULT_CHARS:
            text = text[:MAX_RESULT_CHARS] + "\n[truncated]"
        return text

    def _example(self) -> str:
        example = {p.name: _placeholder(p.annotation) for p in self.parameters if p.required}
        return json.dumps(example, ensure_ascii=False)


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


def parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """(description, {parameter: description}) from a Google-style docstring.

    The description is the prose before the first section (`Args:`, `Returns:` ...),
    with each paragraph's lines joined; everything in it is written for the model.
    """
    lines = inspect.cleandoc(doc).splitlines() if doc else []
    paragraphs: list[list[str]] = [[]]
    for line in lines:
        if _SECTION.match(line.strip()):
            break
        if line.strip():
            paragraphs[-1].append(line.strip())
        elif paragraphs[-1]:
            paragraphs.append([])
    args: dict[str, str] = {}
    start = next((i for i, line in enumerate(lines) if _ARGS_HEADER.match(line.strip())), None)
    if start is not None:
        base = _indent(lines[start])
        item_indent: int | None = None
        current: str | None = None
        for line in lines[start + 1 :]:
            if not line.strip():
                continue
            indent = _indent(line)
            if indent <= base:
                break  # the next section
            if item_indent is None:
                item_indent = indent
            match = _ARG_LINE.match(line.strip())
            if match and indent <= item_indent:
                current = match.group(1).lstrip("*")
                args[current] = match.group(2).strip()
            elif current is not None:
                args[current] = f"{args[current]} {line.strip()}".strip()
    description = "\n\n".join(" ".join(p) for p in paragraphs if p)
    return description, args


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


# -- annotations ---------------------------------------------------------------------------


def _split_optional(annotation: Any) -> tuple[Any, bool]:
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin is types.UnionType:
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(members) == 1 and len(typing.get_args(annotation)) == 2:
            return members[0], True
        raise TypeError(f"unsupported union {annotation!r}; use one type or X | None")
    return annotation, False


_SCALARS: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}
_NAMES = {
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "true or false",
}
_PLURALS = {str: "strings", int: "integers", float: "numbers", bool: "booleans"}


def _json_schema(annotation: Any) -> dict[str, Any]:
    inner, _ = _split_optional(annotation)
    if inner in _SCALARS:
        return {"type": _SCALARS[inner]}
    origin = typing.get_origin(inner)
    if origin is Literal:
        choices = list(typing.get_args(inner))
        kinds = {type(c) for c in choices}
        if len(kinds) != 1 or next(iter(kinds)) not in _SCALARS:
            raise TypeError(f"unsupported Literal {inner!r}")
        return {"type": _SCALARS[next(iter(kinds))], "enum": choices}
    if origin is list:
        (item,) = typing.get_args(inner) or (str,)
        return {"type": "array", "items": _json_schema(item)}
    raise TypeError(f"unsupported tool parameter type {annotation!r}")


def _describe(annotation: Any) -> str:
    inner, optional = _split_optional(annotation)
    origin = typing.get_origin(inner)
    if inner in _NAMES:
        text = _NAMES[inner]
    elif origin is Literal:
        text = "one of " + _choices(inner)
    elif origin is list:
        (item,) = typing.get_args(inner) or (str,)
        if item in _PLURALS:
            text = f"a list of {_PLURALS[item]}"
        elif typing.get_origin(item) is Literal:
            text = "a list of values from " + _choices(item)
        else:
            text = f"a list of {item!r}"
    else:
        text = repr(inner)
    return f"{text} or null" if optional else text


def _choices(literal: Any) -> str:
    return ", ".join(json.dumps(c, ensure_ascii=False) for c in typing.get_args(literal))


def _placeholder(annotation: Any) -> Any:
    inner, _ = _split_optional(annotation)
    origin = typing.get_origin(inner)
    if origin is list:
        (item,) = typing.get_args(inner) or (str,)
        return [_placeholder(item)]
    if origin is Literal:
        return typing.get_args(inner)[0]
    return {str: "...", int: 1, float: 1.0, bool: True}.get(inner, "...")


def _coerce(name: str, annotation: Any, value: Any) -> Any:
    inner, optional = _split_optional(annotation)
    if value is None:
        if optional:
            return None
        raise ArgumentError(f"argument '{name}' must be {_describe(annotation)}, not null")
    try:
        return _coerce_value(inner, value)
    except ArgumentError:
        raise ArgumentError(f"argument '{name}' must be {_describe(annotation)}") from None


def _coerce_value(kind: Any, value: Any) -> Any:
    origin = typing.get_origin(kind)
    if origin is list:
        (item,) = typing.get_args(kind) or (str,)
        if isinstance(value, str) and item is str:
            return [value]  # a lone string where a list of strings was asked for
        if not isinstance(value, list):
            raise ArgumentError
        return [_coerce_value(item, v) for v in value]
    if origin is Literal:
        choices = typing.get_args(kind)
        if value in choices and type(value) is type(choices[0]):
            return value
        if isinstance(value, str):
            folded = {str(c).lower(): c for c in choices}
            if value.strip().lower() in folded:
                return folded[value.strip().lower()]
        raise ArgumentError
    if kind is str:
        if isinstance(value, str):
            return value
        raise ArgumentError
    if kind is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        raise ArgumentError
    if kind is int:
        if isinstance(value, bool):
            raise ArgumentError
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
            return int(value)
        raise ArgumentError
    if kind is float:
        if isinstance(value, bool):
            raise ArgumentError
        try:
            number = float(value) if isinstance(value, int | float | str) else math.nan
        except ValueError:
            raise ArgumentError from None
        if not math.isfinite(number):
            raise ArgumentError
        return number
    raise ArgumentError


__all__ = [
    "ArgumentError",
    "Parameter",
    "Tool",
    "ToolContext",
    "ToolRegistry",
    "parse_docstring",
    "tool",
]
