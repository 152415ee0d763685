"""`travel-bot`: one command line for every process of the product.

Each verb lives in a module of this package, which adds its parser with
`register(subparsers)` and sets `handler(args, settings) -> int`; `build_parser` lists
them, in the order `--help` shows them. Settings are loaded once, in `main`, and passed
down; a bad setting is one line and exit status 2 (`bot.cli.config`).

Whatever the verb: Ctrl-C ends it with status 130 and no traceback, and output cut short
by its reader (`travel-bot memory show ... | head -1`) ends it quietly with status 141,
as the shell reports a program a closed pipe stopped.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import TextIO

from bot.cli import chat, logs, memory, policy, prefs, run, trips, warm
from bot.cli.config import ConfigError, load_settings
from bot.cli.options import LOG_LEVELS, log_level

DISTRIBUTION = "travel-memory-bot"
INTERRUPTED = 130  # 128 + SIGINT: what a shell reports for Ctrl-C
PIPE_CLOSED = 141  # 128 + SIGPIPE: the reader of the output went away


def package_version() -> str:
    """The installed version (package metadata), "unknown" when not installed."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="travel-bot",
        description="A travel assistant with long-term memory for Slack, Feishu and DingTalk",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"%(prog)s {package_version()}",
        help="print the version and exit",
    )
    parser.add_argument(
        "--log-level",
        type=log_level,
        default="INFO",
        metavar="LEVEL",
        help=f"one of {', '.join(LOG_LEVELS)} (default INFO)",
    )
    subparsers = parser.add_subparsers(dest="verb", required=True, metavar="VERB")
    for verb in (memory, chat, run, warm, trips, policy, prefs):
        verb.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        try:
            status = _run(argv)
        finally:
            sys.stdout.flush()  # a closed pipe shows here, not at the interpreter's exit
    except KeyboardInterrupt:
        if _isatty(sys.stderr):
            print(file=sys.stderr)  # the shell's prompt starts on a line of its own
        return INTERRUPTED
    except BrokenPipeError:
        _discard_output()
        return PIPE_CLOSED
    return status


def _run(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
    logs.to_stderr(args.log_level)
    try:
        settings = load_settings()
    except ConfigError as exc:
        print("\n".join(exc.lines), file=sys.stderr)
        return 2
    result: int = args.handler(args, settings)
    return result


def _discard_output() -> None:
    """Send what is still buffered for standard output to /dev/null, so the interpreter's
    last flush finds nothing to complain about."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (a test's capture)
        pass


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # replaced or closed
        return False


__all__ = ["INTERRUPTED", "PIPE_CLOSED", "build_parser", "main", "package_version"]
