"""Output cut short: `travel-bot ... | head -1` ends quietly, whichever verb it is.

The reader of standard output goes away (here: before the command writes anything, the
harshest case; and `head -1` in a real shell pipeline). The command must not print a
`BrokenPipeError` traceback, nor "Exception ignored" at the interpreter's exit; it exits
with 141, as the shell reports a program a closed pipe stopped.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bot.cli import PIPE_CLOSED, build_parser
from tests.bot.cli.conftest import QUIET_ROOMS
from tests.bot.cli.test_options import _parsers

TRAVEL_BOT = str(Path(sys.executable).parent / "travel-bot")
USER = "local:you"
SECRET = "pipe-test-secret-5f0e2a9b"

# Every verb that prints on standard output, with what it needs to print something.
VERBS: list[tuple[str, ...]] = [
    ("memory", "show", "--user", USER),
    ("memory", "show", "--user", USER, "--json"),
    ("memory", "search", "--user", USER, "rooms"),
    ("memory", "export", "--user", USER),
    ("memory", "add", "--user", USER, "I like rooms on a high floor"),
    ("memory", "forget", "--user", "local:other", "--all", "--yes"),
    ("trips", "add", "--user", USER, "--destination", "成都", "--start", "2099-01-01"),
    ("trips", "list"),
    ("trips", "remove", "--user", USER, "--destination", "Chengdu", "--start", "2099-01-01"),
    ("prefs", "link", "--user", USER),
    ("policy", "show", "--org", "local"),
    ("policy", "audit", "--org", "local"),
    ("warm", "--once"),
    ("chat",),
    ("run",),
    ("--version",),
]


def _env(tmp_path: Path) -> dict[str, str]:
    buffered = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # as usual
    return {
        **buffered,
        "LLM_MODEL": "",
        "MEMORY_DSN": f"sqlite:///{tmp_path}/cli.db",
        "REDIS_URL": "",
        "PREFS_LINK_SECRET": SECRET,
        "PUBLIC_URL": "http://127.0.0.1:3000",
    }


def _into_a_closed_pipe(argv: tuple[str, ...], env: dict[str, str], cwd: Path) -> tuple[int, str]:
    """Run `travel-bot ARGV` writing to a pipe nobody reads any more."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first line
    try:
        done = subprocess.run(
            [TRAVEL_BOT, *argv],
            input="/prefs\n/recall\n",
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=cwd,
            timeout=120,
        )
    finally:
        os.close(write_end)
    return done.returncode, done.stderr


def _quiet(err: str) -> bool:
    return not any(word in err for word in ("Traceback", "BrokenPipe", "Exception ignored"))


@pytest.fixture
def remembered(tmp_path: Path) -> dict[str, str]:
    env = _env(tmp_path)
    facts = list(QUIET_ROOMS)
    for user, added in ((USER, facts), ("local:other", ["I like aisle seats"])):
        subprocess.run(
            [TRAVEL_BOT, "memory", "add", "--user", user, *added],
            env=env,
            cwd=tmp_path,
            check=True,
            capture_output=True,
            timeout=120,
        )
    return env


def test_every_verb_is_quiet_when_its_output_is_cut(
    tmp_path: Path, remembered: dict[str, str]
) -> None:
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda a: _into_a_closed_pipe(a, remembered, tmp_path), VERBS))
    for argv, (status, err) in zip(VERBS, results, strict=True):
        assert _quiet(err), (argv, err)
        assert status == PIPE_CLOSED, (argv, status, err)


def test_every_help_is_quiet_when_its_output_is_cut(tmp_path: Path) -> None:
    commands = sorted({tuple(p.prog.split()[1:]) for p in _parsers(build_parser())})
    assert len(commands) > 15
    env = _env(tmp_path)
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(
            pool.map(lambda c: _into_a_closed_pipe((*c, "--help"), env, tmp_path), commands)
        )
    for command, (status, err) in zip(commands, results, strict=True):
        assert _quiet(err) and status == PIPE_CLOSED, (command, status, err)


def test_head_takes_the_first_line_and_nothing_else_is_said(
    tmp_path: Path, remembered: dict[str, str]
) -> None:
    shown = subprocess.run(
        [TRAVEL_BOT, "memory", "show", "--user", USER],
        env=remembered,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert shown.returncode == 0
    done = subprocess.run(
        ["bash", "-c", f"{TRAVEL_BOT} memory show --user {USER} | head -1"],
        env=remembered,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0
    assert done.stdout == shown.stdout.splitlines(keepends=True)[0]
    assert done.stderr == ""
