"""The real PostgreSQL and Redis every test run uses, and how tests leave them clean.

Each test run gets its own Redis key prefix and each PostgreSQL-backed test its own
schema of database `test` (`pg_schema`); `delete_keys` removes a prefix's keys
afterwards. The fixtures built on these are in `tests/conftest.py` (memory) and
`tests/bot/conftest.py` (a running bot).

`missing()` says what of the two does not answer; `tests/conftest.py` stops the run at
its start with that, instead of hundreds of errors. `python -m tests.support.services
--create-database` (run by `.ci/run`) creates the database `test` when it is missing.
"""

from __future__ import annotations

import os
import socket
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

import psycopg
import redis

# Where the services are (README, Set-up); TEST_POSTGRES_DSN and TEST_REDIS_URL point the
# tests elsewhere (the check of missing services is itself tested that way).
DEFAULT_PG_DSN = "postgresql://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
PG_ADMIN_DSN = os.environ.get("TEST_POSTGRES_DSN") or DEFAULT_PG_DSN
REDIS_URL = os.environ.get("TEST_REDIS_URL") or DEFAULT_REDIS_URL


def free_port() -> int:
    """A local TCP port nothing listens on (at the moment of asking)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def new_prefix(label: str) -> str:
    """A Redis key prefix no other test uses, e.g. `test-1a2b3c4d5e:`."""
    return f"{label}-{uuid.uuid4().hex[:10]}:"


def delete_keys(prefix: str) -> None:
    """Delete every Redis key under `prefix` (never anything else)."""
    client = redis.Redis.from_url(REDIS_URL)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@contextmanager
def pg_schema() -> Iterator[str]:
    """A DSN whose search_path is a fresh schema of database `test`; dropped afterwards."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{PG_ADMIN_DSN}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


HOW_TO_START = (
    "Start them with `bash .ci/run` (starts whichever is down, creates the database `test`, "
    "then runs `make test`) or `docker compose up -d`; see README.md, Set-up."
)


def missing(timeout: float = 3.0) -> list[str]:
    """What the tests need and cannot reach, one sentence each; [] when both answer."""
    problems = []
    pg = urlsplit(PG_ADMIN_DSN)
    database = pg.path.lstrip("/")
    try:
        with psycopg.connect(PG_ADMIN_DSN, connect_timeout=max(1, int(timeout))) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        reason = first.rsplit("failed: ", 1)[-1].strip()  # e.g. "Connection refused"
        if f'database "{database}" does not exist' in str(exc):
            problems.append(
                f"PostgreSQL answers on {pg.hostname}:{pg.port} but has no database "
                f"`{database}`: createdb -h {pg.hostname} -U {pg.username} {database}"
            )
        else:
            problems.append(
                f"PostgreSQL is not answering on {pg.hostname}:{pg.port} as user "
                f"{pg.username}, trust auth ({reason})"
            )
    rd = urlsplit(REDIS_URL)
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=timeout, socket_timeout=timeout)
    try:
        client.ping()
    except redis.RedisError as exc:
        problems.append(f"Redis is not answering on {rd.hostname}:{rd.port} ({exc})")
    finally:
        client.close()
    return problems


def create_database() -> str:
    """Create the tests' database when PostgreSQL answers without it; says what it did."""
    pg = urlsplit(PG_ADMIN_DSN)
    database = pg.path.lstrip("/")
    try:
        with psycopg.connect(PG_ADMIN_DSN, connect_timeout=3):
            return f"database `{database}` is there"
    except psycopg.OperationalError as exc:
        if f'database "{database}" does not exist' not in str(exc):
            raise
    maintenance = pg._replace(path="/postgres").geturl()
    with psycopg.connect(maintenance, autocommit=True, connect_timeout=3) as conn:
        conn.execute(f'CREATE DATABASE "{database}"')
    return f"created database `{database}`"


if __name__ == "__main__":
    if sys.argv[1:] == ["--create-database"]:
        print(create_database())
    problems = missing()
    for problem in problems:
        print(problem, file=sys.stderr)
    sys.exit(1 if problems else 0)


__all__ = [
    "DEFAULT_PG_DSN",
    "DEFAULT_REDIS_URL",
    "HOW_TO_START",
    "PG_ADMIN_DSN",
    "REDIS_URL",
    "create_database",
    "delete_keys",
    "free_port",
    "missing",
    "new_prefix",
    "pg_schema",
]
