"""`travel-bot`: one command line for every process of the product.

Each verb lives in a module of this package, which adds its parser with
`register(subparsers)` and sets `handler(args, settings) -> int`; `build_parser` lists
them, in the order `--help` shows them. Settings are loaded once, in `main`, and passed
down.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from bot.cli import chat, memory, prefs, run, trips, warm
from bot.settings import Settings


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="travel-bot", description="Slack travel assistant with long-term memory"
    )
    parser.add_argument("--log-level", default="INFO", help="logging level (default INFO)")
    subparsers = parser.add_subparsers(dest="verb", required=True, metavar="VERB")
    for verb in (memory, chat, run, warm, trips, prefs):
        verb.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=getattr(logging, str(args.log_level).upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    settings = Settings()
    result: int = args.handler(args, settings)
    return result


__all__ = ["build_parser", "main"]
