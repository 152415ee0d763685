"""An expiry Slack did not take: tried again later (a 5xx), by a restarted process too,
and told exactly once; never tried again when Slack refuses for good (the app may not
post there), with what an admin must do in the log. The real Bolt app, the fake Slack
Web API, a real SQLite file or PostgreSQL schema."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest

from bot import compose
from bot.slack.views.approval import REASON_ACTION, REASON_BLOCK
from tests.bot.conftest import BotFactory
from tests.bot.slack.test_approvals import ALICE, REASON, expired_posts, reason_modal
from tests.bot.slack.test_expiry_telling import TTL, clock_expires
from tests.support.llm_server import ScriptedModel
from tests.support.slack_api import FakeSlackAPI
from tests.support.slack_harness import BotHarness
from tests.support.slack_payloads import submit


def expired_and_asked(bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI) -> str:
    """Alice asked for an approval in her DM; nobody decided; the clock expired it. Her
    DM's channel."""
    sent, modal = reason_modal(bot, scripted_model, slack)
    reason = {REASON_BLOCK: {REASON_ACTION: {"type": "plain_text_input", "value": REASON}}}
    assert submit(bot, {**modal, "id": "V2"}, ALICE, reason).status_code == 200
    slack.wait_for("chat.postMessage", where=lambda c: "已请" in str(c.args.get("text")))
    time.sleep(2.0)
    clock_expires(bot)
    return sent.channel


class Later:
    """The tellers' clock: now, plus whatever a test moved it on by (no waiting)."""

    def __init__(self) -> None:
        self.ahead = timedelta()

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.ahead

    def advance(self, seconds: float) -> None:
        self.ahead += timedelta(seconds=seconds)


def on_clock(bot: BotHarness, clock: Later) -> None:
    """`bot`'s tellings (claims, retries) read `clock`."""
    approvals = compose.approval_flows(bot.core).approvals
    assert approvals is not None
    approvals.tellings.clock = clock


def shown(slack: FakeSlackAPI) -> list[str]:
    """Where Slack showed Alice that her request expired (the posts it took)."""
    return [str(c.args["channel"]) for c in expired_posts(slack) if c.ok]


@pytest.mark.parametrize("store", ["sqlite", "postgresql"])
def test_slack_down_for_a_while_alice_is_told_later_exactly_once_even_after_a_restart(
    store: str,
    request: pytest.FixtureRequest,
    make_bot: BotFactory,
    scripted_model: ScriptedModel,
    slack: FakeSlackAPI,
) -> None:
    extra = {"trips_dsn": request.getfixturevalue("pg_schema_dsn")} if store != "sqlite" else {}
    settings = {"approval_ttl_days": TTL, "approval_tell_retry_seconds": 1, **extra}
    web = make_bot(**settings)
    thread = expired_and_asked(web, scripted_model, slack)

    clock = Later()
    on_clock(web, clock)
    slack.fail_5xx("chat.postMessage", times=2)  # her thread, then the DM: both 503
    assert compose.approval_flows(web.core).tell_expired() == 1
    assert shown(slack) == []  # nothing reached her...
    assert compose.approval_flows(web.core).tell_expired() == 0  # ...and not at once again

    clock.advance(1.2)
    restarted = make_bot(**settings)  # the process restarted: the retry was in the database
    on_clock(restarted, clock)
    assert compose.approval_flows(restarted.core).tell_expired() == 1
    assert shown(slack) == [thread]  # in her thread, once
    text = str(next(c for c in expired_posts(slack) if c.ok).args["text"])
    assert "重新保存行程" in text and "符合差标" in text

    clock.advance(3600)
    for process in (web, restarted):
        assert compose.approval_flows(process.core).tell_expired() == 0
    assert shown(slack) == [thread]  # never twice
    told = "slack_approval_expiry_told_total"
    assert web.core.metrics.value(told, outcome="retry") == 1
    assert restarted.core.metrics.value(told, outcome="sent") == 1


def test_slack_refusing_for_good_is_not_tried_again_and_the_log_says_what_to_fix(
    make_bot: BotFactory,
    scripted_model: ScriptedModel,
    slack: FakeSlackAPI,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Her DM with the app is closed to it (`messages_tab_disabled`): the thread's post and
    the DM are refused for good. Recorded as unreachable, logged with the admin's fix, and
    Slack is never asked again, however many ticks pass."""
    web = make_bot(approval_ttl_days=TTL, approval_tell_retry_seconds=1)
    expired_and_asked(web, scripted_model, slack)

    slack.fail("chat.postMessage", "messages_tab_disabled", times=2)
    clock = Later()
    on_clock(web, clock)
    flows = compose.approval_flows(web.core)
    assert flows.tell_expired() == 1
    asked = len(expired_posts(slack))
    assert asked == 2 and shown(slack) == []
    assert "Messages tab" in caplog.text  # what an admin must do
    assert "not tried again" in caplog.text

    clock.advance(3600)
    assert flows.tell_expired() == 0 and flows.tell_expired() == 0
    assert len(expired_posts(slack)) == asked  # Slack was not asked again
    told = "slack_approval_expiry_told_total"
    assert web.core.metrics.value(told, outcome="unreachable") == 1
