"""A PostgreSQL server that stops or freezes under a running memory (a private server,
never the shared one): recall says "unavailable" within seconds, a write says it was
not saved, and both work again once the server is back."""

from __future__ import annotations

import logging
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from memory import open_memory
from memory.engine import Memory
from memory.errors import StoreUnavailable
from memory.types import Recall
from tests.support.private_pg import PrivatePostgres, available

RED_EYE = "I never take red-eye flights"
SUMMARY = "I never take red-eye flights."
pytestmark = pytest.mark.skipif(not available(), reason="initdb/pg_ctl are not installed")


@pytest.fixture(scope="module")
def server() -> Iterator[PrivatePostgres]:
    path = Path(tempfile.mkdtemp(prefix="travel-bot-pg-"))
    pg = PrivatePostgres(path)
    pg.start()
    yield pg
    pg.close()
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def memory(server: PrivatePostgres, namespace: str) -> Iterator[Memory]:
    mem = open_memory(dsn=server.dsn, redis_url="")
    mem.record(namespace, [RED_EYE])
    assert mem.recall(namespace, "flight").summary == SUMMARY
    yield mem
    mem.close()


def _within(seconds: float, call: object) -> object:
    """What `call()` returns or raises, failing the test if it takes over `seconds`."""
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(call())  # type: ignore[operator]
        except Exception as exc:
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"still waiting after {seconds} s"
    return outcome[0]


def _back(memory: Memory, namespace: str) -> None:
    """Memory reads again once the server is back (after the short fail-fast back-off)."""
    for _ in range(100):
        if memory.recall(namespace, "flight").status == "ok":
            return
        threading.Event().wait(0.2)
    pytest.fail("memory did not come back with the server")


def test_a_stopped_server_is_unavailable_then_back(
    server: PrivatePostgres, memory: Memory, namespace: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    server.stop()
    try:
        assert _within(20, lambda: memory.recall(namespace, "flight")) == Recall("", "unavailable")
        assert isinstance(
            _within(20, lambda: memory.record(namespace, ["酒店要含早餐"])), StoreUnavailable
        )
    finally:
        server.start()
    _back(memory, namespace)
    assert memory.record(namespace, ["酒店要含早餐"])[0].status == "added"
    # The operator reads the outage as one line when it starts and one when it ends.
    lines = [r.getMessage() for r in caplog.records if r.name == "memory.database"]
    assert [line.split(":")[0] for line in lines] == ["database outage", "database outage over"]
    assert f"127.0.0.1:{server.port}" in lines[1]
    pool = [r.getMessage() for r in caplog.records if r.name.startswith("psycopg")]
    assert not [line for line in pool if "error connecting" in line], pool


def test_a_frozen_server_is_unavailable_within_seconds_then_back(
    server: PrivatePostgres, memory: Memory, namespace: str
) -> None:
    server.pause()  # accepts connections, answers nothing: it used to hold recall forever
    try:
        assert _within(20, lambda: memory.recall(namespace, "flight")) == Recall("", "unavailable")
        assert isinstance(
            _within(20, lambda: memory.record(namespace, ["酒店要含早餐"])), StoreUnavailable
        )
    finally:
        server.resume()
    _back(memory, namespace)
    assert SUMMARY in memory.recall(namespace, "flight").summary
