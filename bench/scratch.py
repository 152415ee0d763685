"""A throw-away database for one benchmark run: a SQLite file in a temporary folder, or
a fresh schema in PostgreSQL's `test` database on 127.0.0.1 (dropped afterwards)."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

PG_ADMIN_DSN = "postgresql://postgres@127.0.0.1:5432/test"


@contextmanager
def scratch_database(backend: str, label: str) -> Iterator[str]:
    """Yield a MEMORY_DSN for `backend` ("sqlite" or "postgresql"); removed on exit."""
    if backend == "sqlite":
        folder = tempfile.mkdtemp(prefix=f"{label}-bench-")
        try:
            yield f"sqlite:///{folder}/memory.db"
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return
    import psycopg

    schema = f"bench_{label}_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{PG_ADMIN_DSN}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
