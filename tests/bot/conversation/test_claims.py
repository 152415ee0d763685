"""Exactly one claim per Slack event and message, across processes, on real Redis."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
import redis

from bot.conversation.claims import EventDedupe
from tests.bot.conftest import REDIS_URL


@pytest.fixture
def client(bot_prefix: str) -> Iterator[redis.Redis]:
    connection = redis.Redis.from_url(REDIS_URL)
    yield connection
    connection.close()


def test_a_redelivered_event_is_claimed_once(client: redis.Redis, bot_prefix: str) -> None:
    first_process = EventDedupe(client=client, key_prefix=bot_prefix)
    second_process = EventDedupe(client=client, key_prefix=bot_prefix)
    claim = {"event_id": "Ev1", "team_id": "T1", "channel": "D1", "ts": "1.1"}
    assert first_process.claim(**claim) is True
    assert second_process.claim(**claim) is False
    assert first_process.claim(**claim) is False


def test_the_same_message_under_two_event_ids_is_claimed_once(
    client: redis.Redis, bot_prefix: str
) -> None:
    dedupe = EventDedupe(client=client, key_prefix=bot_prefix)
    assert dedupe.claim(event_id="EvDM", team_id="T1", channel="C1", ts="2.2") is True
    assert dedupe.claim(event_id="EvMENTION", team_id="T1", channel="C1", ts="2.2") is False
    assert dedupe.claim(event_id="EvOTHER", team_id="T1", channel="C1", ts="2.3") is True
    assert dedupe.claim(event_id="EvX", team_id="T2", channel="C1", ts="2.2") is True


def test_concurrent_deliveries_have_exactly_one_winner(
    client: redis.Redis, bot_prefix: str
) -> None:
    dedupe = EventDedupe(client=client, key_prefix=bot_prefix)
    wins: list[bool] = []
    barrier = threading.Barrier(16)

    def deliver(n: int) -> None:
        barrier.wait()
        wins.append(dedupe.claim(event_id=f"Ev{n % 2}", team_id="T1", channel="C9", ts="3.3"))

    threads = [threading.Thread(target=deliver, args=(n,)) for n in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wins.count(True) == 1


def test_claims_expire(client: redis.Redis, bot_prefix: str) -> None:
    dedupe = EventDedupe(client=client, key_prefix=bot_prefix, ttl_seconds=60)
    dedupe.claim(event_id="EvT", team_id="T1", channel="C1", ts="4.4")
    assert 0 < int(client.ttl(dedupe.event_key("EvT"))) <= 60
    assert 0 < int(client.ttl(dedupe.message_key("T1", "C1", "4.4"))) <= 60


def test_with_redis_down_one_process_still_answers_once() -> None:
    down = redis.Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.2)
    dedupe = EventDedupe(client=down)
    assert dedupe.claim(event_id="Ev1", team_id="T1", channel="D1", ts="5.5") is True
    assert dedupe.claim(event_id="Ev1", team_id="T1", channel="D1", ts="5.5") is False
    assert dedupe.claim(event_id="Ev2", team_id="T1", channel="D1", ts="5.5") is False
    assert dedupe.claim(event_id="Ev3", team_id="T1", channel="D1", ts="5.6") is True
