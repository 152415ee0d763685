"""One turn at a time per thread: jobs of one key run in order, other keys in parallel."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.conversation.lanes import Lanes


def test_jobs_of_one_key_run_one_after_another_in_order() -> None:
    lanes, pool = Lanes(), ThreadPoolExecutor(max_workers=4)
    release = threading.Event()
    done: list[str] = []

    def first() -> None:
        release.wait(10)
        done.append("first")

    lanes.submit(pool, "thread-1", first)
    lanes.submit(pool, "thread-1", lambda: done.append("second"))
    lanes.submit(pool, "thread-1", lambda: done.append("third"))
    other = threading.Event()
    lanes.submit(pool, "thread-2", other.set)  # not behind thread-1's lane
    assert other.wait(10)
    assert done == [] and lanes.queued("thread-1") == 2
    release.set()
    pool.shutdown(wait=True)
    assert done == ["first", "second", "third"]
    assert lanes.queued("thread-1") == 0


def test_a_failing_job_does_not_stop_its_lane() -> None:
    lanes, pool = Lanes(), ThreadPoolExecutor(max_workers=1)
    done: list[str] = []

    def boom() -> None:
        raise ValueError("boom")

    gate = threading.Event()
    lanes.submit(pool, "k", lambda: gate.wait(10) and None)
    lanes.submit(pool, "k", boom)
    lanes.submit(pool, "k", lambda: done.append("after"))
    gate.set()
    pool.shutdown(wait=True)
    assert done == ["after"]


def test_a_pool_shutting_down_refuses_and_queues_nothing() -> None:
    lanes, pool = Lanes(), ThreadPoolExecutor(max_workers=1)
    pool.shutdown()
    with pytest.raises(RuntimeError):
        lanes.submit(pool, "k", lambda: None)
    assert lanes.queued("k") == 0
