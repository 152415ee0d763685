"""Claim once across Redis outages: a private redis-server killed, frozen and restarted.

A retry that crosses the moment Redis dies, freezes or comes back is never claimed twice
by one process; other processes learn the claims made meanwhile once they are written
through (see `bot.conversation.claims` for what is guaranteed with several processes).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.conversation.claims import CLAIM_TIMEOUT, Claims
from bot.conversation.incoming import IncomingMessage
from memory.redis_client import open_redis
from tests.support.platforms import SLACK
from tests.support.redis_server import RedisServer

ROUNDS = 20


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RedisServer]:
    own = RedisServer(tmp_path).start()
    yield own
    own.stop()


@pytest.fixture
def make_claims(server: RedisServer) -> Iterator[Any]:
    """Claims of a "process" of its own (its own client) on the private server."""
    made: list[Claims] = []

    def factory(**options: Any) -> Claims:
        client = open_redis(server.url, timeout=CLAIM_TIMEOUT)
        claims = Claims(client=client, owns_client=True, key_prefix="t:", **options)
        made.append(claims)
        return claims

    yield factory
    for claims in made:
        claims.close()


def message(n: int, event: str) -> IncomingMessage:
    ts = f"1700000000.{n:06d}"
    return IncomingMessage(
        platform=SLACK,
        tenant="T1",
        user="U1",
        conversation="D1",
        thread=ts,
        message_id=ts,
        text="plan my trip",
        kind="dm",
        delivery_id=event,
    )


def test_retries_across_a_kill_and_a_restart_are_claimed_once(
    server: RedisServer, make_claims: Any
) -> None:
    claims, other = make_claims(retry_after=0), make_claims(retry_after=0)
    for n in range(ROUNDS):
        before, during = message(3 * n, f"EvB{n}"), message(3 * n + 1, f"EvD{n}")
        assert claims.claim_message(before) is True  # claimed in Redis
        server.kill()
        assert claims.claim_message(before) is False  # Slack's retry while Redis is down
        assert claims.claim_message(during) is True  # a new message while Redis is down
        assert claims.claim_message(during) is False
        server.start()  # back, empty: this machine's Redis keeps nothing
        assert claims.claim_message(during) is False  # retried once Redis is back
        assert claims.claim_message(before) is False
        # The next claim that reaches Redis writes the process's recent claims through,
        # so another process now knows them too.
        assert claims.claim_message(message(3 * n + 2, f"EvN{n}")) is True
        assert other.claim_message(during) is False
        assert other.claim_message(before) is False
    assert claims.stats.conflicts == 0


def test_retries_across_a_freeze_are_claimed_once_and_the_wait_is_short(
    server: RedisServer, make_claims: Any
) -> None:
    claims, other = make_claims(retry_after=0), make_claims(retry_after=0)
    for n in range(ROUNDS):
        before, during = message(3 * n, f"EvB{n}"), message(3 * n + 1, f"EvD{n}")
        assert claims.claim_message(before) is True
        server.freeze()  # SIGSTOP: connections hang, nothing is answered
        started = time.monotonic()
        assert claims.claim_message(during) is True  # given up on after the timeout
        assert time.monotonic() - started < 5  # generous: the socket timeout is 0.5 s
        assert claims.claim_message(before) is False
        assert claims.claim_message(during) is False
        server.thaw()
        assert claims.claim_message(during) is False
        assert claims.claim_message(before) is False
        assert claims.claim_message(message(3 * n + 2, f"EvN{n}")) is True
        assert other.claim_message(during) is False
        assert other.claim_message(before) is False
    assert claims.stats.conflicts == 0


def test_after_a_failure_redis_is_left_alone_for_a_while(
    server: RedisServer, make_claims: Any
) -> None:
    """A frozen Redis costs one timeout per back-off, not one per message."""
    claims = make_claims(retry_after=60)
    assert claims.claim("warm-up") is True
    server.freeze()
    for n in range(10):
        assert claims.claim_message(message(n, f"Ev{n}")) is True
        assert claims.claim_message(message(n, f"Ev{n}")) is False
    assert claims.stats.redis_errors == 1
    assert claims.stats.local_only == 10


def test_a_claim_another_process_made_meanwhile_is_reported(
    server: RedisServer, make_claims: Any
) -> None:
    """The limit with several processes: both claimed while one could not reach Redis."""
    first, second = make_claims(retry_after=0), make_claims(retry_after=0)
    msg = message(1, "Ev1")
    server.kill()
    assert first.claim_message(msg) is True  # in-process only
    server.start()
    assert second.claim_message(msg) is True  # Redis never heard of it
    assert first.claim_message(message(2, "Ev2")) is True  # writes Ev1 through, too late
    assert first.stats.conflicts == 2  # the event and the message


def test_a_release_redis_missed_is_replayed_before_the_next_claim(
    server: RedisServer, make_claims: Any
) -> None:
    claims, other = make_claims(retry_after=1.0), make_claims(retry_after=0)
    assert claims.claim("form:V1:h1") is True  # in Redis
    server.freeze()
    assert claims.claim("form:V2:h1") is True  # Redis times out: left alone for a second
    claims.release("form:V1:h1")  # the save failed; Redis does not hear of it now
    server.thaw()
    time.sleep(1.2)  # past the back-off
    assert claims.claim("form:V1:h1") is True  # submitted again: claimable
    assert other.claim("form:V1:h1") is False
    assert other.claim("form:V2:h1") is False


def test_the_in_process_table_is_bounded(server: RedisServer, make_claims: Any) -> None:
    claims = make_claims(local_capacity=3)
    server.kill()
    for name in ("a", "b", "c", "d"):
        assert claims.claim(name) is True
    assert claims.claim("d") is False
    assert claims.claim("a") is True  # the oldest was dropped to stay within the bound
