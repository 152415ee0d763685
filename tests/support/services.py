"""The real PostgreSQL and Redis every test run uses, and how tests leave them clean.

Each test run gets its own Redis key prefix and each PostgreSQL-backed test its own
schema of database `test` (`pg_schema`); `delete_keys` removes a prefix's keys
afterwards. The fixtures built on these are in `tests/conftest.py` (memory) and
`tests/bot/conftest.py` (a running bot).
"""

from __future__ import annotations

import socket
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import redis

PG_ADMIN_DSN = "postgresql://postgres@127.0.0.1:5432/test"
REDIS_URL = "redis://127.0.0.1:6379/0"


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


__all__ = ["PG_ADMIN_DSN", "REDIS_URL", "delete_keys", "free_port", "new_prefix", "pg_schema"]
