"""The Feishu channel end to end: sealed callbacks in, open API calls and memory out."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from bot.messages import t
from tests.bot.feishu.conftest import FeishuFactory
from tests.support.feishu_api import FakeFeishuAPI
from tests.support.feishu_harness import GROUP, TENANT, FeishuHarness, buttons_of, card_text
from tests.support.llm_server import Delay, Fail, ScriptedModel
from tests.support.services import free_port

ALICE, BOB = "ou_alice", "ou_bob"


def _record(*facts: str) -> list[tuple[str, dict[str, Any]]]:
    return [("record_to_memory", {"thinking": "a travel preference", "content": list(facts)})]


def _retrieve(*keywords: str) -> list[tuple[str, dict[str, Any]]]:
    return [("retrieve_from_memory", {"keywords": list(keywords)})]


def _user_texts(request: dict[str, Any]) -> list[str]:
    return [str(m.get("content")) for m in request["messages"] if m.get("role") == "user"]


def _tool_results(request: dict[str, Any]) -> list[str]:
    return [str(m.get("content")) for m in request["messages"] if m.get("role") == "tool"]


def test_a_preference_said_in_a_direct_chat_is_remembered_and_recalled_later(
    feishu: FeishuHarness, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    scripted_model.script(_record("出差只坐高铁一等座"), "好的，记住了：**高铁一等座**。")
    first = feishu.dm(ALICE, "出差只坐高铁一等座")
    assert first.response.status_code == 200
    assert "**高铁一等座**" in feishu.reply_text(first)  # card Markdown, as written
    items = feishu.core.memory.items(f"feishu:{TENANT}:{ALICE}")
    assert [i.text for i in items] == ["出差只坐高铁一等座"]

    scripted_model.script(_retrieve("成都", "行程"), "这是你的成都行程：高铁一等座。")
    second = feishu.dm(ALICE, "帮我规划下周去成都的行程")
    assert "成都行程" in feishu.reply_text(second)
    final = scripted_model.last_request
    assert any("一等座" in result for result in _tool_results(final))
    assert _user_texts(final) == ["帮我规划下周去成都的行程"]
    # Each answer is one reply, in the thread of the message it answers.
    for sent in (first, second):
        [reply] = fake_feishu.replies_to(sent.message_id)
        calls = fake_feishu.calls_to("reply", ok=True)
        [call] = [c for c in calls if c.params["id"] == sent.message_id]
        assert call.body["reply_in_thread"] is True
        assert reply["msg_type"] == "interactive"


def test_a_reaction_shows_progress_and_goes_away_after_the_answer(
    feishu: FeishuHarness, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    scripted_model.script(Delay(2.0, "Done thinking."))
    started = time.monotonic()
    sent = feishu.dm(ALICE, "what should I pack for Harbin in January?")
    assert time.monotonic() - started < 1.5  # acknowledged at once
    fake_feishu.wait_for("react", timeout=2.0, ok=True)
    assert fake_feishu.reactions(sent.message_id) == {"OnIt"}
    assert fake_feishu.replies_to(sent.message_id) == []
    assert feishu.reply_text(sent) == "Done thinking."
    fake_feishu.wait_for("unreact", ok=True)
    assert fake_feishu.reactions(sent.message_id) == set()


def test_without_a_reaction_a_working_card_becomes_the_answer(
    make_feishu: FeishuFactory, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    bot = make_feishu(feishu_progress_reaction="")
    scripted_model.script(Delay(1.0, "Here is your **plan**."))
    sent = bot.dm(ALICE, "plan my trip to Xi'an")
    [working] = bot.replies(sent)
    card_id = working["content"]["data"]["card_id"]
    assert fake_feishu.card(card_id)["elements"]["answer"] == t("working", "en")
    assert bot.reply_text(sent) == "Here is your **plan**."
    assert len(fake_feishu.replies_to(sent.message_id)) == 1
    assert fake_feishu.card(card_id)["streaming"] is False


def test_a_resent_event_and_a_replayed_message_get_one_answer(
    feishu: FeishuHarness, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    scripted_model.script(Delay(0.5, "Bon voyage!"))
    sent = feishu.dm(ALICE, "I'm off to Lyon tomorrow")
    assert feishu.post(sent.body).status_code == 200  # Feishu's retry: same event id
    replay = feishu.message(ALICE, "I'm off to Lyon tomorrow", message_id=sent.message_id)
    assert feishu.post(replay).status_code == 200  # a new event id, the same message
    feishu.replies(sent)
    feishu.drain()
    assert len(fake_feishu.replies_to(sent.message_id)) == 1
    assert len(scripted_model.requests) == 1


def test_old_messages_replayed_after_a_reconnect_are_not_answered(
    feishu: FeishuHarness, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    old = feishu.dm(ALICE, "are you there?", sent_at=time.time() - 3600)
    assert old.response.status_code == 200
    feishu.drain()
    assert scripted_model.requests == []
    assert fake_feishu.replies_to(old.message_id) == []


def test_bots_and_group_chatter_are_ignored_mentions_are_answered_in_the_thread(
    feishu: FeishuHarness, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    other_bot = feishu.message(ALICE, "beep", sender_type="app")
    assert feishu.post(other_bot).status_code == 200
    chatter = feishu.group(BOB, "lunch at noon?", mention_bot=False)
    scripted_model.script("Happy to help with the offsite.", "Thursday works.")
    asked = feishu.group(
        BOB, "can you plan the Hangzhou offsite with {0}?", mentions=[(ALICE, "A")]
    )
    assert "offsite" in feishu.reply_text(asked)
    # The model saw the colleague in the core's markup, and never the bot's own mention.
    [text] = _user_texts(scripted_model.requests[0])
    assert text == f"can you plan the Hangzhou offsite with <@{ALICE}>?"
    # A follow-up in the bot's thread needs no mention.
    follow = feishu.group(
        BOB,
        "and the hotel?",
        mention_bot=False,
        root_id=asked.message_id,
        thread_id=fake_feishu.messages[asked.message_id]["thread_id"],
    )
    assert feishu.reply_text(follow) == "Thursday works."
    feishu.drain()
    assert fake_feishu.replies_to(chatter.message_id) == []
    assert len(scripted_model.requests) == 2


def test_two_people_and_two_platforms_never_share_memory(
    feishu: FeishuHarness, scripted_model: ScriptedModel
) -> None:
    memory = feishu.core.memory
    memory.record(f"{TENANT}:{ALICE}", ["Slack-side: I love red-eyes"])  # a Slack-shaped key
    scripted_model.script(_retrieve("flight"), "Nothing remembered yet.")
    sent = feishu.dm(BOB, "what do you know about my flights?")
    feishu.reply_text(sent)
    [result] = _tool_results(scripted_model.last_request)
    assert "red-eye" not in result


def test_a_feishu_persons_dates_are_in_travel_timezone_without_a_contact_call(
    make_feishu: FeishuFactory, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    feishu = make_feishu(travel_timezone="Europe/Paris")
    fake_feishu.add_user(BOB, name="Bob", city="Shanghai", country="CN")
    scripted_model.script("One.", "Two.")
    for text in ("what time is it?", "and now?"):
        feishu.reply_text(feishu.dm(BOB, text))
    for request in scripted_model.requests:
        assert "Europe/Paris" in str(request["messages"][0]["content"])
    assert fake_feishu.calls_to("user") == []  # Feishu documents no time zone of a person


def test_an_expired_token_is_refreshed_and_the_answer_still_arrives(
    feishu: FeishuHarness, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    scripted_model.script("First answer.", Delay(0.5, "Second answer."))
    feishu.reply_text(feishu.dm(ALICE, "hello"))
    fake_feishu.wait_for("unreact", ok=True)
    before = fake_feishu.token_requests
    fake_feishu.expire_tokens()  # revoked early, while the SDK still caches it
    second = feishu.dm(ALICE, "hello again")
    assert feishu.reply_text(second) == "Second answer."
    assert fake_feishu.token_requests == before + 1
    assert any(c.answer.get("code") == 99991663 for c in fake_feishu.calls)


def test_rate_limits_delay_the_answer_but_do_not_lose_or_repeat_it(
    feishu: FeishuHarness, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    fake_feishu.rate_limit("reply", times=1, reset=1)  # HTTP 400, code 99991400
    fake_feishu.rate_limit("reply", times=1, code=230020, reset=0.5)  # one chat's limit
    fake_feishu.rate_limit("reply", times=1, status=429, reset=0.5)  # the gateway's
    scripted_model.script("Worth the wait.")
    sent = feishu.dm(ALICE, "plan my trip")
    assert feishu.reply_text(sent, timeout=20) == "Worth the wait."
    answers = [(c.answer["status"], c.answer["code"]) for c in fake_feishu.calls_to("reply")]
    assert answers == [(400, 99991400), (400, 230020), (429, 99991400), (200, 0)]
    assert len(fake_feishu.replies_to(sent.message_id)) == 1


def test_feishu_down_costs_the_reply_never_the_bot(
    make_feishu: FeishuFactory, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    feishu = make_feishu(llm_stream=False)  # the answer in one piece: one reply to lose
    fake_feishu.broken("reply", times=2)  # a proxy's error page, twice: retried once
    fake_feishu.broken("react", times=1)
    scripted_model.script("Lost in transit.", "Here now.")
    lost = feishu.dm(ALICE, "first")
    fake_feishu.wait_for("reply", count=2)
    later = feishu.dm(ALICE, "second")
    assert feishu.reply_text(later) == "Here now."
    assert fake_feishu.replies_to(lost.message_id) == []
    assert feishu.http.get("/healthz").status_code == 200


def test_a_streamed_answer_outlives_a_short_outage_and_is_shown_once(
    feishu: FeishuHarness, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    fake_feishu.broken("reply", times=2)  # the card's first reply is lost; a later piece
    scripted_model.script("Lost for a moment, then here in full.")  # opens it again
    sent = feishu.dm(ALICE, "first")
    assert feishu.reply_text(sent, timeout=30) == "Lost for a moment, then here in full."
    assert len(fake_feishu.replies_to(sent.message_id)) == 1


def test_the_model_failing_ends_in_a_kind_reply_in_the_writers_language(
    feishu: FeishuHarness, scripted_model: ScriptedModel
) -> None:
    scripted_model.script(Fail(500), Fail(500), Fail(500), Fail(500))
    sent = feishu.dm(ALICE, "帮我订明天的机票")
    assert feishu.reply_text(sent, timeout=30) == t("llm_unavailable", "zh")


def test_a_model_that_refuses_is_told_as_for_the_admin_not_as_a_retry(
    feishu: FeishuHarness, scripted_model: ScriptedModel
) -> None:
    """A wrong model name (404) fails however often Alice asks: she reads, in Chinese,
    to tell her admin; a server that times out is told as passing. "我的偏好" still
    answers from memory while the model refuses."""
    scripted_model.script(Fail(404))
    sent = feishu.dm(ALICE, "帮我订明天的机票")
    told = feishu.reply_text(sent, timeout=30)
    assert told == t("llm_refused", "zh") and "管理员" in told

    scripted_model.script(*[Fail(503)] * 4)
    sent = feishu.dm(ALICE, "book me a flight tomorrow")
    assert feishu.reply_text(sent, timeout=30) == t("llm_unavailable", "en")

    scripted_model.script(Fail(401))
    asked = len(scripted_model.requests)
    feishu.core.memory.record(f"feishu:{TENANT}:{ALICE}", ["I never take red-eye flights"])
    [card] = feishu.replies(feishu.dm(ALICE, "我的偏好"))
    assert "red-eye" in json.dumps(card["content"], ensure_ascii=False)
    assert len(scripted_model.requests) == asked  # a command: the model is not asked


def test_acks_stay_fast_while_many_conversations_wait_on_a_slow_model(
    feishu: FeishuHarness, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    scripted_model.script(*[Delay(1.5, f"Answer {i}.") for i in range(12)])
    acks = []
    sent = []
    for index in range(12):
        started = time.monotonic()
        sent.append(feishu.dm(f"ou_user{index}", f"plan trip {index}"))
        acks.append(time.monotonic() - started)
    assert max(acks) < 1.0, acks  # generous: the machine is shared
    for message in sent:
        assert feishu.reply_text(message, timeout=60).startswith("Answer")


def test_feishu_unreachable_from_the_start_still_acknowledges_and_stays_healthy(
    make_feishu: FeishuFactory, scripted_model: ScriptedModel
) -> None:
    bot = make_feishu(feishu_api_url=f"http://127.0.0.1:{free_port()}")
    scripted_model.script("An answer nobody can receive.")
    sent = bot.group(BOB, "plan the offsite")  # the bot's identity is unknown: still a mention
    assert sent.response.status_code == 200
    bot.drain()
    assert len(scripted_model.requests) == 1  # the turn ran; only its delivery failed
    assert bot.http.get("/healthz").status_code == 200


def test_a_first_mention_inside_a_topic_reads_what_the_topic_said_before(
    feishu: FeishuHarness, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI
) -> None:
    root, thread = "om_topic_root", "omt_topic1"
    fake_feishu.add_message(
        root, chat_id=GROUP, sender=ALICE, text="Offsite in Hangzhou, 3 days", thread_id=thread
    )
    fake_feishu.add_message(
        "om_topic_2",
        chat_id=GROUP,
        sender=BOB,
        text="I'd rather take the train",
        root_id=root,
        thread_id=thread,
    )
    scripted_model.script("Trains it is.", "Noted.")
    sent = feishu.group(BOB, "what do you suggest?", root_id=root, thread_id=thread)
    assert feishu.reply_text(sent) == "Trains it is."
    messages = scripted_model.requests[0]["messages"]
    users = [m["content"] for m in messages if m["role"] == "user"]
    assert users == [
        f"<@{ALICE}>: Offsite in Hangzhou, 3 days",
        "I'd rather take the train",
        "what do you suggest?",
    ]
    # Saved in the thread's history: a follow-up does not ask Feishu again.
    follow = feishu.group(BOB, "and the hotel?", root_id=root, thread_id=thread)
    assert feishu.reply_text(follow) == "Noted."
    assert len(fake_feishu.calls_to("list")) == 1


@pytest.mark.parametrize("fault", ["take_then_reset", "broken"])
def test_a_reaction_whose_answer_was_lost_still_goes_away_after_the_answer(
    feishu: FeishuHarness, scripted_model: ScriptedModel, fake_feishu: FakeFeishuAPI, fault: str
) -> None:
    """Adding the progress reaction takes no uuid, so after a read error it is not sent
    blindly again: the message's reactions are read. Taken then reset: ours is there, its
    id is learnt, nothing is added twice. An error page before Feishu acted (the proxy's):
    none is ours, it is added once more. Either way, once the answer is there, Alice's
    message carries no reaction of ours."""
    getattr(fake_feishu, fault)("react")
    scripted_model.script(Delay(1.0, "Done thinking."))
    sent = feishu.dm(ALICE, "what should I pack for Harbin in January?")
    fake_feishu.wait_for("react_list", timeout=5.0, ok=True)
    assert feishu.reply_text(sent) == "Done thinking."
    fake_feishu.wait_for("unreact", ok=True)
    assert fake_feishu.reactions(sent.message_id) == set()
    adds = fake_feishu.calls_to("react")
    assert len(adds) == (1 if fault == "take_then_reset" else 2)


def test_a_card_update_whose_answer_was_lost_is_sent_again_and_shows_once(
    feishu: FeishuHarness, fake_feishu: FakeFeishuAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A card patch takes no uuid but replaces the card's whole content: sent again after
    a reset, the card shows the new content once, nothing is added to the chat."""
    feishu.core.memory.record(feishu.namespace(ALICE), ["I prefer aisle seats"])
    [card] = feishu.replies(feishu.dm(ALICE, "/travel-prefs"))
    forget = buttons_of(card["content"])["Forget everything"]["value"]
    items = feishu.core.memory.items

    def slow_items(namespace: str) -> Any:  # slower than the callback waits: a late patch
        time.sleep(0.6)
        return items(namespace)

    monkeypatch.setattr(feishu.core.memory, "items", slow_items)
    feishu.feishu.answer_within = 0.2
    fake_feishu.take_then_reset("patch")
    feishu.click(ALICE, forget, message_id=card["message_id"])
    patches = fake_feishu.wait_for("patch", count=2)
    first, again = (p.body["content"] for p in patches)
    assert first == again
    shown = fake_feishu.messages[card["message_id"]]["content"]
    assert card_text(shown).count("Forget everything I remember") == 1
    assert (
        len(fake_feishu.replies_to(sent_id(card))) == 0 and len(fake_feishu.calls_to("send")) == 0
    )


def sent_id(card: dict[str, Any]) -> str:
    return str(card["message_id"])
