"""A decision Slack did not take: the approver's message says the traveller will be told,
and she is, later, once, by the loop of any process (a restarted one too), exactly as an
expiry is; when Slack refuses for good (the app may not post there) the approver is asked
to tell her, and Slack is never asked again. The real Bolt app, the fake Slack Web API, a
real SQLite file or PostgreSQL schema."""

from __future__ import annotations

import json

import pytest

from bot import compose
from bot.messages import t
from bot.slack.views.approval import APPROVE_ACTION, REASON_ACTION, REASON_BLOCK
from tests.bot.conftest import BotFactory
from tests.bot.slack.test_approvals import ALICE, APPROVER, REASON, click, reason_modal
from tests.bot.slack.test_expiry_retries import Later, on_clock
from tests.support.llm_server import ScriptedModel
from tests.support.slack_api import Call, FakeSlackAPI
from tests.support.slack_harness import BotHarness
from tests.support.slack_payloads import submit

TOLD = "批准了"  # what Alice reads when her request is approved (she asked in Chinese)


def asked_and_approved(
    bot: BotHarness, scripted_model: ScriptedModel, slack: FakeSlackAPI, *, fault: str
) -> tuple[str, Call]:
    """Alice asks in her DM; the approver approves while Slack fails Alice's post as
    `fault` says. Her DM's channel, and the approver's message as the click redrew it."""
    sent, modal = reason_modal(bot, scripted_model, slack)
    reason = {REASON_BLOCK: {REASON_ACTION: {"type": "plain_text_input", "value": REASON}}}
    assert submit(bot, {**modal, "id": "V2"}, ALICE, reason).status_code == 200
    [card] = slack.wait_for("chat.postMessage", where=lambda c: c.args["channel"] == APPROVER)
    blocks = card.args["blocks"]
    blocks = json.loads(blocks) if isinstance(blocks, str) else blocks
    slack.wait_for("chat.postMessage", where=lambda c: "已请" in str(c.args.get("text")))
    kept = slack.add_message("D0APPROVER", card.args["text"], user=slack.bot_user_id, blocks=blocks)
    if fault == "5xx":
        slack.fail_5xx("chat.postMessage")  # Alice's thread: Slack did not take it
    elif fault.startswith("taken "):  # Slack posted it, then answered this 5xx
        slack.fail_5xx("chat.postMessage", status=int(fault.split()[1]), taken=True)
    elif fault == "ratelimited":  # a Retry-After longer than a post waits out
        slack.rate_limit("chat.postMessage", retry_after=30)
    else:
        slack.fail("chat.postMessage", fault)
    click(bot, APPROVER, dict(kept), "D0APPROVER", APPROVE_ACTION)
    [update] = slack.wait_for("chat.update", where=lambda c: c.args["channel"] == "D0APPROVER")
    return sent.channel, update


def told(slack: FakeSlackAPI) -> list[str]:
    """Where Slack showed Alice that her request was approved (the posts it took)."""
    return [
        str(c.args["channel"])
        for c in slack.calls_to("chat.postMessage")
        if TOLD in str(c.args.get("text")) and c.ok
    ]


def asked_to_tell(slack: FakeSlackAPI) -> int:
    return sum(1 for c in slack.calls_to("chat.postMessage") if TOLD in str(c.args.get("text")))


@pytest.mark.parametrize(
    ("store", "fault"), [("sqlite", "5xx"), ("postgresql", "5xx"), ("sqlite", "ratelimited")]
)
def test_a_decision_slack_failed_to_post_is_told_later_exactly_once_even_after_a_restart(
    store: str,
    fault: str,
    request: pytest.FixtureRequest,
    make_bot: BotFactory,
    scripted_model: ScriptedModel,
    slack: FakeSlackAPI,
) -> None:
    extra = {"trips_dsn": request.getfixturevalue("pg_schema_dsn")} if store != "sqlite" else {}
    settings = {"approval_tell_retry_seconds": 1, **extra}
    web = make_bot(**settings)
    clock = Later()
    on_clock(web, clock)
    thread, update = asked_and_approved(web, scripted_model, slack, fault=fault)

    # The approver reads that Alice will be told, not that they must tell her.
    assert "Approved by <@U0APPROVER>" in update.args["text"]
    assert t("approval_traveller_retrying", "en") in update.args["text"]
    assert t("approval_traveller_not_delivered", "en") not in update.args["text"]
    assert told(slack) == []
    assert compose.approval_flows(web.core).tell_expired() == 0  # not at once

    clock.advance(1.2)
    restarted = make_bot(**settings)  # the retry is in the database, not in the process
    on_clock(restarted, clock)
    assert compose.approval_flows(restarted.core).tell_expired() == 1
    assert told(slack) == [thread]  # in her thread, once
    clock.advance(3600)
    for process in (web, restarted):
        assert compose.approval_flows(process.core).tell_expired() == 0
    assert told(slack) == [thread] and asked_to_tell(slack) == 2  # never a third time
    metric = "slack_approval_decision_told_total"
    assert web.core.metrics.value(metric, outcome="retry") == 1
    assert restarted.core.metrics.value(metric, outcome="sent") == 1


def test_a_decision_slack_refuses_for_good_is_not_tried_again_and_the_approver_is_asked(
    make_bot: BotFactory,
    scripted_model: ScriptedModel,
    slack: FakeSlackAPI,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Alice's DM is gone for the app (`channel_not_found`): recorded unreachable, the
    approver asked to tell her, the log says so, and Slack is never asked again."""
    web = make_bot(approval_tell_retry_seconds=1)
    clock = Later()
    on_clock(web, clock)
    _, update = asked_and_approved(web, scripted_model, slack, fault="channel_not_found")

    assert t("approval_traveller_not_delivered", "en") in update.args["text"]
    assert t("approval_traveller_retrying", "en") not in update.args["text"]
    assert "not tried again" in caplog.text
    clock.advance(3600)
    flows = compose.approval_flows(web.core)
    assert flows.tell_expired() == 0 and flows.tell_expired() == 0
    assert asked_to_tell(slack) == 1 and told(slack) == []
    metric = "slack_approval_decision_told_total"
    assert web.core.metrics.value(metric, outcome="unreachable") == 1


def asked_to_pass_on(slack: FakeSlackAPI) -> list[str]:
    """What the approver was sent one-to-one after their click: asked to tell Alice."""
    return [
        str(c.args.get("text"))
        for c in slack.calls_to("chat.postMessage")
        if c.args["channel"] == APPROVER and c.ok and "let them know" in str(c.args.get("text"))
    ]


def test_a_decision_never_told_after_every_try_is_passed_on_by_the_approver(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    """The approver's message said the bot would keep trying; every try failed (Slack
    503 each time): the approver is asked, once, in their language, to tell Alice, as
    their message warned they might be. Never silence."""
    web = make_bot(approval_tell_retry_seconds=1, approval_tell_attempts=2)
    clock = Later()
    on_clock(web, clock)
    _, update = asked_and_approved(web, scripted_model, slack, fault="5xx")
    assert t("approval_traveller_retrying", "en") in update.args["text"]
    assert "if it still fails I will ask you to let them know" in update.args["text"]
    assert asked_to_pass_on(slack) == []

    slack.fail_5xx("chat.postMessage")  # the last try fails too
    clock.advance(1.2)
    flows = compose.approval_flows(web.core)
    assert flows.tell_expired() == 1
    [asked] = asked_to_pass_on(slack)
    assert asked.startswith("<@U0ALICE> could not be told that ")
    assert " is approved, although I kept trying; please let them know." in asked
    assert told(slack) == []
    clock.advance(3600)
    assert flows.tell_expired() == 0 and len(asked_to_pass_on(slack)) == 1  # asked once
    metric = "slack_approval_decision_told_total"
    assert web.core.metrics.value(metric, outcome="failed") == 1
    assert web.core.metrics.value("slack_approval_decider_asked_total", outcome="sent") == 1
    # Each post is counted where the docs say: two tries, two failed posts, one telling.
    assert web.core.metrics.value("slack_approval_told_total", outcome="failed") == 2
    assert web.core.metrics.value(metric, outcome="retry") == 1


def seen(slack: FakeSlackAPI, channel: str) -> int:
    """How many times Alice's DM shows that her request was approved."""
    return sum(1 for m in slack.posted(channel) if TOLD in str(m.get("text")))


@pytest.mark.parametrize("fault", ["taken 500", "taken 504", "fatal_error"])
def test_a_decision_slack_may_have_posted_is_never_posted_again_and_the_approver_checks(
    fault: str, make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    """Slack posted Alice's message and then answered HTTP 500 `internal_error` (or a
    504, or `fatal_error`: Slack says some of it may have been done). `chat.postMessage`
    drops no repeat, so sending again would show 'approved' twice: it is never sent
    again, and the approver is asked to check with her, as for any unconfirmed send."""
    web = make_bot(approval_tell_retry_seconds=1)
    clock = Later()
    on_clock(web, clock)
    dm, update = asked_and_approved(web, scripted_model, slack, fault=fault)

    assert t("approval_traveller_unconfirmed", "en") in update.args["text"]
    assert t("approval_traveller_retrying", "en") not in update.args["text"]
    assert seen(slack, dm) == (0 if fault == "fatal_error" else 1)
    for _ in range(3):
        clock.advance(3600)
        assert compose.approval_flows(web.core).tell_expired() == 0
    assert asked_to_tell(slack) == 1  # Slack was asked once
    assert seen(slack, dm) <= 1  # she never reads it twice
    metric = "slack_approval_decision_told_total"
    assert web.core.metrics.value(metric, outcome="unconfirmed") == 1
