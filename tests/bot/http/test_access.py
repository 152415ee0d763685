"""Who may read `/metrics`, and what an operator sees when requests are refused."""

from __future__ import annotations

import json
import logging
import time

import httpx
import pytest

from bot.http.notices import Notices
from tests.bot.conftest import BotFactory
from tests.support.services import free_port
from tests.support.slack_harness import METRICS_AUTH, METRICS_TOKEN, BotHarness, sign

_MARKER = "passport-E12345678"  # must never reach the logs


def test_metrics_are_not_served_to_anonymous_requests_on_the_public_port(
    make_bot: BotFactory,
) -> None:
    without_token = make_bot(metrics_token=None)
    assert without_token.http.get("/metrics").status_code == 404

    with_token = make_bot()
    assert with_token.http.get("/metrics").status_code == 401
    wrong = {"Authorization": "Bearer not-the-token"}
    assert with_token.http.get("/metrics", headers=wrong).status_code == 401
    basic = {"Authorization": f"Basic {METRICS_TOKEN}"}
    assert with_token.http.get("/metrics", headers=basic).status_code == 401
    response = with_token.http.get("/metrics", headers=METRICS_AUTH)
    assert response.status_code == 200
    assert "# TYPE" in response.text


def test_the_metrics_port_serves_metrics_and_health_and_nothing_else(
    make_bot: BotFactory,
) -> None:
    port = free_port()
    bot = make_bot(metrics_token=None, metrics_port=port)
    assert bot.server.metrics_url == f"http://127.0.0.1:{port}"
    ops = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
    try:
        response = ops.get("/metrics")
        assert response.status_code == 200
        assert "agent_pending_turns" in response.text
        assert ops.get("/healthz").status_code == 200
        assert ops.post("/slack/events", content=b"{}").status_code == 404
    finally:
        ops.close()
    assert bot.http.get("/metrics").status_code == 404  # the public port still refuses


def test_with_a_token_the_metrics_port_wants_it_too(make_bot: BotFactory) -> None:
    port = free_port()
    make_bot(metrics_port=port)
    url = f"http://127.0.0.1:{port}/metrics"
    assert httpx.get(url, timeout=30).status_code == 401
    assert httpx.get(url, headers=METRICS_AUTH, timeout=30).status_code == 200


def _unsigned_event() -> bytes:
    event = {"type": "event_callback", "event": {"type": "message", "text": _MARKER}}
    return json.dumps(event).encode()


@pytest.mark.parametrize(
    ("how", "reason"),
    [
        ("wrong secret", "bad signature"),
        ("stale", "stale timestamp"),
        ("unsigned", "missing headers"),
        ("garbage timestamp", "bad timestamp"),
    ],
)
def test_a_refused_slack_request_is_logged_once_with_its_reason_never_its_body(
    bot: BotHarness, caplog: pytest.LogCaptureFixture, how: str, reason: str
) -> None:
    caplog.set_level(logging.WARNING)
    body = _unsigned_event()
    for _ in range(5):
        if how == "wrong secret":
            headers = sign(body, secret="not-the-secret")
        elif how == "stale":
            headers = sign(body, timestamp=int(time.time()) - 600)
        elif how == "garbage timestamp":
            headers = {**sign(body), "X-Slack-Request-Timestamp": "yesterday"}
        else:
            headers = {}
        response = bot.http.post("/slack/events", content=body, headers=headers)
        assert response.status_code == 401
    refusals = [r for r in caplog.records if "refused (401)" in r.getMessage()]
    assert [(r.levelname, r.getMessage()) for r in refusals] == [
        ("WARNING", f"Slack request refused (401): {reason}")
    ]
    assert _MARKER not in caplog.text
    assert "Traceback" not in caplog.text


def test_a_repeated_notice_says_how_many_were_held_back(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    notices = Notices(logging.getLogger("tests.notices"), interval=60, clock=lambda: now[0])
    for _ in range(4):
        notices.warning("bad signature", "refused (401): %s", "bad signature")
    notices.warning("stale timestamp", "refused (401): %s", "stale timestamp")
    now[0] = 61.0
    notices.warning("bad signature", "refused (401): %s", "bad signature")
    assert [r.getMessage() for r in caplog.records if r.name == "tests.notices"] == [
        "refused (401): bad signature",
        "refused (401): stale timestamp",
        "refused (401): bad signature (3 more like this in the last 61 s)",
    ]
