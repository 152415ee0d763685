"""The Feishu reply sink against the fake open API: one piece or many, every answer once.

The core hands the answer over in one `append` today; a core that streams tokens calls
`append` once per piece. Both must end in one answer, shown once, with CardKit's
sequence numbers strictly increasing whatever fails along the way.
"""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.conversation.incoming import IncomingMessage
from bot.feishu.api import FeishuAPI
from tests.bot.feishu.conftest import incoming, reply_sink
from tests.support.feishu_api import SEQUENCE_ERROR, FakeFeishuAPI
from tests.support.feishu_harness import card_text


@pytest.fixture
def fake(fake_feishu: FakeFeishuAPI) -> FakeFeishuAPI:
    return fake_feishu


@pytest.fixture
def api(feishu_api: FeishuAPI) -> FeishuAPI:
    return feishu_api


def _message(fake: FakeFeishuAPI, chat_type: str = "p2p") -> IncomingMessage:
    return incoming(fake, chat_type=chat_type)


_sink = reply_sink


def _streamed_card(fake: FakeFeishuAPI, msg: IncomingMessage) -> dict[str, object]:
    [reply] = fake.replies_to(msg.message_id)
    return fake.card(reply["content"]["data"]["card_id"])


PIECES = ["Your ", "trip ", "to **Chengdu**: ", "a morning ", "train, ", "then the hotel."]


def test_one_piece_is_one_reply_without_a_streaming_card(
    fake: FakeFeishuAPI, api: FeishuAPI, notices: ThreadPoolExecutor
) -> None:
    msg = _message(fake)
    sink = _sink(api, msg, notices, reaction="OnIt")
    sink.status("Working on it…")
    sink.append("".join(PIECES))
    sink.finish()
    sink.close()
    [reply] = fake.replies_to(msg.message_id)
    assert card_text(reply["content"]) == "".join(PIECES)
    assert fake.calls_to("card_create") == []


def test_many_pieces_stream_into_one_card_in_order_and_end_once(
    fake: FakeFeishuAPI, api: FeishuAPI, notices: ThreadPoolExecutor
) -> None:
    msg = _message(fake)
    sink = _sink(api, msg, notices, reaction="OnIt")
    for piece in PIECES:
        sink.append(piece)
    sink.finish()
    card = _streamed_card(fake, msg)
    assert card["elements"] == {"answer": "".join(PIECES)}
    assert card["streaming"] is False
    sequences = [c.body["sequence"] for c in fake.calls if c.kind in ("card_text", "card_settings")]
    assert sequences == sorted(set(sequences)) and sequences[0] == 1
    shown = [content for _, content in card["updates"]]  # type: ignore[index]
    assert all(b.startswith(a) for a, b in itertools.pairwise(shown))  # never twice
    assert len(fake.replies_to(msg.message_id)) == 1


def test_a_retried_update_is_applied_once_and_sequences_never_repeat(
    fake: FakeFeishuAPI, api: FeishuAPI, notices: ThreadPoolExecutor
) -> None:
    msg = _message(fake)
    sink = _sink(api, msg, notices)
    sink.append(PIECES[0])
    sink.append(PIECES[1])  # the card opens here
    fake.lose("card_text", times=1)  # applied, then the answer lost: retried, same uuid
    sink.append(PIECES[2])
    fake.rate_limit("card_text", times=1, code=230020, reset=5)  # too long: skipped
    sink.append(PIECES[3])
    for piece in PIECES[4:]:
        sink.append(piece)
    sink.finish()
    card = _streamed_card(fake, msg)
    assert card["elements"] == {"answer": "".join(PIECES)}
    assert not [c for c in fake.calls if c.answer.get("code") == SEQUENCE_ERROR]
    sent = [c.body["sequence"] for c in fake.calls if c.kind == "card_text"]
    assert sent == sorted(sent)
    assert len(sent) - len(set(sent)) == 1  # only the retried call repeats its number
    shown = [content for _, content in card["updates"]]  # type: ignore[index]
    assert len(shown) == len(set(shown))  # the retried text was applied once
    assert len(fake.replies_to(msg.message_id)) == 1


def test_a_retried_reply_is_the_same_message(
    fake: FakeFeishuAPI, api: FeishuAPI, notices: ThreadPoolExecutor
) -> None:
    msg = _message(fake)
    fake.lose("reply", times=1)  # posted, but the answer never came back: retried
    sink = _sink(api, msg, notices)
    sink.append("Bon voyage!")
    sink.finish()
    assert len(fake.calls_to("reply")) == 2
    [reply] = fake.replies_to(msg.message_id)
    assert card_text(reply["content"]) == "Bon voyage!"


def test_a_long_streamed_answer_continues_in_further_cards(
    fake: FakeFeishuAPI, api: FeishuAPI, notices: ThreadPoolExecutor
) -> None:
    msg = _message(fake)
    sink = _sink(api, msg, notices)
    paragraphs = [f"Day {day}: " + "见客户，开会，晚上回酒店。" * 120 for day in range(1, 6)]
    for paragraph in paragraphs:
        sink.append(paragraph + "\n\n")
    sink.finish()
    replies = fake.replies_to(msg.message_id)
    assert len(replies) > 1
    shown = "\n".join(card_text(r["content"], fake) for r in replies)
    assert [f"Day {day}:" in shown for day in range(1, 6)] == [True] * 5
    assert sum(shown.count(f"Day {day}:") for day in range(1, 6)) == 5


def test_a_failure_after_streaming_began_ends_the_same_card(
    fake: FakeFeishuAPI, api: FeishuAPI, notices: ThreadPoolExecutor
) -> None:
    msg = _message(fake)
    sink = _sink(api, msg, notices)
    sink.append("Looking at ")
    sink.append("trains…")
    sink.fail("Sorry, I can't reach my language model right now.")
    card = _streamed_card(fake, msg)
    assert card["elements"]["answer"].startswith("Looking at trains…")  # type: ignore[index]
    assert "can't reach" in str(card["elements"])
    assert card["streaming"] is False


def test_a_refusal_in_a_group_reaches_only_the_writer(
    fake: FakeFeishuAPI, api: FeishuAPI, notices: ThreadPoolExecutor
) -> None:
    msg = _message(fake, chat_type="group")
    sink = _sink(api, msg, notices, chat_type="group", reaction="OnIt")
    sink.refuse("Only travel admins can plan trips for someone else.")
    [direct] = fake.sent_to("ou_alice")
    assert "travel admins" in card_text(direct["content"])
    assert fake.replies_to(msg.message_id) == []
