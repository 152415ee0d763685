"""With PostgreSQL or Redis missing, the test run stops at once with one message."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg

from tests.support.services import DEFAULT_PG_DSN, create_database, free_port

ROOT = Path(__file__).resolve().parents[1]


def _pytest(**env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "tests/test_architecture.py", "-p", "no:cacheprovider"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **env},
        timeout=120,
    )


def test_missing_services_stop_the_run_with_one_message() -> None:
    closed = free_port()
    done = _pytest(
        TEST_POSTGRES_DSN=f"postgresql://postgres@127.0.0.1:{closed}/test",
        TEST_REDIS_URL=f"redis://127.0.0.1:{closed}/0",
    )
    output = done.stdout + done.stderr
    assert done.returncode == 4
    assert f"PostgreSQL is not answering on 127.0.0.1:{closed}" in output
    assert f"Redis is not answering on 127.0.0.1:{closed}" in output
    assert "bash .ci/run" in output and "docker compose up -d" in output
    assert " passed" not in output and " failed" not in output  # no test ran
    assert "Traceback" not in output


def test_a_missing_database_is_named_with_the_command_that_creates_it() -> None:
    name = f"absent_{uuid.uuid4().hex[:8]}"
    done = _pytest(TEST_POSTGRES_DSN=DEFAULT_PG_DSN.rsplit("/", 1)[0] + f"/{name}")
    output = done.stdout + done.stderr
    assert done.returncode == 4
    assert f"has no database `{name}`: createdb -h 127.0.0.1 -U postgres {name}" in output
    assert "Redis is not answering" not in output  # only what is missing is named


def test_create_database_makes_the_missing_one_once() -> None:
    name = f"created_{uuid.uuid4().hex[:8]}"
    dsn = DEFAULT_PG_DSN.rsplit("/", 1)[0] + f"/{name}"
    import tests.support.services as services

    original = services.PG_ADMIN_DSN
    services.PG_ADMIN_DSN = dsn
    try:
        assert create_database() == f"created database `{name}`"
        assert create_database() == f"database `{name}` is there"
    finally:
        services.PG_ADMIN_DSN = original
        with psycopg.connect(DEFAULT_PG_DSN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
