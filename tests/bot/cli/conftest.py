"""Running `travel-bot` in this process: `main(argv)` with the environment a test sets.

`travel_bot(*argv, **env)` runs the real `bot.cli.main` from a fresh folder (no `.env`
of the repository is read) with exactly the settings given plus the test services, and
returns the exit status with what was printed; standard input is `stdin` (not a terminal).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.cli import logs, main
from bot.cli.language import LOCALE_VARIABLES
from bot.settings import Settings

# Seventeen facts with no number in them (a privacy guard's business): more facts than
# hex digits, so two of their ids share a first character.
QUIET_ROOMS = tuple(
    f"I like quiet rooms in {city}"
    for city in (
        "Paris", "Rome", "Tokyo", "Lima", "Oslo", "Cairo", "Seoul", "Dublin", "Vienna",
        "Prague", "Lisbon", "Madrid", "Berlin", "Sydney", "Toronto", "Bangkok", "Nairobi",
    )
)  # fmt: skip


@dataclass
class Ran:
    status: int
    out: str
    err: str


TravelBot = Callable[..., Ran]


@pytest.fixture
def travel_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Iterator[TravelBot]:
    monkeypatch.chdir(tmp_path)
    for name in Settings.model_fields:  # only what the test sets counts
        monkeypatch.delenv(name.upper(), raising=False)
    for name in LOCALE_VARIABLES:  # nor does the locale of the machine running the tests
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MEMORY_DSN", f"sqlite:///{tmp_path}/cli.db")
    monkeypatch.setenv("REDIS_URL", "")

    def run(*argv: str, stdin: str = "", **env: str) -> Ran:
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))  # never a terminal
        try:
            status = main(list(argv))
        except SystemExit as exc:  # argparse refusals, --help, --version
            status = int(exc.code or 0)
        captured = capsys.readouterr()
        return Ran(status, captured.out, captured.err)

    yield run
    logs.reset()
