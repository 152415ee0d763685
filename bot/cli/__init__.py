"""`travel-bot`: one command line for every process of the product.

Each verb lives in its own module, which adds its parser with `register(subparsers)`
and sets `handler(args, settings) -> int`.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

from bot.settings import Settings

# Modules that contribute verbs, in the order they appear in `--help`.
VERB_MODULES = (
    "bot.cli.memory",
    "bot.cli.chat",
    "bot.cli.run",
    "bot.cli.warm",
    "bot.cli.trips",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="travel-bot", description="Slack travel assistant with long-term memory"
    )
    parser.add_argument("--log-level", default="INFO", help="logging level (default INFO)")
    subparsers = parser.add_subparsers(dest="verb", required=True, metavar="VERB")
    for name in VERB_MODULES:
        importlib.import_module(name).register(subparsers)
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


if __name__ == "__main__":
    sys.exit(main())
