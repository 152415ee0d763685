"""The Procfile's layout (`web: travel-bot serve`, `clock: travel-bot clock`, no
`SCHEDULER_IN_WEB`): the clock expires an approval request and holds no channel, so the
serving processes' own loop tells the traveller in Slack, through the real Bolt app and
the fake Slack Web API; two serving instances, and a restart, tell her once."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot import compose
from bot.compose.parts import start_warm_clock
from bot.flows.expiry import ExpiryTeller
from bot.slack.views.approval import REASON_ACTION, REASON_BLOCK
from memory.errors import StoreUnavailable
from tests.bot.conftest import BotFactory, SettingsFactory
from tests.bot.slack.test_approvals import ALICE, REASON, expired_posts, reason_modal
from tests.support.llm_server import ScriptedModel
from tests.support.processes import bot_env, wait_until_healthy
from tests.support.services import free_port
from tests.support.slack_api import FakeSlackAPI
from tests.support.slack_harness import BOT_TOKEN, SIGNING_SECRET, BotHarness
from tests.support.slack_payloads import submit

TTL = 0.00002  # days: 1.7 s
TRAVEL_BOT = str(Path(sys.executable).parent / "travel-bot")


def clock_expires(bot: BotHarness) -> None:
    """One tick of `travel-bot clock`: its warming clock with its default sweep (it serves
    no platform), built as `bot.cli.warm.run_clock` builds it."""
    clock = start_warm_clock(bot.settings, bot.core.memory)
    try:
        assert clock.ran.wait(30), "the clock's first pass did not run"
    finally:
        clock.stop()


@contextmanager
def serving_loop(bot: BotHarness) -> Iterator[ExpiryTeller]:
    """The loop `travel-bot serve` starts once its channels are mounted; stopped after."""
    teller = compose.start_expiry_teller(bot.settings, bot.core)
    assert teller is not None
    try:
        yield teller
    finally:
        teller.stop()
        assert not teller.running


def ticks(teller: ExpiryTeller, n: int) -> None:
    deadline = time.monotonic() + 30
    while teller.ticks < n:
        assert time.monotonic() < deadline, "the loop stopped ticking"
        time.sleep(0.05)


@pytest.mark.parametrize("store", ["sqlite", "postgresql"])
def test_a_request_the_clock_expired_is_told_once_by_two_serving_instances_and_a_restart(
    store: str,
    request: pytest.FixtureRequest,
    make_bot: BotFactory,
    scripted_model: ScriptedModel,
    slack: FakeSlackAPI,
) -> None:
    extra = {"trips_dsn": request.getfixturevalue("pg_schema_dsn")} if store != "sqlite" else {}
    settings = {"approval_ttl_days": TTL, "approval_tell_interval_seconds": 1, **extra}
    web1, web2 = make_bot(**settings), make_bot(**settings)  # two `web` instances
    sent, modal = reason_modal(web1, scripted_model, slack)
    reason = {REASON_BLOCK: {REASON_ACTION: {"type": "plain_text_input", "value": REASON}}}
    assert submit(web1, {**modal, "id": "V2"}, ALICE, reason).status_code == 200
    slack.wait_for("chat.postMessage", where=lambda c: "已请" in str(c.args.get("text")))
    [trip] = web1.core.trips.list(web1.namespace(ALICE))  # type: ignore[union-attr]
    time.sleep(2.0)

    clock_expires(web1)  # the `clock` process: expires, tells nobody
    assert web1.core.trips.get(trip.id).state == "expired"  # type: ignore[union-attr]
    assert expired_posts(slack) == []

    with serving_loop(web1) as one, serving_loop(web2) as two:
        [told] = slack.wait_for("chat.postMessage", where=lambda c: "已过期" in str(c.args))
        ticks(one, 3)
        ticks(two, 3)
    assert told.args["channel"] == sent.channel  # in the thread where she asked
    assert told.args["thread_ts"] == sent.thread_ts
    assert "重新保存行程" in told.args["text"] and "符合差标" in told.args["text"]

    web3 = make_bot(**settings)  # a restarted `web`
    with serving_loop(web3) as again:
        ticks(again, 2)
    assert [c.args["channel"] for c in expired_posts(slack)] == [sent.channel]  # once
    metric = "slack_approval_told_total"
    sent_by = [web.core.metrics.value(metric, outcome="sent") for web in (web1, web2, web3)]
    assert sorted(sent_by) == [0, 0, 1]


def test_a_tick_the_database_failed_does_not_end_the_loop(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    """The database does not answer on the loop's first tick (logged, not raised): the
    loop goes on, and Alice is told on the next."""
    web = make_bot(approval_ttl_days=TTL)
    sent, modal = reason_modal(web, scripted_model, slack)
    reason = {REASON_BLOCK: {REASON_ACTION: {"type": "plain_text_input", "value": REASON}}}
    assert submit(web, {**modal, "id": "V2"}, ALICE, reason).status_code == 200
    slack.wait_for("chat.postMessage", where=lambda c: "已请" in str(c.args.get("text")))
    time.sleep(2.0)
    clock_expires(web)
    flows = compose.approval_flows(web.core)
    failures = [StoreUnavailable("the database did not answer")]

    def tell(stopping: Callable[[], bool]) -> int:
        if failures:
            raise failures.pop()
        return flows.tell_expired(stopping)

    teller = ExpiryTeller(tell=tell, interval_seconds=0.2).start()
    try:
        ticks(teller, 3)
    finally:
        teller.stop()
    assert [c.args["channel"] for c in expired_posts(slack)] == [sent.channel]


def test_a_process_serving_no_platform_starts_no_loop(make_settings: SettingsFactory) -> None:
    """A command line or the clock builds a core but mounts no channel: nothing to tell
    through, so no loop (its requests wait for a serving process)."""
    settings = make_settings()
    core = compose.open_core(settings)
    try:
        assert core.approvals is not None
        assert compose.start_expiry_teller(settings, core) is None
    finally:
        core.close()


def test_travel_bot_serve_tells_what_the_clock_expired_and_stops_on_sigterm(
    tmp_path: Path,
    bot_prefix: str,
    make_bot: BotFactory,
    scripted_model: ScriptedModel,
    slack: FakeSlackAPI,
) -> None:
    """`web: travel-bot serve` as its own process, `SCHEDULER_IN_WEB` unset: a request
    the clock expired while no loop ran is told in Alice's thread, and SIGTERM ends it."""
    asked = make_bot(approval_ttl_days=TTL)  # the instance she asked through, then gone
    sent, modal = reason_modal(asked, scripted_model, slack)
    reason = {REASON_BLOCK: {REASON_ACTION: {"type": "plain_text_input", "value": REASON}}}
    assert submit(asked, {**modal, "id": "V2"}, ALICE, reason).status_code == 200
    slack.wait_for("chat.postMessage", where=lambda c: "已请" in str(c.args.get("text")))
    time.sleep(2.0)
    clock_expires(asked)
    assert expired_posts(slack) == []

    port = free_port()
    env = bot_env(
        tmp_path,
        bot_prefix,
        MEMORY_DSN=asked.settings.memory_dsn,
        PORT=str(port),
        WEB_HOST="127.0.0.1",
        SLACK_BOT_TOKEN=BOT_TOKEN,
        SLACK_SIGNING_SECRET=SIGNING_SECRET,
        SLACK_API_URL=slack.base_url,
    )
    process = subprocess.Popen(
        [TRAVEL_BOT, "serve"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_until_healthy(
            process,
            f"http://127.0.0.1:{port}",
            lambda: process.stdout.read().decode() if process.stdout else "",
        )
        [told] = slack.wait_for(
            "chat.postMessage", where=lambda c: "已过期" in str(c.args), timeout=60
        )
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
    assert process.returncode == 0
    assert told.args["channel"] == sent.channel and told.args["thread_ts"] == sent.thread_ts
    assert "重新保存行程" in told.args["text"]


def test_with_scheduler_in_web_the_sweep_expires_and_the_loop_alone_tells(
    make_bot: BotFactory, scripted_model: ScriptedModel, slack: FakeSlackAPI
) -> None:
    """`SCHEDULER_IN_WEB=true`: the web process's own clock expires the request and tells
    nobody (as the `clock` process); the serving loop is the one teller, and Alice hears
    once, in her thread."""
    from bot.cli.run import _clock_in_process

    web = make_bot(approval_ttl_days=TTL, approval_tell_interval_seconds=1, scheduler_in_web=True)
    sent, modal = reason_modal(web, scripted_model, slack)
    reason = {REASON_BLOCK: {REASON_ACTION: {"type": "plain_text_input", "value": REASON}}}
    assert submit(web, {**modal, "id": "V2"}, ALICE, reason).status_code == 200
    slack.wait_for("chat.postMessage", where=lambda c: "已请" in str(c.args.get("text")))
    [trip] = web.core.trips.list(web.namespace(ALICE))  # type: ignore[union-attr]
    time.sleep(2.0)

    clock = _clock_in_process(web.settings, web.core)
    assert clock is not None
    try:
        assert clock.ran.wait(30), "the in-web clock's first pass did not run"
    finally:
        clock.stop()
    assert web.core.trips.get(trip.id).state == "expired"  # type: ignore[union-attr]
    assert expired_posts(slack) == []  # the sweep told nobody

    with serving_loop(web) as loop:
        ticks(loop, 2)
    assert [c.args["channel"] for c in expired_posts(slack)] == [sent.channel]
