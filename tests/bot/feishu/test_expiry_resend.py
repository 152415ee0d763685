"""An expiry told under the plan card while Feishu took the reply and lost its answer,
and the one-to-one fallback failed: Feishu drops a repeat of the same uuid for an hour
(the fake does too), so within that hour the telling is tried again with the same uuid
and Alice reads it once; past the hour it is never sent again (it might show twice).
lark-oapi's client against the fake open API."""

from __future__ import annotations

import time
from datetime import timedelta

from bot import compose
from memory.store import utcnow
from tests.bot.feishu.conftest import FeishuFactory
from tests.bot.feishu.test_expiry_retries import direct, expired
from tests.bot.feishu.test_expiry_telling import told_in_thread
from tests.support.feishu_api import FakeFeishuAPI
from tests.support.feishu_harness import FeishuHarness
from tests.support.llm_server import ScriptedModel

TOLD = "feishu_approval_expiry_told_total"


def unconfirmed_first_try(bot: FeishuHarness, fake_feishu: FakeFeishuAPI) -> None:
    """The reply under the plan card is taken and both its tries reset (Alice sees it,
    the bot cannot know); the direct message fails before Feishu takes it."""
    fake_feishu.take_then_reset("reply", times=2)
    fake_feishu.fail("send", 1500, "internal error", times=2)
    assert compose.approval_flows(bot.core).tell_expired() == 1
    assert bot.core.metrics.value(TOLD, outcome="retry") == 1


def test_an_unconfirmed_expiry_is_sent_again_within_the_hour_and_alice_reads_it_once(
    make_feishu: FeishuFactory, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    bot, card = expired(make_feishu, scripted_model, fake_feishu)
    unconfirmed_first_try(bot, fake_feishu)
    replies = len(fake_feishu.calls_to("reply"))
    flows = compose.approval_flows(bot.core)

    time.sleep(1.2)  # the retry's wait (APPROVAL_TELL_RETRY_SECONDS=1)
    assert flows.tell_expired() == 1
    before, again = fake_feishu.calls_to("reply")[:replies], fake_feishu.calls_to("reply")[replies:]
    assert again and {c.body["uuid"] for c in again} <= {c.body["uuid"] for c in before}
    assert len(told_in_thread(fake_feishu, card)) == 1 and direct(fake_feishu) == []
    assert bot.core.metrics.value(TOLD, outcome="sent") == 1

    time.sleep(2.5)
    assert flows.tell_expired() == 0
    assert len(told_in_thread(fake_feishu, card)) == 1


def test_past_the_hour_an_unconfirmed_expiry_is_not_sent_again(
    make_feishu: FeishuFactory, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    bot, card = expired(make_feishu, scripted_model, fake_feishu)
    unconfirmed_first_try(bot, fake_feishu)
    fake_feishu.pass_time(3600)  # an hour on: Feishu would show the same uuid again
    approvals = bot.core.approvals
    assert approvals is not None
    backend = approvals.backend
    with backend.transaction() as cur:  # ...and the first try was an hour ago
        cur.execute(
            backend.sql("UPDATE approval_requests SET tell_unsure_since = %s"),
            (backend.to_db_time(utcnow() - timedelta(hours=1)),),
        )
    asked = len(fake_feishu.calls_to("reply")) + len(fake_feishu.calls_to("send"))

    time.sleep(1.2)
    assert compose.approval_flows(bot.core).tell_expired() == 1  # claimed, nothing sent
    assert len(fake_feishu.calls_to("reply")) + len(fake_feishu.calls_to("send")) == asked
    assert len(told_in_thread(fake_feishu, card)) == 1 and direct(fake_feishu) == []
    assert bot.core.metrics.value(TOLD, outcome="unconfirmed") == 1
    time.sleep(2.5)
    assert compose.approval_flows(bot.core).tell_expired() == 0
