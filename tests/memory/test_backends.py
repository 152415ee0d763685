"""The SQLite backend under the thread patterns the bot uses."""

from __future__ import annotations

import gc
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from memory.backends import SQLiteBackend


def _touch(backend: SQLiteBackend) -> None:
    with backend.transaction("T1:U1") as cur:
        cur.execute("CREATE TABLE IF NOT EXISTS t (x INTEGER)")
        cur.execute("INSERT INTO t VALUES (1)")


def test_connections_of_finished_threads_are_closed(tmp_path: Path) -> None:
    backend = SQLiteBackend(tmp_path / "m.db")
    try:
        for _ in range(5):  # like the warming pass: a new pool every run
            with ThreadPoolExecutor(max_workers=4) as pool:
                list(pool.map(lambda _: _touch(backend), range(8)))
        gc.collect()
        assert backend.open_connections <= 1
    finally:
        backend.close()


def test_many_threads_opening_a_new_file_at_once_all_succeed(tmp_path: Path) -> None:
    for trial in range(5):
        backend = SQLiteBackend(tmp_path / f"fresh-{trial}.db")
        start = threading.Barrier(8)
        errors: list[BaseException] = []

        def first_use(
            backend: SQLiteBackend = backend,
            start: threading.Barrier = start,
            errors: list[BaseException] = errors,
        ) -> None:
            start.wait()
            try:
                _touch(backend)
            except BaseException as exc:  # reported below
                errors.append(exc)

        threads = [threading.Thread(target=first_use) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        backend.close()
        assert errors == []
