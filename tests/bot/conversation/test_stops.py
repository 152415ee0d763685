"""The stop button reaches a turn whichever process runs it: two processes' `Stops` on
one real Redis, each with its own turns."""

from __future__ import annotations

import time

import redis

from bot.conversation.stops import Stops

THREAD = "T1:D1:1700000000.000100"


def _stops(client: redis.Redis, prefix: str) -> Stops:
    return Stops(client=client, key_prefix=prefix, poll_seconds=0.05)


def test_a_stop_pressed_in_one_process_stops_the_turn_running_in_another(
    redis_client: redis.Redis, redis_prefix: str
) -> None:
    here, there = _stops(redis_client, redis_prefix), _stops(redis_client, redis_prefix)
    running = here.add(THREAD)
    other = here.add("T1:D1:another-thread")
    assert there.stop(THREAD) == 0  # nothing of it runs there
    assert running.wait(2), "the turn running here was not stopped"
    assert not other.is_set()  # another thread's turn goes on
    here.done(THREAD, running)


def test_a_stop_pressed_before_a_turn_began_never_stops_it(
    redis_client: redis.Redis, redis_prefix: str
) -> None:
    here, there = _stops(redis_client, redis_prefix), _stops(redis_client, redis_prefix)
    there.stop(THREAD)  # an earlier turn of the thread, stopped
    time.sleep(0.02)
    later = here.add(THREAD)
    time.sleep(0.3)
    assert not later.is_set()
    here.done(THREAD, later)


def test_without_redis_a_stop_reaches_this_process_only() -> None:
    stops = Stops()
    turn = stops.add(THREAD)
    assert stops.stop(THREAD) == 1 and turn.is_set()
    stops.done(THREAD, turn)
    assert stops.stop(THREAD) == 0  # done: nothing left to stop
