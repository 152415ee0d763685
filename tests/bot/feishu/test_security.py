"""Attacks on `POST /feishu/events` with callbacks Feishu really sealed and signed: sent
again a month later, a captured card click replayed, JSON nested to exhaust the stack;
and *Forget everything* ending the person's links to the preferences page."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping
from typing import Any

import httpx
import pytest

from bot import compose
from bot.prefs.links import issue_token
from tests.bot.feishu.conftest import FeishuFactory
from tests.support import feishu_events as events
from tests.support.feishu_api import FakeFeishuAPI
from tests.support.feishu_harness import (
    ENCRYPT_KEY,
    TENANT,
    VERIFICATION_TOKEN,
    FeishuHarness,
    buttons_of,
    card_text,
)
from tests.support.llm_server import ScriptedModel

ALICE = "ou_alice"
DAY = 86400
PAGE_SECRET = "feishu-page-secret-7a3e91"


def sealed_and_signed(
    body: Mapping[str, Any], *, at: float | None = None
) -> tuple[bytes, dict[str, str]]:
    """A callback as Feishu sends it: the raw bytes and the headers, captured once."""
    raw = json.dumps(events.seal(dict(body), ENCRYPT_KEY)).encode()
    stamp = str(int(time.time() if at is None else at))
    headers = {
        "Content-Type": "application/json",
        **events.signed(raw, ENCRYPT_KEY, timestamp=stamp),
    }
    return raw, headers


def send(feishu: FeishuHarness, raw: bytes, headers: Mapping[str, str]) -> httpx.Response:
    return feishu.http.post("/feishu/events", content=raw, headers=dict(headers))


@pytest.mark.parametrize(
    ("age", "status"),
    [(30 * DAY, 401), (3601 + 60, 401), (3000, 200), (-60, 200), (-600, 401)],
    ids=["a-month-old", "over-an-hour", "within-the-hour", "a-minute-ahead", "ten-minutes-ahead"],
)
def test_a_callback_signed_long_ago_or_far_ahead_is_refused(
    feishu: FeishuHarness,
    fake_feishu: FakeFeishuAPI,
    scripted_model: ScriptedModel,
    caplog: pytest.LogCaptureFixture,
    age: int,
    status: int,
) -> None:
    caplog.set_level(logging.WARNING)
    menu = events.menu_event(
        token=VERIFICATION_TOKEN, tenant=TENANT, operator=ALICE, key="travel_prefs"
    )
    raw, headers = sealed_and_signed(menu, at=time.time() - age)
    assert send(feishu, raw, headers).status_code == status
    feishu.drain()
    sent = fake_feishu.sent_to(ALICE)
    if status == 401:
        assert sent == []
        assert "Feishu callback refused (401): stale timestamp" in caplog.text
        assert feishu.core.metrics.value("http_rejected_total", reason="stale") == 1
    else:
        assert len(sent) == 1  # the preferences card, sent to Alice


def test_without_an_encrypt_key_a_stale_timestamp_is_refused_too(
    make_feishu: FeishuFactory, fake_feishu: FakeFeishuAPI
) -> None:
    feishu = make_feishu(feishu_encrypt_key=None)
    menu = events.menu_event(
        token=VERIFICATION_TOKEN, tenant=TENANT, operator=ALICE, key="travel_prefs"
    )
    stale = {"X-Lark-Request-Timestamp": str(int(time.time()) - 2 * DAY)}
    assert feishu.post(menu, headers=stale).status_code == 401
    fresh = {"X-Lark-Request-Timestamp": str(int(time.time()))}
    assert feishu.post(menu, headers=fresh).status_code == 200
    # The URL challenge is unsigned and carries no timestamp: still answered.
    challenge = events.url_verification(token=VERIFICATION_TOKEN, challenge="c-1")
    assert feishu.post(challenge, sign=False).json() == {"challenge": "c-1"}


def test_a_captured_forget_all_click_sent_again_later_does_nothing(
    feishu: FeishuHarness, fake_feishu: FakeFeishuAPI
) -> None:
    memory, alice = feishu.core.memory, feishu.namespace(ALICE)
    memory.record(alice, ["I prefer aisle seats"])
    [card] = feishu.replies(feishu.dm(ALICE, "/travel-prefs"))
    forget = buttons_of(card["content"])["Forget everything"]["value"]
    prompt = feishu.click(ALICE, forget, message_id=card["message_id"]).json()["card"]["data"]
    yes = buttons_of(prompt)["Yes, forget everything"]["value"]

    click = events.card_action(
        token=VERIFICATION_TOKEN, tenant=TENANT, operator=ALICE, value=yes, message_id="om_1"
    )
    raw, headers = sealed_and_signed(click)  # what an eavesdropper keeps
    done = send(feishu, raw, headers)
    assert "I forgot 1 item" in card_text(done.json()["card"]["data"])
    assert memory.items(alice) == []

    memory.record(alice, ["I never take red-eye flights"])  # told since
    replayed = send(feishu, raw, headers)  # the same bytes, still within the hour
    assert replayed.status_code == 200 and replayed.json() == {}
    assert [i.text for i in memory.items(alice)] == ["I never take red-eye flights"]
    assert feishu.core.metrics.value("feishu_events_duplicate_total", type="card") == 1

    # The same click re-sealed (another nonce, the same event id and action token) too.
    raw_again, headers_again = sealed_and_signed(click)
    assert send(feishu, raw_again, headers_again).json() == {}
    assert len(memory.items(alice)) == 1


@pytest.mark.parametrize(
    "plain",
    [b"[" * 1000 + b"]" * 1000, b'{"a":' * 5000 + b"1" + b"}" * 5000],
    ids=["array-1000", "object-5000"],
)
def test_deeply_nested_json_is_a_400_without_a_traceback(
    feishu: FeishuHarness, caplog: pytest.LogCaptureFixture, plain: bytes
) -> None:
    caplog.set_level(logging.INFO)
    headers = {"Content-Type": "application/json", **events.signed(plain, ENCRYPT_KEY)}
    assert send(feishu, plain, headers).status_code == 400
    # Sealed for this app, the same nesting inside: 400 as well.
    raw = json.dumps(events.seal_raw(plain, ENCRYPT_KEY)).encode()
    headers = {"Content-Type": "application/json", **events.signed(raw, ENCRYPT_KEY)}
    assert send(feishu, raw, headers).status_code == 400
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


def test_forget_everything_on_a_card_ends_the_persons_page_links(
    make_feishu: FeishuFactory, fake_feishu: FakeFeishuAPI
) -> None:
    feishu = make_feishu(prefs_link_secret=PAGE_SECRET, public_url="http://travel.example")
    assert compose.mount_prefs_site(feishu.web, feishu.settings, feishu.core)
    alice = feishu.namespace(ALICE)
    feishu.core.memory.record(alice, ["I prefer aisle seats"])
    token = issue_token(PAGE_SECRET, alice, ttl_seconds=900)
    bearer = {"Authorization": f"Bearer {token}"}
    assert feishu.http.get("/api/preferences", headers=bearer).status_code == 200

    [card] = feishu.replies(feishu.dm(ALICE, "/travel-prefs"))
    forget = buttons_of(card["content"])["Forget everything"]["value"]
    prompt = feishu.click(ALICE, forget, message_id=card["message_id"]).json()["card"]["data"]
    feishu.click(ALICE, buttons_of(prompt)["Yes, forget everything"]["value"], message_id="om_1")
    assert feishu.core.memory.items(alice) == []
    assert feishu.http.get("/api/preferences", headers=bearer).status_code == 401
