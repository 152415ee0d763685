"""Bailian behind the cache: an invalidation Redis did not take outlives the process that
made the write (`BAILIAN_CACHE_JOURNAL_DSN`, `memory.redelivery.standalone_journal`).
The local fake service, real Redis, a real SQLite file or PostgreSQL schema."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import pytest
from pydantic import ValidationError

from memory.bailian import BailianMemory
from memory.settings import MemorySettings
from tests.conftest import BailianFactory
from tests.support.bailian_api import FakeBailian
from tests.support.services import free_port

RAIL = "出差只坐高铁一等座"
BREAKFAST = "酒店要含早餐"


def _kept(mem: BailianMemory) -> int:
    journal = mem.cache.journal
    assert journal is not None
    with journal.backend.transaction() as cur:
        cur.execute("SELECT COUNT(*) FROM cache_invalidations")
        return int(cur.fetchone()[0])


def test_a_write_redis_missed_is_dropped_by_the_process_started_after_a_restart(
    make_bailian: BailianFactory, bailian: FakeBailian, namespace: str, dsn: str
) -> None:
    """Redis could not be reached when the write was accepted, and the process restarted
    before it could: the restarted process still never serves the summary from before."""
    journal = {"bailian_cache_journal_dsn": dsn}
    serving = make_bailian(**journal)
    serving.cache.journal.every = 600  # type: ignore[union-attr]  # no background help
    bailian.add_node(namespace, RAIL)
    assert serving.retrieve(namespace) == f"{RAIL}。"
    assert serving.recall(namespace).cached
    writer = make_bailian(redis_url=f"redis://127.0.0.1:{free_port()}/0", **journal)
    [outcome] = writer.record(namespace, [BREAKFAST])
    assert outcome.status == "added"
    assert writer.follower.settle(5)
    assert writer.cache.flush()  # closing: nothing lost, the drop is kept for another process
    restarted = make_bailian(**journal)  # a new process on the same journal, Redis back
    assert _kept(restarted) == 1
    assert BREAKFAST in restarted.retrieve(namespace)
    assert _kept(restarted) == 0


def test_a_process_that_never_misses_redis_makes_no_journal_file(
    make_bailian: BailianFactory, namespace: str, tmp_path: Path
) -> None:
    """Nor its directory: on a read-only filesystem a process that reaches Redis starts
    and runs without a word about the journal."""
    path = tmp_path / "data" / "journal.db"
    mem = make_bailian(bailian_cache_journal_dsn=f"sqlite:///{path}")
    assert not path.parent.exists()  # not at start
    mem.record(namespace, [BREAKFAST])
    assert mem.follower.settle(5)
    assert BREAKFAST in mem.retrieve(namespace)
    mem.cache.flush()
    assert not path.parent.exists()


def test_a_journal_that_cannot_be_made_is_said_once_when_first_needed(
    make_bailian: BailianFactory, namespace: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A directory that cannot be made (here under a file; a read-only filesystem alike):
    starting logs nothing, the first invalidation Redis misses says so once, and the write
    is still accepted."""
    (tmp_path / "readonly").write_text("a file, not a directory")
    journal = f"sqlite:///{tmp_path}/readonly/data/journal.db"
    with caplog.at_level(logging.WARNING):
        make_bailian(bailian_cache_journal_dsn=journal)
    assert not [r for r in caplog.records if "redelivery" in r.name]
    down = make_bailian(
        redis_url=f"redis://127.0.0.1:{free_port()}/0", bailian_cache_journal_dsn=journal
    )
    with caplog.at_level(logging.WARNING):
        assert down.record(namespace, [BREAKFAST])[0].status == "added"
        assert down.record(namespace, [RAIL])[0].status == "added"
        assert down.follower.settle(5)
    said = [r for r in caplog.records if "cannot make the journal" in r.getMessage()]
    assert len(said) == 1 and "memory only" in said[0].getMessage()


@pytest.mark.parametrize("dsn", ["bailian://default", "sqlite://journal.db", "mysql://h/db"])
def test_a_journal_that_is_no_database_of_ours_is_refused_at_start(dsn: str) -> None:
    with pytest.raises(ValidationError, match=r"expected sqlite:///path/to/journal\.db"):
        MemorySettings(bailian_cache_journal_dsn=dsn)


def test_tests_keep_the_journal_out_of_the_repository(
    make_bailian: BailianFactory, namespace: str, tmp_path: Path
) -> None:
    """The fixture's default journal is this test's file: a drop Redis missed lands there,
    not in ./data of the directory the tests run from (the fixture checks it at the end)."""
    mem = make_bailian(redis_url=f"redis://127.0.0.1:{free_port()}/0")
    assert mem.record(namespace, [BREAKFAST])[0].status == "added"
    assert mem.follower.settle(5)
    assert (tmp_path / "bailian-cache-journal.db").exists()


def test_the_cli_closing_while_redis_is_down_keeps_the_follow_up_drop_in_the_journal(
    make_bailian: BailianFactory,
    namespace: str,
    dsn: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """`travel-bot memory add` with Redis down: the CLI flushes the cache, then closes
    memory, whose follower drops the namespace once more. That drop reaches the journal
    (still open), with no false database outage in the log."""
    from bot.cli.memory import _close

    mem = make_bailian(
        redis_url=f"redis://127.0.0.1:{free_port()}/0", bailian_cache_journal_dsn=dsn
    )
    assert mem.record(namespace, [BREAKFAST])[0].status == "added"
    journal = mem.cache.journal
    assert journal is not None
    with caplog.at_level(logging.INFO):
        _close(mem, argparse.Namespace(user=namespace, operator_lang="en"))
    assert not [r for r in caplog.records if r.name == "memory.database"]
    assert not [r for r in caplog.records if "could not keep" in r.getMessage()]
    assert "closing: 1 write(s) not yet visible" in caplog.text  # the follow-up was made
    later = make_bailian(  # Redis still down: the drop waits in the journal
        redis_url=f"redis://127.0.0.1:{free_port()}/0", bailian_cache_journal_dsn=dsn
    )
    assert _kept(later) == 1


def test_a_journal_dsn_with_spaces_around_it_is_taken_as_written(tmp_path: Path) -> None:
    """A value copied with a space or newline around it is the journal it names, as
    open_memory uses it, not refused at start."""
    dsn = f"sqlite:///{tmp_path}/journal.db"
    assert MemorySettings(bailian_cache_journal_dsn=f"  {dsn}\n").bailian_cache_journal_dsn == dsn
    assert MemorySettings(bailian_cache_journal_dsn="  ").bailian_cache_journal_dsn == ""


def test_a_postgresql_journal_that_is_down_is_not_called_a_memory_outage(
    make_bailian: BailianFactory, namespace: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Bailian still reads and saves preferences while the journal's PostgreSQL is out:
    the outage line says what is really lost, not that /readyz answers 503."""
    mem = make_bailian(
        redis_url=f"redis://127.0.0.1:{free_port()}/0",
        bailian_cache_journal_dsn=f"postgresql://postgres@127.0.0.1:{free_port()}/test",
    )
    with caplog.at_level(logging.WARNING):
        assert mem.record(namespace, [BREAKFAST])[0].status == "added"
    [line] = [r.getMessage() for r in caplog.records if "database outage:" in r.getMessage()]
    assert "cache journal" in line and "still read and saved" in line
    assert "/readyz" not in line
