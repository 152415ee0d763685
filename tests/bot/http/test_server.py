"""HTTP mode: signature checks, bad requests, health, metrics and the `serve` process."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest
import redis

from tests.bot.conftest import BotFactory
from tests.support.llm_server import ScriptedModel
from tests.support.processes import bot_env, wait_until_healthy
from tests.support.services import REDIS_URL, free_port
from tests.support.slack_api import FakeSlackAPI
from tests.support.slack_harness import (
    BOT_TOKEN,
    METRICS_AUTH,
    SIGNING_SECRET,
    BotHarness,
    dm_channel,
    new_ts,
    sign,
)

ALICE = "U0ALICE"
TRAVEL_BOT = str(Path(sys.executable).parent / "travel-bot")
_FORM = "application/x-www-form-urlencoded"


def _dm_event_body(bot: BotHarness, text: str = "hello") -> bytes:
    ts = new_ts()
    envelope = {
        "type": "event_callback",
        "team_id": bot.team_id,
        "event_id": f"Ev{ts.replace('.', '')}",
        "event": {
            "type": "message",
            "channel_type": "im",
            "channel": dm_channel(ALICE),
            "user": ALICE,
            "text": text,
            "ts": ts,
        },
    }
    return json.dumps(envelope).encode()


def _keys(prefix: str) -> list[bytes]:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        return list(client.scan_iter(match=f"{prefix}*", count=1000))
    finally:
        client.close()


@pytest.mark.parametrize(
    "how",
    ["wrong secret", "stale timestamp", "no signature", "garbage timestamp", "tampered body"],
)
def test_a_request_without_a_valid_signature_gets_401_and_touches_nothing(
    bot: BotHarness,
    scripted_model: ScriptedModel,
    slack: FakeSlackAPI,
    bot_prefix: str,
    how: str,
) -> None:
    body = _dm_event_body(bot)
    headers = {"Content-Type": "application/json"}
    if how == "wrong secret":
        headers.update(sign(body, secret="not-the-secret"))
    elif how == "stale timestamp":
        headers.update(sign(body, timestamp=int(time.time()) - 600))
    elif how == "garbage timestamp":
        headers.update(sign(body))
        headers["X-Slack-Request-Timestamp"] = "yesterday"
    elif how == "tampered body":
        headers.update(sign(body))
        body = body.replace(b"hello", b"HELLO")
    response = bot.http.post("/slack/events", content=body, headers=headers)
    assert response.status_code == 401
    bot.drain()
    assert slack.calls == []
    assert scripted_model.requests == []
    assert _keys(bot_prefix) == []


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b"{not json", "application/json"),
        (b"[1, 2, 3]", "application/json"),
        (b"{}", "application/json"),
        (b'{"type": "event_callback"}', "application/json"),
        (b"\xff\xfe\x00garbage", "application/json"),
        (b"payload=%7Bnot-json", "application/x-www-form-urlencoded"),
        (b"", "application/x-www-form-urlencoded"),
    ],
)
def test_a_signed_but_malformed_request_gets_a_4xx(
    bot: BotHarness, slack: FakeSlackAPI, body: bytes, content_type: str
) -> None:
    response = bot.post(body, content_type)
    assert 400 <= response.status_code < 500
    assert "Traceback" not in response.text
    assert bot.http.get("/healthz").status_code == 200  # the process is fine
    assert slack.calls_to("chat.postMessage") == []


def test_an_oversized_request_is_refused_and_the_server_carries_on(
    bot: BotHarness, scripted_model: ScriptedModel
) -> None:
    huge = json.dumps({"type": "event_callback", "padding": "x" * 2_000_000}).encode()
    assert bot.post(huge, "application/json").status_code == 413
    scripted_model.script("Still here.")
    sent = bot.dm(ALICE, "are you alive?")
    assert bot.reply_text(sent) == "Still here."


def test_routes_and_methods(bot: BotHarness) -> None:
    wrong = bot.http.get("/slack/events")
    assert wrong.status_code == 405 and wrong.headers["allow"] == "POST, OPTIONS"
    asked = bot.http.options("/slack/events")  # which methods: asked, not refused
    assert asked.status_code == 204 and asked.headers["allow"] == "POST, OPTIONS"
    assert asked.content == b"" and "access-control-allow-origin" not in asked.headers
    assert bot.http.get("/nope").status_code == 404
    assert bot.http.post("/healthz").status_code == 404
    assert bot.http.post("/readyz").status_code == 404


def test_readyz_reports_redis_and_database(bot: BotHarness) -> None:
    response = bot.http.get("/readyz")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    health = response.json()
    assert health["status"] == "ready"
    assert health["redis"] is True
    assert health["database"] is True
    assert health["llm_configured"] is True
    assert bot.http.get("/healthz").json()["status"] == "alive"


def test_with_the_database_down_the_process_is_alive_but_not_ready(make_bot: BotFactory) -> None:
    bot = make_bot(
        memory_dsn="postgresql://postgres@127.0.0.1:1/test?connect_timeout=1",
        redis_url="redis://127.0.0.1:1/0",
        llm_model="",
    )
    started = time.monotonic()
    alive = bot.http.get("/healthz")
    assert alive.status_code == 200  # no restart: the process itself is fine
    assert alive.json()["status"] == "alive"
    ready = bot.http.get("/readyz")
    assert time.monotonic() - started < 5
    assert ready.status_code == 503  # a load balancer sends its traffic elsewhere
    health = ready.json()
    assert health["status"] == "unready"
    assert health["redis"] is False
    assert health["database"] is False
    assert health["llm_configured"] is False


def test_once_shutting_down_it_is_not_ready_but_still_alive(bot: BotHarness) -> None:
    bot.web.close()
    assert bot.http.get("/readyz").status_code == 503
    assert bot.http.get("/readyz").json()["status"] == "shutting_down"
    assert bot.http.get("/healthz").status_code == 200
    assert bot.http.get("/healthz").json()["status"] == "shutting_down"


def test_with_only_redis_down_the_process_is_ready_but_degraded(make_bot: BotFactory) -> None:
    bot = make_bot(redis_url="redis://127.0.0.1:1/0")
    ready = bot.http.get("/readyz")
    assert ready.status_code == 200  # it still answers people, without the cache
    assert ready.json()["status"] == "degraded"
    assert ready.json()["redis"] is False and ready.json()["database"] is True


def test_metrics_count_events_turns_tools_cache_and_llm(
    bot: BotHarness, scripted_model: ScriptedModel
) -> None:
    scripted_model.script(
        [("record_to_memory", {"thinking": "pref", "content": ["I prefer aisle seats"]})],
        "Noted.",
        [("retrieve_from_memory", {"keywords": ["seat"]})],
        "Aisle it is.",
        [("retrieve_from_memory", {"keywords": ["seat"]})],
        "Aisle again.",
    )
    for text in ("I prefer aisle seats", "book me a seat", "and the way back?"):
        bot.reply_text(bot.dm(ALICE, text))
    bot.drain()

    response = bot.http.get("/metrics", headers=METRICS_AUTH)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    samples = _samples(response.text)
    assert samples['slack_events_total{type="message"}'] == 3
    assert samples["agent_turns_total"] == 3
    assert samples['tool_calls_total{tool="record_to_memory"}'] == 1
    assert samples['tool_calls_total{tool="retrieve_from_memory"}'] == 2
    assert samples["memory_cache_hits_total"] >= 1
    assert samples["memory_cache_misses_total"] >= 1
    assert samples["llm_request_seconds_count"] == 6
    assert samples['llm_tokens_total{kind="prompt"}'] > 0
    assert samples['slack_replies_total{outcome="ok"}'] == 3
    assert "# TYPE slack_events_total counter" in response.text


def _samples(text: str) -> dict[str, float]:
    samples: dict[str, float] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            samples[name] = float(value)
    return samples


# -- the `travel-bot` processes -----------------------------------------------------------


def test_travel_bot_serve_answers_slack_over_http(
    tmp_path: Path, bot_prefix: str, slack: FakeSlackAPI, scripted_model: ScriptedModel
) -> None:
    port = free_port()
    env = bot_env(
        tmp_path,
        bot_prefix,
        PORT=str(port),
        WEB_HOST="127.0.0.1",
        SLACK_BOT_TOKEN=BOT_TOKEN,
        SLACK_SIGNING_SECRET=SIGNING_SECRET,
        SLACK_API_URL=slack.base_url,
        OPENAI_BASE_URL=scripted_model.base_url,
        OPENAI_API_KEY="test-key",
        LLM_MODEL="scripted-model",
    )
    scripted_model.script("Hello from the served bot.")
    process = subprocess.Popen(
        [TRAVEL_BOT, "run"],  # `run` picks HTTP mode from the token and signing secret
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_healthy(
            process, base, lambda: process.stdout.read().decode() if process.stdout else ""
        )
        ts = new_ts()
        event = {
            "type": "event_callback",
            "team_id": slack.team_id,
            "event_id": "EvSERVE1",
            "event": {
                "type": "message",
                "channel_type": "im",
                "channel": "D0ALICE",
                "user": ALICE,
                "text": "hello",
                "ts": ts,
            },
        }
        body = json.dumps(event).encode()
        headers: dict[str, Any] = {"Content-Type": "application/json", **sign(body)}
        response = httpx.post(f"{base}/slack/events", content=body, headers=headers)
        assert response.status_code == 200
        [reply] = slack.wait_shown("D0ALICE", ts, timeout=30)
        assert reply["text"] == "Hello from the served bot."
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
    assert process.returncode == 0
    output = process.stdout.read().decode() if process.stdout else ""
    assert "travel-bot: HTTP mode" in output
    # A correct set-up starts without a warning (Bolt's "`token` will be unused" included).
    assert not [line for line in output.splitlines() if "WARNING" in line], output


def test_serve_without_a_signing_secret_refuses_to_start(tmp_path: Path, bot_prefix: str) -> None:
    env = bot_env(tmp_path, bot_prefix, SLACK_BOT_TOKEN=BOT_TOKEN)
    done = subprocess.run(
        [TRAVEL_BOT, "serve"], cwd=tmp_path, env=env, capture_output=True, timeout=60
    )
    assert done.returncode == 2
    assert b"SLACK_SIGNING_SECRET" in done.stderr


def test_run_without_slack_credentials_starts_the_console(tmp_path: Path, bot_prefix: str) -> None:
    env = bot_env(tmp_path, bot_prefix)
    done = subprocess.run(
        [TRAVEL_BOT, "run"],
        cwd=tmp_path,
        env=env,
        input=b"/quit\n",
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert b"terminal console" in done.stderr
    assert b"LLM_MODEL" in done.stdout  # the console says what to set


_MARKER = "passport-E12345678"  # must never reach the logs


def _json(**fields: Any) -> tuple[bytes, str]:
    return json.dumps({**fields, "note": _MARKER}).encode(), "application/json"


def _payload(**fields: Any) -> tuple[bytes, str]:
    payload = json.dumps({**fields, "note": _MARKER})
    return urlencode({"payload": payload}).encode(), _FORM


def _form(**fields: str) -> tuple[bytes, str]:
    return urlencode({**fields, "note": _MARKER}).encode(), _FORM


@pytest.mark.parametrize(
    "request_body",
    [
        _json(type="event_callback", event=[1]),
        _json(type="event_callback", event="message"),
        _json(type="event_callback", event={"type": 5}),
        _json(type="event_callback", event={"type": "message"}, event_id=[1]),
        _json(type="event_callback", event={"type": "message"}, team_id={"id": "T"}),
        _json(type="url_verification"),
        _json(type=5),
        _json(hello="world"),
        _payload(type="block_actions", actions="x"),
        _payload(type="block_actions", actions=[1], user="x"),
        _payload(type="view_submission", view={"callback_id": 5}),
        _payload(type="view_submission", view=[1]),
        _payload(type="shortcut", user=[1]),
        _payload(no_type=1),
        _form(command="/travel-prefs"),  # no team or user
        (b"command=/travel-prefs&command=/x&team_id=T&user_id=U", _FORM),
        _form(foo="bar"),
    ],
)
def test_a_signed_body_of_the_wrong_shape_gets_a_4xx_and_the_server_carries_on(
    bot: BotHarness,
    scripted_model: ScriptedModel,
    slack: FakeSlackAPI,
    caplog: pytest.LogCaptureFixture,
    request_body: tuple[bytes, str],
) -> None:
    body, content_type = request_body
    response = bot.post(body, content_type)
    assert 400 <= response.status_code < 500, response.text
    assert "Traceback" not in response.text
    assert slack.calls_to("chat.postMessage") == []
    # The process keeps serving people, and the body never reached the logs.
    scripted_model.script("Still here.")
    sent = bot.dm(ALICE, "are you alive?")
    assert bot.reply_text(sent) == "Still here."
    assert bot.http.get("/healthz").status_code == 200
    assert _MARKER not in caplog.text


def test_a_malformed_request_gets_a_short_json_error(bot: BotHarness) -> None:
    response = bot.post(b'{"type": "event_callback", "event": [1]}', "application/json")
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("application/json")
    assert response.json() == {"ok": False, "error": "malformed_request"}
