"""Answers streamed into DingTalk's AI card, against the fake OpenAPI playing the card API:
the card is created with the answer's first words and grows as the model writes (paced,
never a replay of a finished answer), ends finished with the whole answer, and falls
back to Markdown on any error without losing or repeating the answer. Reasoning never
shows."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from bot.dingtalk.ai_card import CARD_TEXT_LIMIT, FAILED, FINISHED, AICardTemplate
from bot.dingtalk.api import OpenAPI
from bot.dingtalk.markdown import renderable
from bot.dingtalk.sink import DingTalkReplySink
from bot.dingtalk.timers import Timers
from bot.messages import t
from tests.bot.dingtalk.conftest import make_sink
from tests.support.dingtalk_api import FakeDingTalkAPI
from tests.support.dingtalk_harness import GROUP, HTTPRobot
from tests.support.llm_server import ScriptedModel, tokens

TEMPLATE = "tpl-travel-ai.schema"
ANSWER = (
    "Here is your **Chengdu** plan:\n\n"
    "- the 08:05 flight from Hongqiao\n- a quiet room near Chunxi Road\n\n"
    "I skipped the red-eye, as you asked."
)
Parts = tuple[OpenAPI, ThreadPoolExecutor, Timers]


@pytest.fixture(autouse=True)
def template(dingtalk: FakeDingTalkAPI) -> None:
    dingtalk.add_card_template(TEMPLATE)


def _card_sink(dingtalk: FakeDingTalkAPI, parts: Parts, **options: Any) -> DingTalkReplySink:
    return make_sink(dingtalk, parts, card=AICardTemplate(TEMPLATE), flush_seconds=0.15, **options)


def _write(sink: DingTalkReplySink, pieces: Sequence[str], pause: float = 0.02) -> None:
    """The model writing: a piece at a time, as the core hands them over."""
    for piece in pieces:
        sink.append(piece)
        time.sleep(pause)


def test_the_answer_streams_into_the_card_as_the_model_writes_it(
    dingtalk: FakeDingTalkAPI, parts: Parts
) -> None:
    sink = _card_sink(dingtalk, parts)
    pieces = tokens(ANSWER)
    _write(sink, pieces)
    sink.finish()
    sink.close()

    [card] = dingtalk.cards
    assert card.template_id == TEMPLATE and card.space == "IM_ROBOT.staff-alice"
    assert card.text() == renderable(ANSWER) and card.status == FINISHED
    assert "content" in card.finalized
    # Created with its first words, then it grew: each text a prefix of the next.
    shown = [card.created["content"]] + [t for _, key, t in card.streamed if key == "content"]
    assert len(shown) >= 3
    assert all(b.startswith(a.rstrip()) for a, b in itertools.pairwise(shown))
    # Paced: a few updates, not one per token, spaced by the flush interval.
    assert len(shown) < len(pieces) // 2
    times = [at for at, _, _ in card.streamed[:-1]]
    assert all(b - a >= 0.1 for a, b in itertools.pairwise(times))
    assert dingtalk.sent == []  # no Markdown message besides the card


def test_streaming_starts_before_the_model_has_finished(
    make_robot: Callable[..., HTTPRobot],
    dingtalk: FakeDingTalkAPI,
    scripted_model: ScriptedModel,
) -> None:
    robot = make_robot(dingtalk_card_template_id=TEMPLATE, dingtalk_progress_seconds=0)
    scripted_model.tokens_per_second = 25  # about two seconds for the whole answer
    scripted_model.script(ANSWER)
    robot.send("plan my trip to Chengdu")
    card = dingtalk.wait_for_card()
    first_shown = time.monotonic()
    robot.drain()
    [timing] = scripted_model.timings
    assert first_shown < timing.done_at - 0.5  # the card showed words long before the end
    assert card.text() == renderable(ANSWER) and card.status == FINISHED
    first = card.created["content"]
    assert first and renderable(ANSWER).startswith(first) and len(first) < len(ANSWER) // 2
    assert len(card.streamed) >= 2  # it grew while the model wrote, then ended
    assert dingtalk.sent == []


def test_in_a_group_the_card_goes_to_the_group(dingtalk: FakeDingTalkAPI, parts: Parts) -> None:
    sink = _card_sink(dingtalk, parts, group=True)
    _write(sink, tokens(ANSWER), pause=0)
    sink.finish()
    [card] = dingtalk.cards
    assert card.space == f"IM_GROUP.{GROUP}" and card.status == FINISHED


@pytest.mark.parametrize("refusal", ["create refused", "not delivered"])
def test_when_the_card_cannot_be_made_the_answer_is_posted_as_markdown_once(
    dingtalk: FakeDingTalkAPI, parts: Parts, refusal: str
) -> None:
    if refusal == "create refused":
        dingtalk.fail("card_create", status=400)
    else:
        dingtalk.undeliverable()
    sink = _card_sink(dingtalk, parts)
    _write(sink, tokens(ANSWER))
    sink.finish()
    assert dingtalk.cards == []
    [message] = dingtalk.wait_for(1)
    assert message.text == renderable(ANSWER) and message.kind == "markdown"
    time.sleep(0.2)
    assert len(dingtalk.sent) == 1


def test_a_failed_update_is_caught_up_by_the_next(dingtalk: FakeDingTalkAPI, parts: Parts) -> None:
    sink = _card_sink(dingtalk, parts)
    pieces = tokens(ANSWER)
    _write(sink, pieces[:5])
    dingtalk.fail("card_stream", status=400)  # one update refused
    _write(sink, pieces[5:])
    sink.finish()
    [card] = dingtalk.cards
    assert card.text() == renderable(ANSWER) and card.status == FINISHED
    assert dingtalk.rejected.count(("card_stream", 400)) == 1
    assert dingtalk.sent == []


def test_when_the_final_text_cannot_be_shown_the_card_says_so_and_markdown_follows(
    dingtalk: FakeDingTalkAPI, parts: Parts
) -> None:
    sink = _card_sink(dingtalk, parts, lang="zh")
    _write(sink, tokens(ANSWER))
    dingtalk.fail("card_stream", status=400)  # the final update is refused
    dingtalk.fail("card_update", status=400)  # and so is the instance update with the text
    sink.finish()
    [card] = dingtalk.cards
    assert card.status == FAILED and card.text() == t("dingtalk_card_answer_below", "zh")
    [message] = dingtalk.wait_for(1)
    assert message.text == renderable(ANSWER)  # the whole answer, once, as Markdown


def test_reasoning_is_never_shown(dingtalk: FakeDingTalkAPI, parts: Parts) -> None:
    thinking = "<think>The user likes morning flights; red-eyes are out.</think>\n\n"
    sink = _card_sink(dingtalk, parts)
    _write(sink, tokens(thinking + ANSWER))
    sink.finish()
    [card] = dingtalk.cards
    assert all("think" not in text and "red-eyes are out" not in text for *_, text in card.streamed)
    assert card.text() == renderable(ANSWER)

    plain = make_sink(dingtalk, parts)  # without a card: the Markdown answer is clean too
    _write(plain, tokens(thinking + ANSWER), pause=0)
    plain.finish()
    [message] = dingtalk.wait_for(1)
    assert message.text == renderable(ANSWER)


def test_an_answer_longer_than_a_card_goes_on_in_messages(
    dingtalk: FakeDingTalkAPI, parts: Parts
) -> None:
    days = [f"Day {day}:" + " meetings downtown, dinner near the hotel." * 12 for day in range(40)]
    answer = "\n\n".join(days)
    assert len(answer) > CARD_TEXT_LIMIT
    sink = _card_sink(dingtalk, parts)
    for day in days:
        sink.append(day + "\n\n")
    sink.finish()
    [card] = dingtalk.cards
    assert card.status == FINISHED and len(card.text()) <= CARD_TEXT_LIMIT
    shown = [card.text()] + [m.text for m in dingtalk.sent]
    assert "\n\n".join(shown).split("\n\n") == days  # all of it, once, in order


def _said_today() -> str:
    """When a preference said now was said, in the robot's time zone (TRAVEL_TIMEZONE)."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    return datetime.now(ZoneInfo("Asia/Shanghai")).date().isoformat()


def test_the_work_shows_in_the_card_while_the_agent_works_and_under_the_answer(
    make_robot: Callable[..., HTTPRobot],
    dingtalk: FakeDingTalkAPI,
    scripted_model: ScriptedModel,
) -> None:
    robot = make_robot(dingtalk_card_template_id=TEMPLATE, dingtalk_progress_seconds=0)
    robot.core.memory.record(robot.namespace("staff-alice"), ["I prefer aisle seats"])
    scripted_model.script(
        [("retrieve_from_memory", {"keywords": ["seat"]})], "An aisle seat, as you like."
    )
    robot.send("book me a seat to Chengdu")
    robot.drain()
    [card] = dingtalk.cards
    # The card appeared with the first step, before any of the answer was written.
    assert card.created["content"] == "> ⏳ Recalling your travel preferences"
    assert card.status == FINISHED
    assert card.text() == (
        f"An aisle seat, as you like.\n\n> Used: I prefer aisle seats (said on {_said_today()})"
    )
    assert dingtalk.sent == []  # all of it in the card


def test_without_a_card_the_work_is_a_quoted_line_under_the_answer(
    make_robot: Callable[..., HTTPRobot],
    dingtalk: FakeDingTalkAPI,
    scripted_model: ScriptedModel,
) -> None:
    robot = make_robot(dingtalk_progress_seconds=0)
    robot.core.memory.record(robot.namespace("staff-alice"), ["出差只坐高铁一等座"])
    scripted_model.script(
        [("retrieve_from_memory", {"keywords": ["高铁"]})], "好的，给你订高铁一等座。"
    )
    robot.send("帮我订去成都的高铁")
    [message] = dingtalk.wait_for(1)
    assert message.kind == "markdown"
    assert message.text == (
        f"好的，给你订高铁一等座。\n\n> 用到：出差只坐高铁一等座 ({_said_today()} 说的)"
    )
    assert dingtalk.cards == []


def test_a_card_dingtalk_took_without_answering_is_not_created_again(
    dingtalk: FakeDingTalkAPI, parts: Parts
) -> None:
    """createAndDeliver reaches DingTalk, then the connection resets: the card may be in
    the chat, so it is neither created again (a second card) nor given up for Markdown
    (a second answer); it is there, and the answer streams into it."""
    dingtalk.take_then_fail("card_create", "reset")
    sink = _card_sink(dingtalk, parts)
    _write(sink, tokens(ANSWER))
    sink.finish()
    sink.close()
    [card] = dingtalk.cards
    assert card.text() == renderable(ANSWER) and card.status == FINISHED
    assert dingtalk.requests.count("/v1.0/card/instances/createAndDeliver") == 1
    time.sleep(0.2)
    assert dingtalk.sent == []  # no Markdown copy of the answer


def test_a_card_whose_creation_never_arrived_leaves_the_answer_to_markdown_once(
    dingtalk: FakeDingTalkAPI, parts: Parts
) -> None:
    """The same reset, but DingTalk has no card after all: the updates find none, the
    final text cannot be shown, and the whole answer is posted once as Markdown."""
    dingtalk.take_then_fail("card_create", "reset")
    sink = _card_sink(dingtalk, parts)
    pieces = tokens(ANSWER)
    _write(sink, pieces[:3])
    dingtalk.drop_cards()
    _write(sink, pieces[3:])
    sink.finish()
    sink.close()
    assert dingtalk.cards == []
    assert dingtalk.requests.count("/v1.0/card/instances/createAndDeliver") == 1
    [message] = dingtalk.wait_for(1)
    assert message.text == renderable(ANSWER) and message.kind == "markdown"
    time.sleep(0.2)
    assert len(dingtalk.sent) == 1
