"""Round 17 (bench/README.md): changes of mind whose two facts share no word, and defects
of the offline reader - a complaint read as a liking ("东航老延误"), a change still under way
("I'm getting used to red-eyes") replacing what it has not yet replaced, a "不…了" phrase
hiding the word it shares, 中 read as a stop character ("早餐现在改吃中式了" read as a repeat),
a kind given up (wine is alcohol), another chain made the habit with the older named only
as the reason. What the agent receives after each, through the real `Memory` on SQLite and
PostgreSQL, with the Redis cache."""

from __future__ import annotations

import pytest

from memory.engine import Memory
from tests.memory.change_outcomes import (
    assert_kept_both_marked_newer,
    assert_kept_both_unmarked,
    assert_replaced,
    said_after,
)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("早餐喜欢吃西式的", "早餐现在改吃中式了", id="zh-western-to-chinese"),
        pytest.param("我一般坐国航", "国航老延误，以后改坐东航", id="zh-complaint-then-switch"),
        pytest.param("晚上常叫客房送餐", "现在不在房间吃饭了", id="zh-not-in-the-room-anymore"),
        pytest.param(
            "I have a glass of wine with dinner", "I've given up alcohol", id="en-wine-is-alcohol"
        ),
        pytest.param(
            "I enjoy a whisky at the hotel bar", "No more alcohol for me", id="en-whisky-alcohol"
        ),
        pytest.param(
            "I like Premier Inn",
            "Travelodge is my go-to since Premier Inn put their prices up",
            id="en-another-chain-made-the-habit",
        ),
    ],
)
def test_a_change_sharing_no_word_or_read_wrong_before_replaces(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_replaced(memory, namespace, old, outcome)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("我喜欢坐东航", "东航老延误", id="zh-complaint-after-a-liking"),
        pytest.param("东航我不坐", "东航老延误", id="zh-complaint-after-an-avoidance"),
        pytest.param("I fly Delta", "Delta is always late", id="en-complaint"),
        pytest.param(
            "I take an Uber from the airport", "Uber was late again at JFK", id="en-late-again"
        ),
        pytest.param("打车用滴滴", "滴滴司机今天又迟到了", id="zh-late-again"),
        # a slot's preference said again with more is no change of it
        pytest.param(
            "I like window seats",
            "Window seat again please, last trip I got stuck in the middle",
            id="en-said-again-with-more",
        ),
        pytest.param("喜欢住希尔顿", "这么多年还是最喜欢希尔顿", id="zh-said-again-with-more"),
        pytest.param(
            "I like Premier Inn",
            "Travelodge was full since Premier Inn had a conference",
            id="en-another-chain-no-habit",
        ),
    ],
)
def test_a_complaint_or_an_event_keeps_the_older_unmarked(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_kept_both_unmarked(memory, namespace, old, new, outcome)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("I hate red-eyes", "I'm getting used to red-eyes", id="en-getting-used-to"),
        pytest.param("我不喜欢坐红眼航班", "红眼航班现在慢慢习惯了", id="zh-slowly-used-to"),
    ],
)
def test_a_change_still_under_way_keeps_both_and_says_which_is_newer(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_kept_both_marked_newer(memory, namespace, old, new, outcome)


def test_a_kind_given_up_replaces_its_own_fact_among_others(memory: Memory, namespace: str) -> None:
    others = ["I prefer an aisle seat", "Quiet room on a high floor", "I love street food"]
    old, new = "I have a glass of wine with dinner", "I've given up alcohol"
    memory.record(namespace, [*others, old])
    [outcome] = memory.record(namespace, [new])
    assert_replaced(memory, namespace, old, outcome)
    assert all(text in memory.retrieve(namespace, "") for text in others)
