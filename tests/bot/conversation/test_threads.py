"""Thread history in real Redis: recent turns, a length cap and a TTL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from bot.conversation.threads import ThreadHistory, Turn
from tests.support.services import REDIS_URL


@pytest.fixture
def client(bot_prefix: str) -> Iterator[redis.Redis]:
    connection = redis.Redis.from_url(REDIS_URL)
    yield connection
    connection.close()


def test_turns_come_back_in_order_and_only_for_their_thread(
    client: redis.Redis, bot_prefix: str
) -> None:
    history = ThreadHistory(client=client, key_prefix=bot_prefix)
    assert history.knows("T1:C1:1.0") is False
    history.append("T1:C1:1.0", Turn("user", "去成都", "U1"), Turn("assistant", "好的"))
    history.append("T1:C1:1.0", Turn("user", "坐高铁", "U2"))
    assert history.load("T1:C1:1.0") == [
        Turn("user", "去成都", "U1"),
        Turn("assistant", "好的"),
        Turn("user", "坐高铁", "U2"),
    ]
    assert history.knows("T1:C1:1.0") is True
    assert history.load("T1:C1:2.0") == []
    assert history.load("T2:C1:1.0") == []


def test_only_the_most_recent_turns_are_kept_and_they_expire(
    client: redis.Redis, bot_prefix: str
) -> None:
    history = ThreadHistory(
        client=client, key_prefix=bot_prefix, max_turns=4, ttl_seconds=120, max_chars_per_turn=10
    )
    for n in range(10):
        history.append("T1:D1:9.0", Turn("user", f"message {n} is long"))
    turns = history.load("T1:D1:9.0")
    assert [t.text for t in turns] == ["message 6 ", "message 7 ", "message 8 ", "message 9 "]
    assert 0 < int(client.ttl(history.key("T1:D1:9.0"))) <= 120


def test_redis_down_means_no_history_not_an_error() -> None:
    down = redis.Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.2)
    history = ThreadHistory(client=down)
    history.append("T1:C1:1.0", Turn("user", "hi"))
    assert history.load("T1:C1:1.0") == []
    assert history.knows("T1:C1:1.0") is False


def test_only_the_first_of_two_racing_mentions_seeds_the_thread(
    client: redis.Redis, bot_prefix: str
) -> None:
    history = ThreadHistory(client=client, key_prefix=bot_prefix)
    opening = Turn("user", "Team conference in Chengdu, May 12-14. Who is coming?", "U0CAROL")
    assert history.seed("T1:C1:1.0", opening) is True
    assert history.seed("T1:C1:1.0", opening) is False
    assert history.load("T1:C1:1.0") == [opening]


def test_the_traveller_a_thread_plans_for_is_remembered_per_thread(
    client: redis.Redis, bot_prefix: str
) -> None:
    history = ThreadHistory(client=client, key_prefix=bot_prefix, ttl_seconds=120)
    assert history.subject("T1:C1:1.0") is None
    history.set_subject("T1:C1:1.0", "U0ALICE")
    assert history.subject("T1:C1:1.0") == "U0ALICE"
    assert history.subject("T1:C1:2.0") is None
    assert 0 < int(client.ttl(history.subject_key("T1:C1:1.0"))) <= 120


def test_a_marked_thread_is_known_before_it_has_a_history(
    client: redis.Redis, bot_prefix: str
) -> None:
    """A mention was accepted; its answer is still being written."""
    history = ThreadHistory(client=client, key_prefix=bot_prefix, ttl_seconds=120)
    other_process = ThreadHistory(client=client, key_prefix=bot_prefix)
    history.mark("T1:C1:3.0")
    assert history.knows("T1:C1:3.0") and other_process.knows("T1:C1:3.0")
    assert history.load("T1:C1:3.0") == []  # a mark is not a turn
    assert history.seed("T1:C1:3.0", Turn("user", "earlier message")) is True
    assert 0 < int(client.ttl(history.mark_key("T1:C1:3.0"))) <= 120
    history.unmark("T1:C1:3.0")
    assert other_process.knows("T1:C1:3.0") is True  # it has a history now
    history.unmark("T1:C1:4.0")
    assert history.knows("T1:C1:4.0") is False


def test_while_redis_is_down_a_process_still_knows_the_threads_it_marked() -> None:
    down = redis.Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.2)
    history = ThreadHistory(client=down, local_capacity=2)
    history.mark("T1:C1:1.0")
    assert history.knows("T1:C1:1.0") is True
    assert history.knows("T1:C1:2.0") is False
    history.mark("T1:C1:2.0")
    history.mark("T1:C1:3.0")  # past the bound: the oldest mark is dropped
    assert history.knows("T1:C1:1.0") is False
    assert history.knows("T1:C1:3.0") is True
