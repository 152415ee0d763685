"""Acknowledged events reach Bolt: a lone one at once, a burst's once the acks are done."""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from bot.metrics import Metrics
from bot.slack.handoff import Handoff


class _Request:
    def __init__(self, name: str) -> None:
        self.name = name


def _handoff(dispatched: list[str], done: threading.Event, expect: int) -> Handoff:
    def dispatch(request: Any) -> None:
        if request.name == "broken":
            raise KeyError("secret body text")
        dispatched.append(request.name)
        if len(dispatched) == expect:
            done.set()

    pool = ThreadPoolExecutor(max_workers=4)
    return Handoff(dispatch, pool, Metrics(), quiet_seconds=0.5, max_wait_seconds=2.0)


def test_a_lone_event_is_dispatched_at_once_and_a_burst_after_its_acks() -> None:
    dispatched: list[str] = []
    done = threading.Event()
    handoff = _handoff(dispatched, done, expect=21)

    async def scenario() -> list[str]:
        handoff.add(_Request("alone"))  # type: ignore[arg-type]
        for _ in range(40):  # well before the quiet window (0.5 s) is over
            if dispatched:
                break
            await asyncio.sleep(0.005)
        seen_alone = list(dispatched)
        await asyncio.sleep(0.6)
        for n in range(20):  # a burst: each within the quiet window of the one before
            handoff.add(_Request(f"burst-{n}"))  # type: ignore[arg-type]
        await asyncio.sleep(0.1)
        assert len(dispatched) <= 2  # the burst's first may go at once; the rest wait
        return seen_alone

    seen_alone = asyncio.run(scenario_with_timers(scenario))
    assert seen_alone == ["alone"]
    assert done.wait(5)
    assert sorted(dispatched) == sorted(["alone", *(f"burst-{n}" for n in range(20))])
    handoff.pool.shutdown()


async def scenario_with_timers(scenario: Any) -> Any:
    """Run `scenario`, then keep the loop alive while the handoff's timers fire."""
    result = await scenario()
    await asyncio.sleep(1.5)
    return result


def test_an_event_bolt_trips_over_is_logged_without_its_body_and_the_rest_go_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    dispatched: list[str] = []
    done = threading.Event()
    handoff = _handoff(dispatched, done, expect=2)

    async def scenario() -> None:
        handoff.add(_Request("first"))  # type: ignore[arg-type]
        handoff.add(_Request("broken"))  # type: ignore[arg-type]
        handoff.add(_Request("last"))  # type: ignore[arg-type]

    with caplog.at_level(logging.WARNING):
        asyncio.run(scenario_with_timers(scenario))
        assert done.wait(5)
    assert dispatched == ["first", "last"]
    assert "could not be dispatched (KeyError" in caplog.text
    assert "secret body text" not in caplog.text
    handoff.pool.shutdown()


def test_events_held_when_the_server_stops_are_still_dispatched() -> None:
    dispatched: list[str] = []
    done = threading.Event()
    handoff = _handoff(dispatched, done, expect=10)

    async def burst_then_stop() -> None:  # the loop ends before the burst's timer fires
        for n in range(10):
            handoff.add(_Request(f"burst-{n}"))  # type: ignore[arg-type]

    asyncio.run(burst_then_stop())
    handoff.pool.shutdown(wait=True)  # as `Pools.close` does, before the listeners stop
    assert sorted(dispatched) == sorted(f"burst-{n}" for n in range(10))
