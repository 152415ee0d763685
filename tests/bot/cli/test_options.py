"""Every option says what it is for, and a value it cannot take is refused clearly."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from importlib.metadata import version

import pytest

from bot.channels import CONSOLE_USER, PLATFORMS
from bot.cli import build_parser
from bot.conversation.namespaces import namespace_problem
from tests.bot.cli.conftest import TravelBot


def _parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _parsers(sub)


def test_every_option_of_every_verb_has_help() -> None:
    parsers = list(_parsers(build_parser()))
    assert len(parsers) > 15  # travel-bot, memory and its actions, trips, chat, run, ...
    for parser in parsers:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            assert action.help, f"{parser.prog} {'/'.join(action.option_strings) or action.dest}"


def test_every_verb_says_what_it_is_for() -> None:
    """`--help` of every verb and action starts with a description, not just its usage."""
    missing = [p.prog for p in _parsers(build_parser()) if not (p.description or "").strip()]
    assert missing == []


@pytest.mark.parametrize(
    "verb",
    [
        ("warm",),
        ("clock",),
        ("trips",),
        ("prefs",),
        ("prefs", "link"),
        ("memory", "bailian-init"),
        ("trips", "remove"),
    ],
)
def test_help_describes_the_verb(travel_bot: TravelBot, verb: tuple[str, ...]) -> None:
    ran = travel_bot(*verb, "--help")
    assert ran.status == 0
    usage, description, *_ = ran.out.split("\n\n")
    assert usage.startswith(f"usage: travel-bot {' '.join(verb)}")
    assert len(description.split()) >= 8  # a sentence, not a word


@pytest.mark.parametrize("action", ["search", "show", "forget", "export", "add"])
def test_memory_help_describes_every_option(travel_bot: TravelBot, action: str) -> None:
    ran = travel_bot("memory", action, "--help")
    assert ran.status == 0
    ran.out = " ".join(ran.out.split())  # argparse wraps lines at the terminal width
    assert "--user NS" in ran.out and "whose memory" in ran.out
    if action == "forget":
        for words in ("--id ID", "--all", "--yes", "not on a terminal"):
            assert words in ran.out
    if action == "search":
        assert "1 to 50" in ran.out and "JSON" in ran.out


def test_version_comes_from_the_package_metadata(travel_bot: TravelBot) -> None:
    ran = travel_bot("--version")
    assert ran.status == 0
    assert ran.out.strip() == f"travel-bot {version('travel-memory-bot')}"


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("--log-level", "LOUD", "trips", "list"), "expected one of DEBUG, INFO"),
        (("memory", "search", "--user", "T1:U1", "--limit", "0", "x"), "from 1 to 50"),
        (("memory", "search", "--user", "T1:U1", "--limit", "-1", "x"), "from 1 to 50"),
        (("memory", "search", "--user", "T1:U1", ""), "empty"),
        (("memory", "add", "--user", "T1:U1", "  "), "empty"),
        (("memory", "show", "--user", "t1:u1"), "is not a namespace"),
        (("memory", "show", "--user", "U1"), "is not a namespace"),
        (("memory", "show", "--user", "feishu:ou_1"), "is not a namespace"),
        (("memory", "show", "--user", "T1:U1 "), None),  # surrounding spaces are trimmed
        (
            ("trips", "add", "--user", "T1 U1", "--destination", "x", "--start", "2099-01-01"),
            "is not",
        ),
        (("chat", "--user", "you"), "local:you"),
        (("chat", "--tz", "Mars/Olympus"), "not a time zone"),
        (("serve", "--port", "70000"), "from 1 to 65535"),
    ],
)
def test_invalid_values_are_refused(
    travel_bot: TravelBot, argv: tuple[str, ...], said: str | None
) -> None:
    ran = travel_bot(*argv)
    if said is None:
        assert ran.status == 0, ran.err
        return
    assert ran.status == 2
    assert said in ran.err
    assert "Traceback" not in ran.err


def test_log_level_takes_any_case(travel_bot: TravelBot) -> None:
    assert travel_bot("--log-level", "warning", "trips", "list").status == 0


@pytest.mark.parametrize(
    "namespace",
    [
        "T024BE7LD:U01ABC",
        "T1:U1",
        "E0ENTERPRISE:W0WORKER",
        "feishu:tk:ou_7d8a6e6df7621556ce0d21922b676706",
        "dingtalk:ding1:staff1",
        "dingtalk:dingabc123:manager4521",
        CONSOLE_USER,
        "local:alice",
    ],
)
def test_namespaces_of_every_platform_are_accepted(namespace: str) -> None:
    assert namespace_problem(namespace, PLATFORMS) is None


@pytest.mark.parametrize(
    "namespace",
    [
        "T1U1",
        "t1:u1",
        "T1:",
        ":U1",
        "T1:U1:X",
        "feishu:tk",
        "slack:T1:U1",
        "local:",
        "wechat:a:b",
        # What no id holds: a lone surrogate, control and format characters, non-NFC text.
        "feishu:tk:ou_\ud800",
        "dingtalk:ding1:staff\x00",
        "dingtalk:ding1:staff\x1f1",
        "feishu:tk:ou_\u200bx",
        "feishu:tk:ou_\u202ex",
        "feishu:tk:cafe\u0301",
    ],
)
def test_other_strings_are_not_namespaces(namespace: str) -> None:
    assert namespace_problem(namespace, PLATFORMS) is not None


def test_chat_and_run_take_the_console_user_alike() -> None:
    parser = build_parser()
    chat, run = parser.parse_args(["chat"]), parser.parse_args(["run"])
    assert chat.user == run.user == CONSOLE_USER
    assert chat.log_file == run.log_file
    chat, run = (
        parser.parse_args(["chat", "--user", "T1:U1"]),
        parser.parse_args(["run", "--user", "T1:U1"]),
    )
    assert chat.user == run.user == "T1:U1"
