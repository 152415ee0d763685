"""Where the command line's logs go: standard error, or a file for the terminal console.

Processes (`serve`, `socket`, `clock`, ...) log to standard error, as platforms that run
them expect. The console shows only the conversation: its logs (httpx requests, the
agent's steps, a Redis that is down) go to a file, and a file that cannot be written
leaves only errors on standard error.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def to_stderr(level: str) -> None:
    """Log at `level` and above to standard error (replacing any earlier set-up)."""
    _replace(logging.StreamHandler(sys.stderr), level)


def to_file(path: str, level: str) -> Path | None:
    """Log to the file at `path` (created with its folder); the file, or None for stderr.

    `path` "-" keeps standard error at `level`; a file that cannot be opened keeps only
    errors there, so the console stays readable either way.
    """
    if path == "-":
        to_stderr(level)
        return None
    file = Path(path)
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = logging.FileHandler(file, encoding="utf-8")
    except OSError:
        _replace(logging.StreamHandler(sys.stderr), "ERROR")
        return None
    _replace(handler, level)
    logging.captureWarnings(True)  # library warnings go to the file too
    return file


_installed: list[logging.Handler] = []  # only handlers installed here are ever replaced


def reset() -> None:
    """Remove the handlers installed here (for a program that calls `main` more than once)."""
    root = logging.getLogger()
    while _installed:
        old = _installed.pop()
        root.removeHandler(old)
        old.close()
    logging.captureWarnings(False)


def _replace(handler: logging.Handler, level: str) -> None:
    handler.setFormatter(logging.Formatter(FORMAT))
    reset()
    root = logging.getLogger()
    _installed.append(handler)
    root.addHandler(handler)
    root.setLevel(level)


__all__ = ["reset", "to_file", "to_stderr"]
