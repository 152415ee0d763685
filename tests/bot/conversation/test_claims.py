"""Claim once, across processes, on real Redis: one answer per message, one save per form."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
import redis

from bot.conversation.claims import Claims
from bot.conversation.incoming import IncomingMessage
from tests.support.platforms import BY_NAME
from tests.support.services import REDIS_URL


@pytest.fixture
def client(bot_prefix: str) -> Iterator[redis.Redis]:
    connection = redis.Redis.from_url(REDIS_URL)
    yield connection
    connection.close()


def message(
    event_id: str | None, ts: str, *, team: str = "T1", channel: str = "D1", platform: str = "slack"
) -> IncomingMessage:
    return IncomingMessage(
        platform=BY_NAME[platform],
        tenant=team,
        user="U1",
        conversation=channel,
        thread=ts,
        message_id=ts,
        text="hello",
        kind="dm",
        delivery_id=event_id,
    )


def test_a_redelivered_event_is_claimed_once(client: redis.Redis, bot_prefix: str) -> None:
    first_process = Claims(client=client, key_prefix=bot_prefix)
    second_process = Claims(client=client, key_prefix=bot_prefix)
    msg = message("Ev1", "1.1")
    assert first_process.claim_message(msg) is True
    assert second_process.claim_message(msg) is False
    assert first_process.claim_message(msg) is False


def test_the_same_message_under_two_event_ids_is_claimed_once(
    client: redis.Redis, bot_prefix: str
) -> None:
    claims = Claims(client=client, key_prefix=bot_prefix)
    assert claims.claim_message(message("EvDM", "2.2", channel="C1")) is True
    assert claims.claim_message(message("EvMENTION", "2.2", channel="C1")) is False
    assert claims.claim_message(message("EvOTHER", "2.3", channel="C1")) is True
    assert claims.claim_message(message("EvX", "2.2", team="T2", channel="C1")) is True


def test_slack_keeps_its_keys_and_other_platforms_never_collide_with_it(
    client: redis.Redis, bot_prefix: str
) -> None:
    claims = Claims(client=client, key_prefix=bot_prefix)
    assert claims.claim_message(message("Ev9", "9.9", channel="C1"))
    # The keys Slack used before there was a second platform: a rolling deploy still dedupes.
    assert client.exists(f"{bot_prefix}bot:seen:event:Ev9", f"{bot_prefix}bot:seen:msg:T1:C1:9.9")
    assert claims.claim_message(message("Ev9", "9.9", channel="C1", platform="feishu"))


def test_concurrent_deliveries_have_exactly_one_winner(
    client: redis.Redis, bot_prefix: str
) -> None:
    claims = Claims(client=client, key_prefix=bot_prefix)
    wins: list[bool] = []
    barrier = threading.Barrier(16)

    def deliver(n: int) -> None:
        barrier.wait()
        wins.append(claims.claim_message(message(f"Ev{n % 2}", "3.3", channel="C9")))

    threads = [threading.Thread(target=deliver, args=(n,)) for n in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wins.count(True) == 1


def test_claims_expire(client: redis.Redis, bot_prefix: str) -> None:
    claims = Claims(client=client, key_prefix=bot_prefix, ttl_seconds=60)
    claims.claim_message(message("EvT", "4.4", channel="C1"))
    assert 0 < int(client.ttl(claims.key("bot:seen:event:EvT"))) <= 60
    assert 0 < int(client.ttl(claims.key("bot:seen:msg:T1:C1:4.4"))) <= 60
    claims.claim("form:V1:h1", ttl_seconds=30)
    assert 0 < int(client.ttl(claims.key("form:V1:h1"))) <= 30


def test_a_released_claim_can_be_claimed_again(client: redis.Redis, bot_prefix: str) -> None:
    claims = Claims(client=client, key_prefix=bot_prefix)
    assert claims.claim("form:V1:h1") is True
    assert claims.claim("form:V1:h1") is False  # a double submission
    claims.release("form:V1:h1")  # the save failed: the person may submit again
    assert claims.claim("form:V1:h1") is True
    assert claims.claim("") is True  # nothing to claim: always the first


def test_with_redis_down_one_process_still_answers_and_saves_once() -> None:
    down = redis.Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.2)
    claims = Claims(client=down)
    assert claims.claim_message(message("Ev1", "5.5")) is True
    assert claims.claim_message(message("Ev1", "5.5")) is False
    assert claims.claim_message(message("Ev2", "5.5")) is False
    assert claims.claim_message(message("Ev3", "5.6")) is True
    assert claims.claim("form:V2:h1") is True
    assert claims.claim("form:V2:h1") is False
    claims.release("form:V2:h1")
    assert claims.claim("form:V2:h1") is True
