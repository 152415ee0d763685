"""The schema is versioned and upgrading keeps every fact."""

from __future__ import annotations

from memory import open_memory
from memory.backends import backend_from_dsn
from memory.migrations import MEMORY_MIGRATIONS, Migration, migrate, schema_version


def test_a_new_database_is_brought_to_the_latest_version(dsn: str) -> None:
    backend = backend_from_dsn(dsn)
    try:
        assert schema_version(backend, "memory") == 0
        assert migrate(backend, "memory", MEMORY_MIGRATIONS) == len(MEMORY_MIGRATIONS)
        assert migrate(backend, "memory", MEMORY_MIGRATIONS) == 0
        assert schema_version(backend, "memory") == MEMORY_MIGRATIONS[-1].version
    finally:
        backend.close()


def test_upgrading_keeps_data(dsn: str, namespace: str) -> None:
    mem = open_memory(dsn=dsn, redis_url="")
    mem.record(namespace, ["I never take red-eye flights", "出差只坐高铁一等座"])
    mem.close()

    upgrade = Migration(
        version=MEMORY_MIGRATIONS[-1].version + 1,
        description="test: an added column",
        sqlite=("ALTER TABLE memory_items ADD COLUMN note TEXT",),
        postgres=("ALTER TABLE memory_items ADD COLUMN note TEXT",),
    )
    backend = backend_from_dsn(dsn)
    try:
        assert migrate(backend, "memory", (*MEMORY_MIGRATIONS, upgrade)) == 1
    finally:
        backend.close()

    again = open_memory(dsn=dsn, redis_url="")
    try:
        assert {i.text for i in again.items(namespace)} == {
            "I never take red-eye flights",
            "出差只坐高铁一等座",
        }
    finally:
        again.close()
