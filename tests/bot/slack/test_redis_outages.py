"""Slack's retries across a Redis outage: the bot on a private redis-server that the test
kills or freezes (SIGSTOP) and brings back, driven with signed requests."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.conversation.claims import RETRY_AFTER_SECONDS
from tests.bot.conftest import BotFactory
from tests.support.llm_server import ScriptedModel
from tests.support.redis_server import RedisServer
from tests.support.slack_api import FakeSlackAPI
from tests.support.slack_harness import METRICS_AUTH, BotHarness, Sent

ALICE = "U0ALICE"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RedisServer]:
    own = RedisServer(tmp_path).start()
    yield own
    own.stop()


def duplicates(bot: BotHarness, count: int, timeout: float = 10.0) -> float:
    """The deliveries `bot` recognised as duplicates, once `count` were (or time ran out)."""
    deadline = time.monotonic() + timeout
    while True:
        seen = bot.core.metrics.value("slack_events_duplicate_total", type="dm")
        if seen >= count or time.monotonic() > deadline:
            return seen
        time.sleep(0.02)


def scraped(bot: BotHarness) -> dict[str, float]:
    """The claim series an operator's Prometheus reads from `/metrics`."""
    response = bot.http.get("/metrics", headers=METRICS_AUTH)
    assert response.status_code == 200
    series: dict[str, float] = {}
    for line in response.text.splitlines():
        if line.startswith("claims_"):
            name, value = line.split()
            series[name] = float(value)
    return series


def retry(bot: BotHarness, sent: Sent, text: str, number: int) -> int:
    """Slack delivering `sent` again (same event id, `X-Slack-Retry-Num`); the status."""
    response, _ = bot.event(
        {
            "type": "message",
            "channel": sent.channel,
            "channel_type": "im",
            "user": ALICE,
            "text": text,
            "ts": sent.ts,
            "event_ts": sent.ts,
        },
        event_id=sent.event_id,
        retry_num=number,
    )
    return response.status_code


@pytest.mark.parametrize("outage", ["kill", "freeze"])
def test_retries_across_a_redis_outage_are_answered_once(
    make_bot: BotFactory,
    scripted_model: ScriptedModel,
    slack: FakeSlackAPI,
    server: RedisServer,
    outage: str,
) -> None:
    bot = make_bot(redis_url=server.url)
    scripted_model.script("Bon voyage!", "Enjoy Lyon.")
    before = bot.dm(ALICE, "I'm off to Lyon tomorrow")
    assert bot.reply_text(before) == "Bon voyage!"

    server.kill() if outage == "kill" else server.freeze()
    assert retry(bot, before, "I'm off to Lyon tomorrow", 1) == 200
    during = bot.dm(ALICE, "any tips for Lyon?")
    assert bot.reply_text(during) == "Enjoy Lyon."  # the bot keeps working

    server.start() if outage == "kill" else server.thaw()
    assert retry(bot, during, "any tips for Lyon?", 1) == 200
    assert retry(bot, before, "I'm off to Lyon tomorrow", 2) == 200
    bot.drain()
    assert len(slack.shown(before.channel, before.thread_ts)) == 1
    assert len(slack.shown(during.channel, during.thread_ts)) == 1
    assert len(scripted_model.requests) == 2


def test_two_processes_answer_once_when_the_claim_is_written_through_before_the_retry(
    make_bot: BotFactory,
    scripted_model: ScriptedModel,
    slack: FakeSlackAPI,
    server: RedisServer,
) -> None:
    """What holds with several processes (`bot.conversation.claims`): a retry reaching
    another process is caught once the first process's claim is in Redis."""
    first, second = make_bot(redis_url=server.url), make_bot(redis_url=server.url)
    scripted_model.script("Bon voyage!", "Enjoy Lyon.", "Lyon has great food.")
    up = first.dm(ALICE, "I'm off to Lyon tomorrow")
    assert first.reply_text(up) == "Bon voyage!"
    assert retry(second, up, "I'm off to Lyon tomorrow", 1) == 200
    assert duplicates(second, 1) == 1  # Redis up: caught

    server.kill()
    down = first.dm(ALICE, "any tips for Lyon?")  # claimed in the first process only
    assert first.reply_text(down) == "Enjoy Lyon."
    server.start()
    time.sleep(RETRY_AFTER_SECONDS + 0.2)  # the first process leaves Redis alone that long
    later = first.dm(ALICE, "what should I eat there?")  # Redis answers: written through
    assert first.reply_text(later) == "Lyon has great food."
    assert retry(second, down, "any tips for Lyon?", 1) == 200
    assert retry(second, up, "I'm off to Lyon tomorrow", 2) == 200  # Redis lost it: replayed
    assert duplicates(second, 3) == 3
    first.drain()
    second.drain()
    for sent in (up, down, later):
        assert len(slack.shown(sent.channel, sent.thread_ts)) == 1
    assert len(scripted_model.requests) == 3
    seen = scraped(first)
    assert seen["claims_local_only_total"] >= 1  # `down`, decided without Redis
    assert seen["claims_written_through_total"] >= 1
    assert seen["claims_pending_write_through"] == 0
    assert seen["claims_conflicts_total"] == 0


def test_a_retry_another_process_answered_while_redis_was_away_is_shown_to_the_operator(
    make_bot: BotFactory,
    scripted_model: ScriptedModel,
    slack: FakeSlackAPI,
    server: RedisServer,
) -> None:
    """What is not guaranteed with several processes: a retry reaching another process
    before the first one's claim is written through is answered there too. The first
    process finds out when it writes the claim through, and says so in `/metrics`."""
    first, second = make_bot(redis_url=server.url), make_bot(redis_url=server.url)
    scripted_model.script("Enjoy Lyon.", "Enjoy Lyon!", "Lyon has great food.")
    server.kill()
    down = first.dm(ALICE, "any tips for Lyon?")
    assert first.reply_text(down) == "Enjoy Lyon."
    assert scraped(first)["claims_pending_write_through"] >= 1
    server.start()
    assert retry(second, down, "any tips for Lyon?", 1) == 200  # Redis knows nothing of it
    deadline = time.monotonic() + 10
    while len(slack.shown(down.channel, down.thread_ts)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)  # answered there too: the duplicate this test is about
    time.sleep(RETRY_AFTER_SECONDS + 0.2)
    later = first.dm(ALICE, "what should I eat there?")  # writes `down` through: taken
    assert first.reply_text(later) == "Lyon has great food."
    first.drain()
    second.drain()
    assert len(slack.shown(down.channel, down.thread_ts)) == 2
    seen = scraped(first)
    assert seen["claims_conflicts_total"] >= 1
    assert seen["claims_pending_write_through"] == 0
