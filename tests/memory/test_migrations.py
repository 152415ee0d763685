"""The schema is versioned and upgrading keeps every fact."""

from __future__ import annotations

from datetime import UTC, datetime

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


def test_a_database_from_before_scopes_upgrades_in_place(dsn: str, namespace: str) -> None:
    """Version 1 had no `scope` column: its facts become general values, and the first
    start of this release adds the column without touching them."""
    backend = backend_from_dsn(dsn)
    try:
        assert migrate(backend, "memory", MEMORY_MIGRATIONS[:1]) == 1
        with backend.transaction(namespace) as cur:
            cur.execute(
                backend.sql(
                    "INSERT INTO memory_items (id, namespace, text, lang, source, slot, value, "
                    "polarity, created_at, invalid_reason, embedding, embedding_model) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
                ),
                (
                    "old1",
                    namespace,
                    "I prefer aisle seats",
                    "en",
                    "chat",
                    "seat",
                    '"aisle"',
                    "prefer",
                    backend.to_db_time(datetime.now(UTC)),
                    "",
                    backend.blob(b"\0" * 4 * 384),
                    "an older model",
                ),
            )
    finally:
        backend.close()

    mem = open_memory(dsn=dsn, redis_url="")
    try:
        assert mem.profile(namespace) == {"seat": "aisle"}
        [outcome] = mem.record(namespace, ["On trains I like a window seat"])
        assert outcome.status == "added"
        assert {i.text for i in mem.items(namespace)} == {
            "I prefer aisle seats",
            "On trains I like a window seat",
        }
        assert [(v.slot, v.scope) for v in mem.scoped_profile(namespace)] == [
            ("seat", "mode:train")
        ]
        assert schema_version(mem.store.backend, "memory") == MEMORY_MIGRATIONS[-1].version
    finally:
        mem.close()
