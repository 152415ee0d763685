"""Slack's retries across a Redis outage: the bot on a private redis-server that the test
kills or freezes (SIGSTOP) and brings back, driven with signed requests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bot.conftest import BotFactory
from tests.support.llm_server import ScriptedModel
from tests.support.redis_server import RedisServer
from tests.support.slack_api import FakeSlackAPI
from tests.support.slack_harness import BotHarness, Sent

ALICE = "U0ALICE"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RedisServer]:
    own = RedisServer(tmp_path).start()
    yield own
    own.stop()


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
