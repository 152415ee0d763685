"""`travel-bot`: one command line for every process of the product.

Each verb lives in a module of this package, which adds its parser with
`register(subparsers)` and sets `handler(args, settings) -> int`; `build_parser` lists
them, in the order `--help` shows them. Settings are loaded once, in `main`, and passed
down; a bad setting is a sentence and exit status 2 (`bot.cli.config`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version

from bot.cli import chat, logs, memory, policy, prefs, run, trips, warm
from bot.cli.config import ConfigError, load_settings
from bot.cli.options import LOG_LEVELS, log_level

DISTRIBUTION = "travel-memory-bot"


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
    args = build_parser().parse_args(argv)
    logs.to_stderr(args.log_level)
    try:
        settings = load_settings()
    except ConfigError as exc:
        print("\n".join(exc.lines), file=sys.stderr)
        return 2
    result: int = args.handler(args, settings)
    return result


__all__ = ["build_parser", "main", "package_version"]
