"""Argument types and options shared by the verbs, so every verb refuses bad input alike.

An argument type raises `argparse.ArgumentTypeError`; argparse then prints the usage and
the message and exits 2, before anything is opened.
"""

from __future__ import annotations

import argparse

from bot.channels import CONSOLE_USER, PLATFORMS
from bot.conversation.namespaces import namespace_problem
from bot.settings import timezone_problem

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
MAX_LIMIT = 50  # the memory engine never returns more
DEFAULT_LOG_FILE = "data/travel-bot.log"


def namespace(value: str) -> str:
    """`--user`: a namespace of one of the platforms, or the console's."""
    problem = namespace_problem(value.strip(), PLATFORMS)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return value.strip()


def org(value: str) -> str:
    """`--org`: an organisation, i.e. a namespace without its person: a Slack workspace
    (T024BE7LD), feishu:TENANT, dingtalk:CORP, or local (the console's)."""
    name = value.strip()
    if namespace_problem(f"{name}:U0", PLATFORMS) is not None:  # U0: a person id of every shape
        raise argparse.ArgumentTypeError(
            f"{value!r} is not an organisation; expected one like T024BE7LD (a Slack "
            "workspace), feishu:TENANT, dingtalk:CORP or local (the terminal console)"
        )
    return name


def limit(value: str) -> int:
    """`--limit`: a whole number from 1 to 50."""
    try:
        number = int(value)
    except ValueError:
        number = 0
    if not 1 <= number <= MAX_LIMIT:
        raise argparse.ArgumentTypeError(
            f"{value!r}: expected a whole number from 1 to {MAX_LIMIT}"
        )
    return number


def port(value: str) -> int:
    """`--port`: a TCP port, 1 to 65535."""
    try:
        number = int(value)
    except ValueError:
        number = 0
    if not 1 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"{value!r}: expected a port from 1 to 65535")
    return number


def log_level(value: str) -> str:
    """`--log-level`: a logging level name, in any case."""
    if value.upper() not in LOG_LEVELS:
        raise argparse.ArgumentTypeError(f"{value!r}: expected one of {', '.join(LOG_LEVELS)}")
    return value.upper()


def zone(value: str) -> str:
    """`--tz`: an IANA time zone."""
    problem = timezone_problem(value)
    if problem:
        raise argparse.ArgumentTypeError(f"{value!r}: {problem}")
    return value


def text(value: str) -> str:
    """A text argument that must say something (a query, a fact)."""
    if not value.strip():
        raise argparse.ArgumentTypeError("empty text")
    return value


def add_user(parser: argparse.ArgumentParser, *, help: str, required: bool = True) -> None:
    """`--user NS`, checked against the namespace shapes."""
    parser.add_argument(
        "--user", required=required, type=namespace, metavar="NS", default=None, help=help
    )


def add_console(parser: argparse.ArgumentParser) -> None:
    """The terminal console's options, the same for `chat` and for `run` without Slack."""
    parser.add_argument(
        "--user",
        type=namespace,
        default=CONSOLE_USER,
        metavar="NS",
        help=f"whose memory the console uses (default {CONSOLE_USER}; a Slack person's is "
        "TEAM:USER, e.g. T024BE7LD:U01ABC)",
    )
    parser.add_argument(
        "--tz",
        type=zone,
        default=None,
        help="your time zone, e.g. Europe/Berlin (default TRAVEL_TIMEZONE)",
    )
    parser.add_argument(
        "--log-file",
        default=DEFAULT_LOG_FILE,
        metavar="PATH",
        help=f"where the console writes its logs, so the terminal shows only the "
        f"conversation (default {DEFAULT_LOG_FILE}; '-' for standard error)",
    )


__all__ = [
    "DEFAULT_LOG_FILE",
    "LOG_LEVELS",
    "MAX_LIMIT",
    "add_console",
    "add_user",
    "limit",
    "log_level",
    "namespace",
    "org",
    "port",
    "text",
    "zone",
]
