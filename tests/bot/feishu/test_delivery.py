"""Answers that arrive whole in Feishu, against the fake open API answering as Feishu does.

- Chats that refuse replies in threads (230071: the group does not allow it; 230072: the
  message is an aggregated one): the answer, the streaming card and the failure notice
  go as a plain reply, else as a new message in the chat, and the chat's refusal is
  remembered so later answers do not pay it again.
- A streaming card's final text is guaranteed: its last update acknowledged, or the card
  replaced, or the whole answer replied again; a turn longer than the ten minutes a card
  streams turns streaming on again.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from bot.conversation.incoming import IncomingMessage
from bot.feishu.api import FeishuAPI
from bot.feishu.streaming import CardStream
from tests.bot.feishu.conftest import incoming, reply_sink
from tests.support.feishu_api import (
    AGGREGATED_REFUSES_THREADS,
    CHAT_REFUSES_THREADS,
    STREAMING_TIMEOUT,
    FakeFeishuAPI,
)
from tests.support.feishu_harness import card_text

PIECES = ["Your ", "trip ", "to **Chengdu**: ", "a morning ", "train, ", "then the hotel."]
ANSWER = "".join(PIECES)
FAILURE = "Sorry, I can't reach my language model right now."


def _refusing(fake: FakeFeishuAPI, code: int, chat_id: str) -> IncomingMessage:
    """A message whose thread Feishu will refuse with `code`."""
    if code == CHAT_REFUSES_THREADS:
        fake.refuse_threads(chat_id)
        return incoming(fake, chat_id=chat_id, chat_type="group")
    return incoming(fake, chat_id=chat_id, chat_type="group", aggregated=True)


def _thread_tries(fake: FakeFeishuAPI, chat_id: str) -> list[Any]:
    """The replies in a thread the bot asked for in `chat_id`."""
    in_chat = {m["message_id"] for m in fake.messages.values() if m.get("chat_id") == chat_id}
    return [
        c
        for c in fake.calls_to("reply")
        if c.body.get("reply_in_thread") and c.params["id"] in in_chat
    ]


def _shown(fake: FakeFeishuAPI, message: dict[str, Any]) -> str:
    return card_text(message["content"], fake)


@pytest.mark.parametrize("code", [CHAT_REFUSES_THREADS, AGGREGATED_REFUSES_THREADS])
@pytest.mark.parametrize("way", ["answer", "streaming card", "failure notice"])
def test_a_chat_that_refuses_thread_replies_gets_a_plain_reply(
    fake_feishu: FakeFeishuAPI,
    feishu_api: FeishuAPI,
    notices: ThreadPoolExecutor,
    code: int,
    way: str,
) -> None:
    chat = f"oc_refuses_{code}"
    msg = _refusing(fake_feishu, code, chat)
    sink = reply_sink(feishu_api, msg, notices, chat_type="group")
    if way == "answer":
        sink.append(ANSWER)
        sink.finish()
    elif way == "streaming card":
        for piece in PIECES:
            sink.append(piece)
        sink.finish()
    else:
        sink.fail(FAILURE)
    sink.close()

    [reply] = fake_feishu.replies_to(msg.message_id)
    assert _shown(fake_feishu, reply) == (FAILURE if way == "failure notice" else ANSWER)
    assert not reply.get("thread_id")  # a plain reply: the chat allows no thread
    refused = [c for c in fake_feishu.calls_to("reply") if c.answer.get("code") == code]
    assert len(refused) == 1  # asked in a thread once, then never again for this answer


def test_the_refusing_chat_is_remembered_for_later_answers(
    fake_feishu: FakeFeishuAPI, feishu_api: FeishuAPI, notices: ThreadPoolExecutor
) -> None:
    chat = "oc_no_threads"
    for text in ("First answer.", "Second answer.", "Third answer."):
        msg = _refusing(fake_feishu, CHAT_REFUSES_THREADS, chat)
        sink = reply_sink(feishu_api, msg, notices, chat_type="group")
        sink.append(text)
        sink.finish()
        [reply] = fake_feishu.replies_to(msg.message_id)
        assert _shown(fake_feishu, reply) == text
    assert len(_thread_tries(fake_feishu, chat)) == 1  # only the first paid the error

    # An aggregated message refuses for itself only: the chat's next answer tries a thread.
    other = "oc_with_threads"
    merged = _refusing(fake_feishu, AGGREGATED_REFUSES_THREADS, other)
    sink = reply_sink(feishu_api, merged, notices, chat_type="group")
    sink.append("To the merged message.")
    sink.finish()
    plain = incoming(fake_feishu, chat_id=other, chat_type="group")
    sink = reply_sink(feishu_api, plain, notices, chat_type="group")
    sink.append("In a thread.")
    sink.finish()
    [threaded] = fake_feishu.replies_to(plain.message_id)
    assert threaded["thread_id"]
    assert len(_thread_tries(fake_feishu, other)) == 2


def test_when_a_plain_reply_is_refused_too_the_answer_is_a_new_message_in_the_chat(
    fake_feishu: FakeFeishuAPI, feishu_api: FeishuAPI, notices: ThreadPoolExecutor
) -> None:
    chat = "oc_strict"
    msg = incoming(fake_feishu, chat_id=chat, chat_type="group")
    fake_feishu.fail("reply", CHAT_REFUSES_THREADS, "does not support reply in thread")
    fake_feishu.fail("reply", 230054, "This operation is not supported for this message type.")
    sink = reply_sink(feishu_api, msg, notices, chat_type="group")
    for piece in PIECES:  # the streaming card itself goes as the new message
        sink.append(piece)
    sink.finish()
    sink.close()
    assert fake_feishu.replies_to(msg.message_id) == []
    [message] = fake_feishu.in_chat(chat)
    assert _shown(fake_feishu, message) == ANSWER
    assert message.get("parent_id") is None
    [sent] = fake_feishu.calls_to("send", ok=True)
    assert sent.query["receive_id_type"] == "chat_id"

    # The failure notice of that same message goes the same way, paying no error again.
    before = len(fake_feishu.calls_to("reply"))
    reply_sink(feishu_api, msg, notices, chat_type="group").fail(FAILURE)
    assert len(fake_feishu.calls_to("reply")) == before
    assert [_shown(fake_feishu, m) for m in fake_feishu.in_chat(chat)] == [ANSWER, FAILURE]


def _stream(
    fake: FakeFeishuAPI, api: FeishuAPI, notices: ThreadPoolExecutor
) -> tuple[IncomingMessage, Any]:
    msg = incoming(fake)
    sink = reply_sink(api, msg, notices)
    for piece in PIECES[:-1]:
        sink.append(piece)
    return msg, sink


def _card_of(fake: FakeFeishuAPI, msg: IncomingMessage) -> dict[str, Any]:
    [reply] = fake.replies_to(msg.message_id)
    return fake.card(reply["content"]["data"]["card_id"])


def test_a_final_update_that_keeps_failing_is_replaced_by_a_card_showing_the_whole_answer(
    fake_feishu: FakeFeishuAPI, feishu_api: FeishuAPI, notices: ThreadPoolExecutor
) -> None:
    msg, sink = _stream(fake_feishu, feishu_api, notices)
    fake_feishu.rate_limit("card_text", times=50, reset=10)  # past the final's patience
    sink.append(PIECES[-1])
    sink.finish()
    card = _card_of(fake_feishu, msg)
    assert card["elements"] == {"answer": ANSWER}
    assert card["streaming"] is False
    [replaced] = fake_feishu.calls_to("card_update", ok=True)
    assert replaced.body["sequence"] > max(
        c.body["sequence"] for c in fake_feishu.calls_to("card_text")
    )
    assert len(fake_feishu.replies_to(msg.message_id)) == 1


def test_when_the_card_cannot_show_the_final_text_the_whole_answer_is_replied_again(
    fake_feishu: FakeFeishuAPI, feishu_api: FeishuAPI, notices: ThreadPoolExecutor
) -> None:
    msg, sink = _stream(fake_feishu, feishu_api, notices)
    fake_feishu.rate_limit("card_text", times=50, reset=10)
    fake_feishu.fail("card_update", 300311, "no permission to update this card")
    sink.append(PIECES[-1])
    sink.finish()
    replies = fake_feishu.replies_to(msg.message_id)
    assert len(replies) == 2  # the card as far as it got, then the whole answer
    assert _shown(fake_feishu, replies[-1]) == ANSWER
    assert ANSWER.startswith(_shown(fake_feishu, replies[0]))


def test_a_turn_longer_than_the_streaming_window_turns_streaming_on_again(
    fake_feishu: FakeFeishuAPI, feishu_api: FeishuAPI, notices: ThreadPoolExecutor
) -> None:
    fake_feishu.streaming_window = 0.4  # Feishu's ten minutes, shortened
    msg = incoming(fake_feishu)
    sink = reply_sink(feishu_api, msg, notices)
    for piece in PIECES:
        sink.append(piece)
        time.sleep(0.25)  # the whole turn takes well past the window
    sink.finish()
    card = _card_of(fake_feishu, msg)
    assert card["elements"] == {"answer": ANSWER}
    assert card["streaming"] is False
    timed_out = [c for c in fake_feishu.calls if c.answer.get("code") == STREAMING_TIMEOUT]
    assert timed_out  # Feishu closed streaming at least once on its own
    renewed = [
        c
        for c in fake_feishu.calls_to("card_settings", ok=True)
        if '"streaming_mode":true' in str(c.body.get("settings"))
    ]
    assert len(renewed) >= len(timed_out)
    assert fake_feishu.calls_to("card_update") == []


def test_streaming_is_turned_on_again_before_feishu_closes_it(
    fake_feishu: FakeFeishuAPI, feishu_api: FeishuAPI
) -> None:
    now = [1000.0]
    msg = incoming(fake_feishu)
    stream = CardStream(
        feishu_api, reply_to=msg.message_id, uuid="u-window", placeholder="…", clock=lambda: now[0]
    )
    assert stream.open("Your trip")
    now[0] += 550  # nine minutes and some: Feishu would close it within a minute
    assert stream.update("Your trip to Chengdu")
    kinds = [c.kind for c in fake_feishu.calls if c.kind in ("card_settings", "card_text")]
    assert kinds == ["card_settings", "card_text"]  # on again first, then the text
    assert stream.close("Your trip to Chengdu.")
    assert _card_of(fake_feishu, msg)["elements"] == {"answer": "Your trip to Chengdu."}
