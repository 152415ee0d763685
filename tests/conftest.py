"""Shared fixtures: real PostgreSQL schemas, real Redis key prefixes, real memory engines.

Every test run gets its own Redis key prefix and every PostgreSQL-backed test its own
schema; both are removed afterwards. When PostgreSQL or Redis does not answer, the run
stops before any test with one message saying which and how to start it.
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from memory import open_memory
from memory.bailian import BailianMemory
from memory.engine import Memory
from tests.support.bailian_api import FakeBailian
from tests.support.redis_cluster import LocalCluster
from tests.support.services import (
    HOW_TO_START,
    REDIS_URL,
    delete_keys,
    free_port,
    missing,
    new_prefix,
    pg_schema,
)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Stop at once, with one message, when the services the tests use are missing."""
    problems = missing()
    if problems:
        lines = ["The tests need PostgreSQL and Redis, and cannot reach them:"]
        lines += [f"  - {problem}" for problem in problems]
        pytest.exit("\n".join([*lines, HOW_TO_START]), returncode=pytest.ExitCode.USAGE_ERROR)


@pytest.fixture(scope="session")
def redis_prefix() -> Iterator[str]:
    prefix = new_prefix("test")
    yield prefix
    delete_keys(prefix)


@pytest.fixture
def redis_client() -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(REDIS_URL)
    yield client
    client.close()


@pytest.fixture
def pg_schema_dsn() -> Iterator[str]:
    """A DSN whose search_path is a fresh schema of database `test`; dropped afterwards."""
    with pg_schema() as dsn:
        yield dsn


@pytest.fixture(params=["sqlite", "postgresql"])
def dsn(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each test using it runs once on a SQLite file and once on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/memory.db"
    result: str = request.getfixturevalue("pg_schema_dsn")
    return result


@pytest.fixture
def namespace() -> str:
    return f"T{uuid.uuid4().hex[:8].upper()}:U{uuid.uuid4().hex[:8].upper()}"


MemoryFactory = Callable[..., Memory]


@pytest.fixture
def make_memory(dsn: str, redis_prefix: str) -> Iterator[MemoryFactory]:
    """Open real memory engines on this test's database, with the real Redis cache."""
    opened: list[Memory] = []

    def factory(**overrides: Any) -> Memory:
        overrides.setdefault("redis_url", REDIS_URL)
        overrides.setdefault("redis_key_prefix", redis_prefix)
        mem = open_memory(dsn=overrides.pop("dsn", dsn), **overrides)
        opened.append(mem)
        return mem

    yield factory
    for mem in opened:
        mem.close()


@pytest.fixture
def memory(make_memory: MemoryFactory) -> Memory:
    return make_memory()


@pytest.fixture
def unreachable_memory(dsn: str, tmp_path: Path, redis_prefix: str) -> Iterator[MemoryFactory]:
    """Real memory engines whose database cannot be reached, on this test's Redis cache.

    Of the same kind as `dsn`: PostgreSQL on a port nothing listens on, or a SQLite file
    whose directory is removed after opening.
    """
    opened: list[Memory] = []

    def factory(**overrides: Any) -> Memory:
        overrides.setdefault("redis_url", REDIS_URL)
        overrides.setdefault("redis_key_prefix", redis_prefix)
        if dsn.startswith("sqlite"):
            folder = tmp_path / f"gone-{uuid.uuid4().hex[:6]}"
            mem = open_memory(dsn=f"sqlite:///{folder}/memory.db", **overrides)
            shutil.rmtree(folder)
        else:
            closed = f"postgresql://postgres@127.0.0.1:{free_port()}/test"
            mem = open_memory(dsn=closed, **overrides)
        opened.append(mem)
        return mem

    yield factory
    for mem in opened:
        mem.close()


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """A real three-master Redis Cluster on free local ports, for this test session."""
    server, cli = shutil.which("redis-server"), shutil.which("redis-cli")
    if server is None or cli is None:
        pytest.skip("redis-server and redis-cli are not installed; Redis Cluster tests need them")
    for attempt in range(3):  # a free port can be taken between choosing and binding
        cluster = LocalCluster(tmp_path_factory.mktemp("redis-cluster"), server, cli)
        try:
            cluster.start()
            break
        except RuntimeError:
            cluster.stop()
            if attempt == 2:
                raise
    try:
        yield cluster
    finally:
        cluster.stop()


# -- Bailian memory (issue 17): the local fake service, and memories on it ----------------

BailianFactory = Callable[..., BailianMemory]

# Fast enough for tests; the defaults are in memory/settings.py.
BAILIAN_QUICK = {
    "bailian_retry_backoff_seconds": 0.01,
    "bailian_event_poll_seconds": 0.05,
    "bailian_event_timeout_seconds": 10.0,
    "bailian_visibility_delay_seconds": 0.2,
    "bailian_timeout_seconds": 2.0,
}


@pytest.fixture
def bailian() -> Iterator[FakeBailian]:
    """The local fake of Bailian's memory API (`tests/support/bailian_api.py`)."""
    with FakeBailian() as fake:
        yield fake


@pytest.fixture
def make_bailian(
    bailian: FakeBailian, redis_prefix: str, tmp_path: Path
) -> Iterator[BailianFactory]:
    """Open `BailianMemory`s on the fake service and this run's Redis prefix; their cache
    journal is a file of this test's, never the repository's ./data (checked at the end)."""
    opened: list[BailianMemory] = []
    data = Path("data")
    had_data = data.exists()

    def factory(**overrides: Any) -> BailianMemory:
        settings: dict[str, Any] = {
            "dsn": "bailian://default",
            "redis_url": REDIS_URL,
            "redis_key_prefix": redis_prefix,
            "dashscope_api_key": bailian.api_key,
            "bailian_base_url": bailian.base_url,
            "bailian_cache_journal_dsn": f"sqlite:///{tmp_path}/bailian-cache-journal.db",
            **BAILIAN_QUICK,
            **overrides,
        }
        mem = open_memory(**settings)
        assert isinstance(mem, BailianMemory)
        opened.append(mem)
        return mem

    yield factory
    for mem in opened:
        mem.close()
    assert had_data or not data.exists(), "a Bailian test left ./data in the working directory"


@pytest.fixture
def bailian_memory(make_bailian: BailianFactory) -> BailianMemory:
    return make_bailian()
