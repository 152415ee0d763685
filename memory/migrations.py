"""Versioned schema: each component (memory, trips, ...) owns an ordered list of migrations.

Upgrades only ever add; a migration never drops or rewrites user data. Applied versions
are kept in `schema_migrations`, so starting a newer release on an older database brings
it up to date in place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memory.errors import StoreUnavailable
from memory.store import Backend, utcnow


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    description: str
    sqlite: Sequence[str]
    postgres: Sequence[str]


_CACHE_INVALIDATIONS = """CREATE TABLE IF NOT EXISTS cache_invalidations (
    key_prefix TEXT NOT NULL,
    namespace TEXT NOT NULL,
    token TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    PRIMARY KEY (key_prefix, namespace)
)"""

MEMORY_MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        version=1,
        description="memory items with embeddings, slots and supersede history",
        sqlite=(
            """CREATE TABLE IF NOT EXISTS memory_items (
                id TEXT PRIMARY KEY,
                namespace TEXT NOT NULL,
                text TEXT NOT NULL,
                lang TEXT NOT NULL,
                source TEXT NOT NULL,
                slot TEXT,
                value TEXT,
                polarity TEXT,
                created_at TEXT NOT NULL,
                invalid_at TEXT,
                superseded_by TEXT,
                invalid_reason TEXT NOT NULL DEFAULT '',
                embedding BLOB NOT NULL,
                embedding_model TEXT NOT NULL
            )""",
            "CREATE INDEX IF NOT EXISTS memory_items_current "
            "ON memory_items (namespace, created_at) WHERE invalid_at IS NULL",
            "CREATE INDEX IF NOT EXISTS memory_items_namespace ON memory_items (namespace)",
        ),
        postgres=(
            """CREATE TABLE IF NOT EXISTS memory_items (
                id TEXT PRIMARY KEY,
                namespace TEXT NOT NULL,
                text TEXT NOT NULL,
                lang TEXT NOT NULL,
                source TEXT NOT NULL,
                slot TEXT,
                value TEXT,
                polarity TEXT,
                created_at TIMESTAMPTZ NOT NULL,
                invalid_at TIMESTAMPTZ,
                superseded_by TEXT,
                invalid_reason TEXT NOT NULL DEFAULT '',
                embedding BYTEA NOT NULL,
                embedding_model TEXT NOT NULL
            )""",
            "CREATE INDEX IF NOT EXISTS memory_items_current "
            "ON memory_items (namespace, created_at) WHERE invalid_at IS NULL",
            "CREATE INDEX IF NOT EXISTS memory_items_namespace ON memory_items (namespace)",
        ),
    ),
    Migration(
        version=2,
        description="the scope a slot fact is limited to (NULL: the slot's general value)",
        sqlite=("ALTER TABLE memory_items ADD COLUMN scope TEXT",),
        postgres=("ALTER TABLE memory_items ADD COLUMN IF NOT EXISTS scope TEXT",),
    ),
    Migration(
        version=3,
        description="a newer fact that may replace this one (an unsure change of mind)",
        sqlite=("ALTER TABLE memory_items ADD COLUMN contested_by TEXT",),
        postgres=("ALTER TABLE memory_items ADD COLUMN IF NOT EXISTS contested_by TEXT",),
    ),
    Migration(
        version=4,
        description="cache invalidations Redis did not take yet (memory.redelivery)",
        sqlite=(_CACHE_INVALIDATIONS,),
        postgres=(_CACHE_INVALIDATIONS,),
    ),
)

# The journal alone, in a database of its own (`memory.redelivery.standalone_journal`).
JOURNAL_MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        version=1,
        description="undelivered cache invalidations",
        sqlite=(_CACHE_INVALIDATIONS,),
        postgres=(_CACHE_INVALIDATIONS,),
    ),
)

_BOOKKEEPING = (
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    "component TEXT NOT NULL, version INTEGER NOT NULL, description TEXT NOT NULL, "
    "applied_at TEXT NOT NULL, PRIMARY KEY (component, version))"
)


def schema_version(backend: Backend, component: str) -> int:
    """The highest applied migration of `component` (0 for a new database)."""
    with backend.transaction("__migrations__", patient=True) as cur:
        cur.execute(_BOOKKEEPING)
        cur.execute(
            backend.sql("SELECT MAX(version) FROM schema_migrations WHERE component = %s"),
            (component,),
        )
        row = cur.fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def applied(backend: Backend, component: str, migrations: Sequence[Migration]) -> bool:
    """Whether every migration of `component` is applied, read without any write lock
    (False too when it cannot be told, e.g. on a new database)."""
    try:
        with backend.transaction() as cur:
            cur.execute(
                backend.sql("SELECT version FROM schema_migrations WHERE component = %s"),
                (component,),
            )
            done = {int(row[0]) for row in cur.fetchall()}
    except StoreUnavailable:
        return False
    return all(migration.version in done for migration in migrations)


def migrate(backend: Backend, component: str, migrations: Sequence[Migration]) -> int:
    """Apply the migrations of `component` not applied yet; returns how many ran.

    Runs in one transaction under one lock shared by every component, so concurrent
    starts (a web and a clock process, memory and trips) apply each step once and never
    race to create the bookkeeping table. A database already up to date is told by a
    plain read first, so a write lock held elsewhere does not hold up the first request.
    """
    if applied(backend, component, migrations):
        return 0
    applied_now = 0
    with backend.transaction("__migrations__", patient=True) as cur:
        cur.execute(_BOOKKEEPING)
        cur.execute(
            backend.sql("SELECT version FROM schema_migrations WHERE component = %s"),
            (component,),
        )
        done = {int(row[0]) for row in cur.fetchall()}
        for migration in sorted(migrations, key=lambda m: m.version):
            if migration.version in done:
                continue
            steps = migration.postgres if backend.name == "postgresql" else migration.sqlite
            for statement in steps:
                cur.execute(statement)
            cur.execute(
                backend.sql(
                    "INSERT INTO schema_migrations (component, version, description, applied_at) "
                    "VALUES (%s, %s, %s, %s)"
                ),
                (component, migration.version, migration.description, utcnow().isoformat()),
            )
            applied_now += 1
    return applied_now
