"""Prompt text as data: every prompt is a file in this folder, rendered by `render`."""

from __future__ import annotations

from functools import cache
from importlib import resources
from string import Template


@cache
def _template(name: str) -> Template:
    text = resources.files(__name__).joinpath(name).read_text(encoding="utf-8")
    return Template(text)


def render(name: str, /, **values: object) -> str:
    """Render `prompts/<name>` with `$placeholders` filled; a missing value is an error."""
    return _template(name).substitute({key: str(value) for key, value in values.items()})
