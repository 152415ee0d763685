"""How the command line tells its operator what went wrong or what to know.

A line starts with `error:`, `warning:` or `note:` in every language, so scripts and
logs can grep for it; the words after it are in the operator's language
(`bot.cli.language.operator_lang`). Each goes to standard error.
"""

from __future__ import annotations

import sys


def error(text: str) -> None:
    print(f"error: {text}", file=sys.stderr)


def warning(text: str) -> None:
    print(f"warning: {text}", file=sys.stderr)


def note(text: str) -> None:
    print(f"note: {text}", file=sys.stderr)


__all__ = ["error", "note", "warning"]
