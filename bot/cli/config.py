"""Loading the settings for the command line, and saying in plain words what is wrong.

A bad value in the environment or `.env` is one line naming the variable, the value
and what is accepted, e.g.

    error: PORT=abc is not accepted: expected a whole number from 1 to 65535 (default 3000)

(one line for each wrong value). `main` prints them and exits 2: no traceback, whichever
verb was asked for.
"""

from __future__ import annotations

import types
from typing import Any, Literal, Union, get_args, get_origin

import annotated_types
from pydantic import SecretStr, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined
from pydantic_settings import SettingsError

from bot.settings import Settings


class ConfigError(Exception):
    """The settings cannot be loaded; `lines` say why, for the person at the terminal."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


def load_settings(**values: Any) -> Settings:
    """`Settings()` from the environment and `.env`; `ConfigError` when a value is wrong."""
    try:
        return Settings(**values)
    except ValidationError as exc:
        raise ConfigError(describe(exc)) from None
    except SettingsError as exc:  # e.g. a value pydantic-settings could not decode
        raise ConfigError([f"error: {' '.join(str(exc).split())}"]) from None


def describe(error: ValidationError) -> list[str]:
    """One sentence per bad setting: the variable, its value and what is accepted."""
    lines = []
    for problem in error.errors(include_url=False):
        loc = problem.get("loc") or ()
        name = str(loc[0]) if loc else ""
        field = Settings.model_fields.get(name)
        if field is None:
            reason = " ".join(_reason(problem).split())
            lines.append(f"error: the settings are not consistent: {reason}")
            continue
        shown = _shown(problem.get("input"), field)
        custom = problem["type"] == "value_error"
        accepted = " ".join(_reason(problem).split()) if custom else f"expected {_accepted(field)}"
        default = render_default(field)
        suffix = f" (default {default})" if default else ""
        lines.append(f"error: {name.upper()}={shown} is not accepted: {accepted}{suffix}")
    return lines


def render_default(field: FieldInfo) -> str:
    """The default as it would be written in `.env` ("" for none)."""
    value = field.default
    if value is PydanticUndefined or value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def _reason(problem: Any) -> str:
    error = (problem.get("ctx") or {}).get("error")
    return str(error) if error is not None else str(problem.get("msg", "not accepted"))


def _shown(value: Any, field: FieldInfo) -> str:
    if _is_secret(field.annotation):
        return "(hidden)"
    text = str(value)
    if len(text) > 80:
        text = text[:77] + "..."
    simple = text and all(ch.isprintable() and not ch.isspace() for ch in text)
    return text if simple else repr(text)


def _is_secret(annotation: Any) -> bool:
    return annotation is SecretStr or SecretStr in get_args(annotation)


def _accepted(field: FieldInfo) -> str:
    """What the field accepts, from its type and bounds, e.g. "one of en, zh"."""
    annotation = field.annotation
    if get_origin(annotation) in (Union, types.UnionType):
        annotation = next(arg for arg in get_args(annotation) if arg is not type(None))
    if get_origin(annotation) is Literal:
        return "one of " + ", ".join(str(arg) for arg in get_args(annotation))
    if annotation is bool:
        return "true or false"
    if annotation is int:
        return "a whole number" + _bounds(field)
    if annotation is float:
        return "a number" + _bounds(field)
    return "text"


def _bounds(field: FieldInfo) -> str:
    """ " from 1 to 10", " of at least 1", " greater than 0" ... ("" without bounds)."""
    low: object = None
    high: object = None
    low_word, high_word = "at least", "at most"
    for item in field.metadata:
        if isinstance(item, annotated_types.Ge):
            low = item.ge
        elif isinstance(item, annotated_types.Gt):
            low, low_word = item.gt, "greater than"
        elif isinstance(item, annotated_types.Le):
            high = item.le
        elif isinstance(item, annotated_types.Lt):
            high, high_word = item.lt, "less than"
    if low is not None and high is not None and (low_word, high_word) == ("at least", "at most"):
        return f" from {low} to {high}"
    parts = [f"{low_word} {low}" if low is not None else ""]
    parts.append(f"{high_word} {high}" if high is not None else "")
    words = " and ".join(part for part in parts if part)
    if not words:
        return ""
    return f" of {words}" if words.startswith(("at ", "less")) else f" {words}"


__all__ = ["ConfigError", "describe", "load_settings", "render_default"]
