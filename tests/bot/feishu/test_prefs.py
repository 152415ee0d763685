"""A person's preferences in Feishu: the card, *Edit*, *Forget all* (asked first, owner only)."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from bot.messages import t
from bot.prefs.links import read_token
from tests.bot.feishu.conftest import FeishuFactory
from tests.support import feishu_events as events
from tests.support.feishu_api import FakeFeishuAPI
from tests.support.feishu_harness import (
    TENANT,
    VERIFICATION_TOKEN,
    FeishuHarness,
    buttons_of,
    card_text,
)
from tests.support.llm_server import ScriptedModel
from tests.support.stored import store_unchecked

ALICE, BOB = "ou_alice", "ou_bob"


def test_the_command_shows_what_is_remembered_inert_with_forget_and_no_edit_without_a_page(
    feishu: FeishuHarness, fake_feishu: FakeFeishuAPI
) -> None:
    feishu.core.memory.record(feishu.namespace(ALICE), ["I prefer aisle seats"])
    # The guard refuses links now; this one was kept by an earlier version.
    store_unchecked(
        feishu.core.memory,
        feishu.namespace(ALICE),
        ["Hotels near <at id=all></at> [the venue](https://evil.test)"],
    )
    sent = feishu.dm(ALICE, "/travel-prefs")
    [reply] = feishu.replies(sent)
    shown = card_text(reply["content"])
    assert "aisle seats" in shown and "(2 items)" in shown
    assert "<at id=all>" not in shown and "[the venue]" not in shown
    assert "I never store ID or passport numbers" in shown
    assert list(buttons_of(reply["content"])) == ["Forget everything"]


def test_edit_opens_the_page_the_link_provider_names(
    make_feishu: FeishuFactory, fake_feishu: FakeFeishuAPI
) -> None:
    asked: list[tuple[str, str]] = []

    def link(namespace: str, lang: str) -> str | None:
        asked.append((namespace, lang))
        return f"https://prefs.example/p?ns={namespace}&lang={lang}"

    bot = make_feishu(prefs_link=link)
    sent = bot.dm(ALICE, "我的偏好")
    [reply] = bot.replies(sent)
    edit = buttons_of(reply["content"])["编辑偏好"]
    assert edit == {
        "type": "open_url",
        "default_url": f"https://prefs.example/p?ns=feishu:{TENANT}:{ALICE}&lang=zh",
    }
    assert asked == [(f"feishu:{TENANT}:{ALICE}", "zh")]
    assert "全部删除" not in buttons_of(reply["content"])  # nothing remembered yet


def test_with_the_web_page_configured_edit_opens_the_persons_own_page(
    make_feishu: FeishuFactory,
) -> None:
    secret = "a-long-enough-secret-for-links"
    bot = make_feishu(public_url="https://travel.example", prefs_link_secret=secret)
    sent = bot.dm(ALICE, "/travel-prefs")
    [reply] = bot.replies(sent)
    edit = buttons_of(reply["content"])["Edit preferences"]
    url = edit["default_url"]
    assert url.startswith("https://travel.example/prefs?token=")
    claims = read_token(secret, parse_qs(urlsplit(url).query)["token"][0])
    assert claims is not None
    assert (claims.namespace, claims.lang) == (f"feishu:{TENANT}:{ALICE}", "en")


def test_in_a_group_the_card_goes_to_the_person_alone(
    feishu: FeishuHarness, fake_feishu: FakeFeishuAPI
) -> None:
    feishu.core.memory.record(feishu.namespace(BOB), ["出差只坐高铁一等座"])
    sent = feishu.group(BOB, "偏好设置")
    assert feishu.post(sent.body).status_code == 200  # a resent event: one card
    [notice] = feishu.replies(sent)
    assert "私聊" in card_text(notice["content"])
    fake_feishu.wait_for("send", ok=True)
    feishu.drain()
    [card] = fake_feishu.sent_to(BOB)
    assert "高铁一等座" in card_text(card["content"])
    assert "高铁一等座" not in card_text(notice["content"])


def test_forget_all_asks_first_and_only_the_owner_may_answer(
    feishu: FeishuHarness, fake_feishu: FakeFeishuAPI
) -> None:
    alice = feishu.namespace(ALICE)
    feishu.core.memory.record(alice, ["I prefer aisle seats", "I never take red-eye flights"])
    [card] = feishu.replies(feishu.dm(ALICE, "/travel-prefs"))
    forget = buttons_of(card["content"])["Forget everything"]["value"]

    asked = feishu.click(ALICE, forget, message_id=card["message_id"]).json()
    prompt = asked["card"]["data"]
    assert "Forget everything I remember" in card_text(prompt) and "(2 items)" in card_text(prompt)
    choices = buttons_of(prompt)
    assert len(feishu.core.memory.items(alice)) == 2  # nothing forgotten by asking

    refused = feishu.click(BOB, choices["Yes, forget everything"]["value"], message_id="om_x")
    assert refused.json()["toast"]["type"] == "error"
    assert "belongs to someone else" in refused.json()["toast"]["content"]
    assert len(feishu.core.memory.items(alice)) == 2

    kept = feishu.click(ALICE, choices["Cancel"]["value"], message_id=card["message_id"]).json()
    assert "didn't forget anything" in card_text(kept["card"]["data"])
    assert len(feishu.core.memory.items(alice)) == 2

    done = feishu.click(
        ALICE, choices["Yes, forget everything"]["value"], message_id=card["message_id"]
    ).json()
    assert "I forgot 2 items" in card_text(done["card"]["data"])
    assert feishu.core.memory.items(alice) == []


def test_a_slow_button_is_answered_at_once_and_its_card_updated_when_done(
    feishu: FeishuHarness, fake_feishu: FakeFeishuAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = feishu.namespace(ALICE)
    memory = feishu.core.memory
    memory.record(alice, ["I prefer aisle seats"])
    [card] = feishu.replies(feishu.dm(ALICE, "/travel-prefs"))
    forget = buttons_of(card["content"])["Forget everything"]["value"]
    items = memory.items

    def slow_items(namespace: str) -> Any:  # memory takes longer than the callback waits
        time.sleep(1.0)
        return items(namespace)

    monkeypatch.setattr(memory, "items", slow_items)
    feishu.feishu.answer_within = 0.2
    started = time.monotonic()
    response = feishu.click(ALICE, forget, message_id=card["message_id"])
    assert time.monotonic() - started < 3.0
    assert response.json() == {"toast": {"type": "info", "content": "Working on it…"}}
    [patch] = fake_feishu.wait_for("patch", ok=True)
    assert patch.params["id"] == card["message_id"]
    updated = fake_feishu.messages[card["message_id"]]["content"]
    assert "Forget everything I remember" in card_text(updated)


def test_a_button_this_version_does_not_know_changes_nothing(feishu: FeishuHarness) -> None:
    response = feishu.click(ALICE, {"a": "prefs.rename", "l": "zh"}, message_id="om_old")
    assert response.status_code == 200
    assert "这个按钮已不再使用" in response.json()["toast"]["content"]


def test_the_bot_menu_sends_the_card_directly(
    feishu: FeishuHarness, fake_feishu: FakeFeishuAPI
) -> None:
    feishu.core.memory.record(feishu.namespace(ALICE), ["I prefer aisle seats"])
    menu: dict[str, Any] = events.menu_event(
        token=VERIFICATION_TOKEN, tenant=TENANT, operator=ALICE, key="travel_prefs"
    )
    assert feishu.post(menu).status_code == 200
    assert feishu.post(menu).status_code == 200  # resent: one card
    other = events.menu_event(token=VERIFICATION_TOKEN, tenant=TENANT, operator=ALICE, key="help")
    assert feishu.post(other).status_code == 200
    fake_feishu.wait_for("send", ok=True)
    feishu.drain()
    [card] = fake_feishu.sent_to(ALICE)
    assert "aisle seats" in card_text(card["content"])


def test_the_menus_card_lost_in_transport_is_sent_again_and_shown_once(
    feishu: FeishuHarness, fake_feishu: FakeFeishuAPI
) -> None:
    """Feishu takes the card, then the connection resets before it answers: the bot
    cannot know, and sends it again with the same uuid; Alice sees one card."""
    feishu.core.memory.record(feishu.namespace(ALICE), ["I prefer aisle seats"])
    fake_feishu.take_then_reset("send")
    menu = events.menu_event(
        token=VERIFICATION_TOKEN, tenant=TENANT, operator=ALICE, key="travel_prefs"
    )
    assert feishu.post(menu).status_code == 200
    fake_feishu.wait_for("send", ok=True)
    feishu.drain()
    sends = fake_feishu.calls_to("send")
    assert len(sends) == 2 and sends[0].body["uuid"] == sends[1].body["uuid"]
    [card] = fake_feishu.sent_to(ALICE)
    assert "aisle seats" in card_text(card["content"])


# Feishu's documented answers when the preferences card cannot be sent (im/v1/messages):
# 230013 "Bot has NO availability to this user", 230099 "Failed to create card content".
NO_AVAILABILITY = (230013, "Bot has NO availability to this user.")
CARD_REFUSED = (230099, "Failed to create card content, ext=ErrCode: 200621")


def _menu() -> dict[str, Any]:
    return events.menu_event(
        token=VERIFICATION_TOKEN, tenant=TENANT, operator=ALICE, key="travel_prefs"
    )


def test_the_menus_card_refused_by_feishu_is_explained_in_a_plain_message(
    feishu: FeishuHarness, fake_feishu: FakeFeishuAPI
) -> None:
    """Feishu refuses the card itself: Alice pressed the menu and gets a text saying the
    card could not be shown and what to do, instead of nothing."""
    feishu.core.memory.record(feishu.namespace(ALICE), ["I prefer aisle seats"])
    told = _menu_card_refused(feishu, fake_feishu)
    assert told["msg_type"] == "text"
    assert "couldn't show your travel preferences card" in told["content"]["text"]
    assert "230099" in told["content"]["text"] and "/travel-prefs" in told["content"]["text"]
    metrics = feishu.core.metrics
    assert metrics.value("feishu_prefs_undelivered_total", reason="failed") == 1


def test_the_menus_card_to_a_person_the_bot_may_not_message_is_counted_not_retold(
    feishu: FeishuHarness, fake_feishu: FakeFeishuAPI
) -> None:
    """230013: no message can reach Alice one-to-one, and a menu event takes no answer, so
    nothing can tell her: the bot does not send into the same refusal again, and counts it
    for an admin (the log says to add her to the app's availability)."""
    fake_feishu.fail("send", *NO_AVAILABILITY, times=2)
    assert feishu.post(_menu()).status_code == 200
    fake_feishu.wait_for("send")
    feishu.drain()
    assert len(fake_feishu.calls_to("send")) == 1
    assert fake_feishu.sent_to(ALICE) == []
    metrics = feishu.core.metrics
    assert metrics.value("feishu_prefs_undelivered_total", reason="unreachable") == 1


def test_in_a_group_a_person_the_bot_may_not_message_hears_why_in_the_thread(
    feishu: FeishuHarness, fake_feishu: FakeFeishuAPI
) -> None:
    """Bob asks in a group, in Chinese; the card to him one-to-one gets 230013: the group
    thread tells him, in Chinese, why he got nothing and what fixes it (as DingTalk tells
    the group when its one-to-one message fails), never that it was sent."""
    feishu.core.memory.record(feishu.namespace(BOB), ["出差只坐高铁一等座"])
    fake_feishu.fail("send", *NO_AVAILABILITY)
    sent = feishu.group(BOB, "偏好设置")
    [notice] = feishu.replies(sent)
    feishu.drain()
    assert notice["msg_type"] == "text"
    assert "无法通过单聊" in notice["content"]["text"] and "可用范围" in notice["content"]["text"]
    assert "高铁一等座" not in str(notice["content"])
    assert fake_feishu.sent_to(BOB) == []
    assert len(feishu.replies(sent)) == 1  # no "sent to you privately" note


def test_the_menus_card_still_rate_limited_after_waiting_is_explained_in_the_persons_language(
    make_feishu: FeishuFactory, fake_feishu: FakeFeishuAPI
) -> None:
    """230020 (one chat's frequency limit) answered until the bot's patience (30 s of
    Feishu's `x-ogw-ratelimit-reset`) runs out: Alice is told, in Chinese, that Feishu is
    limiting messages and to try again in a minute. The waits are counted, not slept."""
    feishu = make_feishu(default_language="zh")
    feishu.feishu.api._sleep = lambda seconds: None  # the waits still count against patience
    fake_feishu.rate_limit("send", times=4, code=230020, reset=10)
    assert feishu.post(_menu()).status_code == 200
    fake_feishu.wait_for("send", ok=True)
    feishu.drain()
    [told] = fake_feishu.sent_to(ALICE)
    assert told["msg_type"] == "text" and "请一分钟后再试" in told["content"]["text"]
    assert len(fake_feishu.calls_to("send")) == 5  # four limited tries of the card, the notice
    metrics = feishu.core.metrics
    assert metrics.value("feishu_prefs_undelivered_total", reason="busy") == 1


def test_the_menus_card_that_never_reached_feishu_is_explained_without_a_code(
    feishu: FeishuHarness, fake_feishu: FakeFeishuAPI
) -> None:
    """Feishu cannot be reached for the card (refused twice: nothing was sent); it can be
    again for the notice: Alice reads that Feishu could not be reached, not "code None"."""
    feishu.core.memory.record(feishu.namespace(ALICE), ["I prefer aisle seats"])
    waits: list[float] = []

    def wait(seconds: float) -> None:  # the retries' waits: Feishu is back for the notice
        waits.append(seconds)
        if len(waits) == 2:
            fake_feishu.accept_connections()

    feishu.feishu.api._sleep = wait
    fake_feishu.refuse_connections()
    assert feishu.post(_menu()).status_code == 200
    fake_feishu.wait_for("send", ok=True)
    feishu.drain()
    [told] = fake_feishu.sent_to(ALICE)
    assert told["content"]["text"] == t("feishu_prefs_not_reached", "en")
    assert "None" not in told["content"]["text"]
    metrics = feishu.core.metrics
    assert metrics.value("feishu_prefs_undelivered_total", reason="failed") == 1


def test_the_menus_card_refused_is_explained_in_the_language_she_last_wrote_in(
    feishu: FeishuHarness, fake_feishu: FakeFeishuAPI
) -> None:
    """A menu event carries no locale. Alice last wrote to the bot in Chinese (and
    DEFAULT_LANGUAGE is English): when Feishu refuses her menu's card, she is told why
    in Chinese."""
    feishu.replies(feishu.dm(ALICE, "我的偏好"))  # answered in Chinese
    told = _menu_card_refused(feishu, fake_feishu)
    assert told["content"]["text"] == t("feishu_prefs_failed", "zh", code=CARD_REFUSED[0])


def test_the_menus_card_refused_is_explained_in_the_language_of_what_she_keeps(
    feishu: FeishuHarness, fake_feishu: FakeFeishuAPI
) -> None:
    """No message of hers seen lately, but what the bot remembers of her is in Chinese:
    when Feishu refuses her menu's card, she is told why in Chinese."""
    feishu.core.memory.record(feishu.namespace(ALICE), ["出差只坐高铁一等座"])
    told = _menu_card_refused(feishu, fake_feishu)
    assert told["content"]["text"] == t("feishu_prefs_failed", "zh", code=CARD_REFUSED[0])


def test_her_last_message_outweighs_the_language_of_what_she_keeps(
    make_feishu: FeishuFactory, fake_feishu: FakeFeishuAPI
) -> None:
    """What the bot remembers of Alice is in Chinese, but she last wrote in English (and
    DEFAULT_LANGUAGE is Chinese): her menu's failure is told in English, as she last read."""
    feishu = make_feishu(default_language="zh")
    feishu.core.memory.record(feishu.namespace(ALICE), ["出差只坐高铁一等座"])
    feishu.replies(feishu.dm(ALICE, "/travel-prefs please"))
    told = _menu_card_refused(feishu, fake_feishu)
    assert told["content"]["text"] == t("feishu_prefs_failed", "en", code=CARD_REFUSED[0])


def test_a_flight_number_says_nothing_of_her_language_so_the_menu_stays_chinese(
    feishu: FeishuHarness, fake_feishu: FakeFeishuAPI, scripted_model: ScriptedModel
) -> None:
    """Alice writes in Chinese, then sends only a flight number ("MU5101": no language
    in it; DEFAULT_LANGUAGE is English): her menu's failure is still told in Chinese."""
    feishu.replies(feishu.dm(ALICE, "我的偏好"))
    scripted_model.script("好的。")
    feishu.replies(feishu.dm(ALICE, "MU5101"))  # its language noted before the turn began
    fake_feishu.fail("send", *CARD_REFUSED)
    assert feishu.post(_menu()).status_code == 200
    feishu.drain()
    [told] = fake_feishu.sent_to(ALICE)
    assert told["content"]["text"] == t("feishu_prefs_failed", "zh", code=CARD_REFUSED[0])


def _menu_card_refused(feishu: FeishuHarness, fake_feishu: FakeFeishuAPI) -> dict[str, Any]:
    """Alice taps the menu and Feishu refuses its card: the one message she is sent then."""
    fake_feishu.fail("send", *CARD_REFUSED)
    assert feishu.post(_menu()).status_code == 200
    fake_feishu.wait_for("send", ok=True)
    feishu.drain()
    [told] = fake_feishu.sent_to(ALICE)
    return told
