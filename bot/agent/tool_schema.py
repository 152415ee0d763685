"""A tool's parameters as the model sees them: JSON schema from type annotations and
docstrings, and the model's arguments checked and coerced back to those types.

Supported annotations: `str`, `int`, `float`, `bool`, `list[...]` of those,
`Literal[...]`, and `X | None`. JSON null for an optional parameter (one with a default)
means "use the default", as models often send null for arguments they leave out. Every
message of `ArgumentError` is written for the model, so it can correct its call.
"""

from __future__ import annotations

import inspect
import json
import math
import re
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

_SECTION = re.compile(r"^(Args|Arguments|Parameters|Returns|Raises|Yields|Examples?|Notes?):\s*$")
_ARGS_HEADER = re.compile(r"^(Args|Arguments|Parameters):$")
_ARG_LINE = re.compile(r"^(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


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


def parameters_of(
    function: Callable[..., Any], arg_docs: Mapping[str, str]
) -> tuple[Parameter, ...]:
    """The parameters after the first (the context), described by `arg_docs`.

    Raises `TypeError` for a parameter the model could not fill in: unannotated, of an
    unsupported type, positional-only, or `*args` / `**kwargs`.
    """
    signature = inspect.signature(function)
    hints = typing.get_type_hints(function)
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
    return tuple(parameters)


def parameters_schema(parameters: tuple[Parameter, ...]) -> dict[str, Any]:
    """The JSON schema of the arguments object."""
    return {
        "type": "object",
        "properties": {p.name: p.schema for p in parameters},
        "required": [p.name for p in parameters if p.required],
        "additionalProperties": False,
    }


def bind_arguments(
    parameters: tuple[Parameter, ...], arguments: str | Mapping[str, Any] | None
) -> dict[str, Any]:
    """Parse and check the model's arguments; raises `ArgumentError` when they don't fit."""
    if arguments is None or (isinstance(arguments, str) and not arguments.strip()):
        raw: Any = {}
    elif isinstance(arguments, str):
        try:
            raw = json.loads(arguments)
        except json.JSONDecodeError as exc:
            raise ArgumentError(
                f"arguments are not valid JSON ({exc.msg} at position {exc.pos}); "
                f"send one JSON object, e.g. {_example(parameters)}"
            ) from None
    else:
        raw = arguments
    if not isinstance(raw, Mapping):
        raise ArgumentError(f"arguments must be a JSON object, e.g. {_example(parameters)}")
    known = {p.name: p for p in parameters}
    extra = sorted(set(raw) - set(known))
    if extra:
        names = ", ".join(f"'{name}'" for name in extra)
        expected = ", ".join(known) or "none"
        raise ArgumentError(f"unexpected argument {names} (expected: {expected})")
    bound: dict[str, Any] = {}
    for param in parameters:
        if param.name in raw and raw[param.name] is None and not param.required:
            bound[param.name] = param.default  # null for an optional argument: the default
        elif param.name in raw:
            bound[param.name] = param.coerce(raw[param.name])
        elif param.required:
            raise ArgumentError(f"missing required argument '{param.name}'")
        else:
            bound[param.name] = param.default
    return bound


def _example(parameters: tuple[Parameter, ...]) -> str:
    example = {p.name: _placeholder(p.annotation) for p in parameters if p.required}
    return json.dumps(example, ensure_ascii=False)


# -- docstrings ----------------------------------------------------------------------------


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


# -- coercion ------------------------------------------------------------------------------


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
    "bind_arguments",
    "parameters_of",
    "parameters_schema",
    "parse_docstring",
]
