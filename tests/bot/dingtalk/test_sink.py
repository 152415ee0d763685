"""The DingTalk reply sink on its own, against the fake OpenAPI: one `append` of the whole
answer (today's core) or many deltas (a streaming core) come out the same, long answers
are split in order, and the "working on it" reply never follows the answer."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

from bot.dingtalk.api import OpenAPI
from bot.dingtalk.markdown import MESSAGE_LIMIT
from bot.dingtalk.timers import Timers
from tests.bot.dingtalk.conftest import make_sink
from tests.support.dingtalk_api import FakeDingTalkAPI

ANSWER = "Here is your **Chengdu** plan:\n\n- morning train, first class\n- hotel near the station"


def test_one_append_or_many_deltas_post_the_same_single_answer(
    dingtalk: FakeDingTalkAPI, parts: tuple[OpenAPI, ThreadPoolExecutor, Timers]
) -> None:
    whole = make_sink(dingtalk, parts)
    whole.append(ANSWER)
    whole.finish()
    whole.close()

    streamed = make_sink(dingtalk, parts)
    for index in range(0, len(ANSWER), 3):  # token-sized deltas
        streamed.append(ANSWER[index : index + 3])
    streamed.finish()
    streamed.close()

    first, second = dingtalk.wait_for(2)
    assert first.text == second.text == ANSWER
    time.sleep(0.2)
    assert len(dingtalk.sent) == 2


def test_a_long_answer_is_split_and_posted_in_order(
    dingtalk: FakeDingTalkAPI, parts: tuple[OpenAPI, ThreadPoolExecutor, Timers]
) -> None:
    paragraphs = [f"Day {day}:" + " visit, eat, rest." * 40 for day in range(1, 15)]
    sink = make_sink(dingtalk, parts)
    for paragraph in paragraphs:
        sink.append(paragraph + "\n\n")
    sink.finish()
    count = len(dingtalk.sent)
    assert count >= 2
    assert all(len(s.text) <= MESSAGE_LIMIT for s in dingtalk.sent)
    joined = "\n\n".join(s.text for s in dingtalk.sent)
    assert joined.split("\n\n") == paragraphs


def test_the_progress_reply_comes_only_for_a_slow_turn_and_never_after_the_answer(
    dingtalk: FakeDingTalkAPI, parts: tuple[OpenAPI, ThreadPoolExecutor, Timers]
) -> None:
    quick = make_sink(dingtalk, parts, progress_after=0.3)
    quick.status("Working on it…")
    quick.append("Quick answer.")
    quick.finish()
    quick.close()
    time.sleep(0.6)
    assert [s.text for s in dingtalk.sent] == ["Quick answer."]

    slow = make_sink(dingtalk, parts, progress_after=0.2)
    slow.status("Working on it…")
    dingtalk.wait_for(2)
    slow.append("Slow answer.")
    slow.finish()
    slow.close()
    assert [s.text for s in dingtalk.sent] == ["Quick answer.", "Working on it…", "Slow answer."]
