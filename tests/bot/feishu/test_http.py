"""`POST /feishu/events`: only what Feishu sealed and signed for this app gets in."""

from __future__ import annotations

import json
import logging
import time

import pytest

from tests.bot.feishu.conftest import FeishuFactory
from tests.support import feishu_events as events
from tests.support.feishu_api import FakeFeishuAPI
from tests.support.feishu_harness import ENCRYPT_KEY, VERIFICATION_TOKEN, FeishuHarness
from tests.support.llm_server import ScriptedModel
from tests.support.slack_harness import METRICS_AUTH


def test_the_url_challenge_is_answered_sealed_or_plain_with_the_right_token(
    feishu: FeishuHarness,
) -> None:
    body = events.url_verification(token=VERIFICATION_TOKEN, challenge="c-123")
    for sealed in (True, False):
        response = feishu.post(body, sealed=sealed, sign=False)
        assert response.status_code == 200
        assert response.json() == {"challenge": "c-123"}
    wrong = events.url_verification(token="not-ours", challenge="c-123")
    assert feishu.post(wrong, sign=False).status_code == 401


def test_unsigned_badly_signed_or_foreign_callbacks_are_refused(
    feishu: FeishuHarness, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    body = feishu.message("ou_alice", "plan my trip")
    assert feishu.post(body, sign=False).status_code == 401
    forged = {"X-Lark-Signature": "0" * 64}
    assert feishu.post(body, headers=forged).status_code == 401
    other_token = feishu.message("ou_alice", "plan my trip")
    other_token["header"]["token"] = "someone-elses"
    assert feishu.post(other_token).status_code == 401
    # Sealed with another key: cannot be opened, so it was not meant for this app.
    raw = json.dumps(events.seal(body, "another-key")).encode()
    headers = {"Content-Type": "application/json", **events.signed(raw, ENCRYPT_KEY)}
    assert feishu.http.post("/feishu/events", content=raw, headers=headers).status_code == 401
    feishu.drain()
    assert scripted_model.requests == []
    assert fake_feishu.calls_to("reply") == []


def test_malformed_and_oversized_bodies_get_a_clear_status(feishu: FeishuHarness) -> None:
    for raw in (b"not json", b"[]", b"{}", json.dumps({"encrypt": 42}).encode()):
        headers = {"Content-Type": "application/json", **events.signed(raw, ENCRYPT_KEY)}
        response = feishu.http.post("/feishu/events", content=raw, headers=headers)
        assert response.status_code in (400, 401), raw
    big = json.dumps({"padding": "x" * 2_000_000}).encode()
    response = feishu.http.post("/feishu/events", content=big)
    assert response.status_code == 413
    assert feishu.http.get("/feishu/events").status_code == 405


def test_refused_callbacks_are_logged_once_per_reason_without_their_text(
    feishu: FeishuHarness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    body = feishu.message("ou_alice", "passport-E12345678")
    for _ in range(3):
        assert feishu.post(body, sign=False).status_code == 401
    other_token = feishu.message("ou_alice", "passport-E12345678")
    other_token["header"]["token"] = "someone-elses"
    assert feishu.post(other_token).status_code == 401
    refusals = [r.getMessage() for r in caplog.records if "refused (401)" in r.getMessage()]
    assert refusals == [
        "Feishu callback refused (401): bad or missing signature",
        "Feishu callback refused (401): wrong or missing verification token",
    ]
    assert "passport-E12345678" not in caplog.text


def test_authentic_but_unreadable_events_are_acknowledged_counted_and_never_answered(
    feishu: FeishuHarness, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    broken = feishu.message("ou_alice", "hello")
    broken["event"]["message"]["mentions"] = "not a list"  # the SDK's model cannot read it
    assert feishu.post(broken).status_code == 200  # Feishu would only send it again
    deadline = time.monotonic() + 10
    counted = 'feishu_events_ignored_total{type="unreadable"} 1'
    while counted not in feishu.http.get("/metrics", headers=METRICS_AUTH).text:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    # A card callback's answer is the card: one the SDK cannot read is a 400.
    click = events.card_action(
        token=VERIFICATION_TOKEN, tenant="tk", operator="ou_alice", value={}, message_id="om_1"
    )
    click["event"]["action"]["options"] = "not a list"
    assert feishu.post(click).status_code == 400
    feishu.drain()
    assert scripted_model.requests == []
    assert fake_feishu.calls_to("reply") == []


def test_events_the_bot_does_not_handle_are_acknowledged_and_ignored(
    feishu: FeishuHarness,
) -> None:
    body = feishu.message("ou_alice", "x")
    body["header"]["event_type"] = "contact.user.updated_v3"
    response = feishu.post(body)
    assert response.status_code == 200
    read = feishu.message("ou_alice", "x")
    read["header"]["event_type"] = "im.message.message_read_v1"
    assert feishu.post(read).status_code == 200


def test_without_an_encrypt_key_plain_bodies_are_checked_by_their_token(
    make_feishu: FeishuFactory, scripted_model: ScriptedModel
) -> None:
    bot = make_feishu(feishu_encrypt_key=None)
    scripted_model.script("Bon voyage!")
    sent = bot.dm("ou_alice", "I'm off to Lyon tomorrow")
    assert sent.response.status_code == 200
    assert "Bon voyage!" in bot.reply_text(sent)
    stranger = bot.message("ou_alice", "hi")
    stranger["header"]["token"] = "guess"
    assert bot.post(stranger).status_code == 401
    # A sealed body with no key to open it is refused, and the log says why.
    assert bot.post(bot.message("ou_alice", "hi"), sealed=True).status_code == 400
