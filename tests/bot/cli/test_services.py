"""Outside services that do not answer, said in one line by one-shot commands.

PostgreSQL down: one line naming the host, the port and the variable, exit 2, no driver
warnings (the served processes keep retrying instead; see tests/memory). An embeddings
endpoint that fails: its URL, and `OPENAI_API_KEY` when it is not set.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bot.cli.conftest import TravelBot
from tests.support.services import free_port

ONE_SHOT = [
    ("memory", "show", "--user", "local:you"),
    ("memory", "add", "--user", "local:you", "I like aisle seats"),
    ("memory", "search", "--user", "local:you", "seats"),
    ("memory", "forget", "--user", "local:you", "--all", "--yes"),
    ("memory", "export", "--user", "local:you"),
    ("trips", "list"),
    ("trips", "add", "--user", "local:you", "--destination", "成都", "--start", "2099-01-01"),
    ("trips", "remove", "--user", "local:you", "--destination", "成都", "--start", "2099-01-01"),
    ("policy", "show", "--org", "local"),
    ("policy", "audit", "--org", "local"),
    ("warm", "--once"),
    ("chat",),
    ("run",),
]


@pytest.fixture
def down() -> tuple[str, int]:
    """A PostgreSQL URL where nothing listens, and its port."""
    port = free_port()
    return f"postgresql://postgres:pw@127.0.0.1:{port}/travel", port


@pytest.mark.parametrize("argv", ONE_SHOT, ids=lambda argv: " ".join(argv[:2]))
def test_postgresql_down_is_one_line_naming_host_and_port(
    travel_bot: TravelBot, down: tuple[str, int], argv: tuple[str, ...]
) -> None:
    dsn, port = down
    ran = travel_bot(*argv, stdin="/prefs\n", MEMORY_DSN=dsn)
    assert ran.status == 2
    assert ran.err == (
        f"error: cannot connect to PostgreSQL at 127.0.0.1:{port} (MEMORY_DSN): "
        "connection refused\n"
    )
    assert ran.out == ""  # no console, nothing half done
    assert "pw" not in ran.err  # the URL's password is never repeated


def test_the_trips_database_is_named_by_its_own_variable(
    travel_bot: TravelBot, down: tuple[str, int], tmp_path: Path
) -> None:
    dsn, port = down
    ran = travel_bot("trips", "list", TRIPS_DSN=dsn)
    assert ran.status == 2
    assert ran.err.strip().endswith(f"127.0.0.1:{port} (TRIPS_DSN): connection refused")


def test_warm_once_names_the_trips_database_and_runs_no_pass(
    travel_bot: TravelBot, down: tuple[str, int]
) -> None:
    """`warm --once` reads the trips first: their own variable is named, exit 2 as every
    one-shot command, and no JSON line, as no pass ran (a pass that loses the database
    says `"aborted"` in its line and exits 1)."""
    dsn, port = down
    ran = travel_bot("warm", "--once", TRIPS_DSN=dsn)
    assert ran.status == 2
    assert ran.out == ""
    assert ran.err.splitlines() == [
        f"error: cannot connect to PostgreSQL at 127.0.0.1:{port} (TRIPS_DSN): connection refused"
    ]


def test_a_missing_database_is_said_as_such(travel_bot: TravelBot) -> None:
    ran = travel_bot(
        "memory", "show", "--user", "local:you",
        MEMORY_DSN="postgresql://postgres@127.0.0.1:5432/no_such_database_i26",
    )  # fmt: skip
    assert ran.status == 2
    assert ran.err.strip() == (
        "error: cannot connect to PostgreSQL at 127.0.0.1:5432 (MEMORY_DSN): "
        'database "no_such_database_i26" does not exist'
    )


def test_the_installed_command_prints_no_driver_warnings(
    tmp_path: Path, down: tuple[str, int]
) -> None:
    dsn, port = down
    done = subprocess.run(
        [sys.executable, "-m", "bot", "memory", "show", "--user", "local:you"],
        env={**os.environ, "MEMORY_DSN": dsn, "REDIS_URL": ""},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"error: cannot connect to PostgreSQL at 127.0.0.1:{port} (MEMORY_DSN): connection refused"
    ]


def test_an_embeddings_endpoint_without_a_key_is_named(travel_bot: TravelBot) -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
    ran = travel_bot(
        "memory", "add", "--user", "local:you", "I like aisle seats",
        EMBEDDING_PROVIDER="openai", OPENAI_BASE_URL=url,
    )  # fmt: skip
    assert ran.status == 1
    assert ran.err.splitlines() == [
        f"error: embedding endpoint {url}/embeddings failed: APIConnectionError "
        "(EMBEDDING_PROVIDER=openai; OPENAI_API_KEY is not set)"
    ]  # one line: no retry chatter from the client
    keyed = travel_bot(
        "memory", "add", "--user", "local:you", "I like aisle seats",
        EMBEDDING_PROVIDER="openai", OPENAI_BASE_URL=url, OPENAI_API_KEY="sk-test",
    )  # fmt: skip
    assert keyed.err.splitlines() == [
        f"error: embedding endpoint {url}/embeddings failed: APIConnectionError "
        "(EMBEDDING_PROVIDER=openai)"
    ]
