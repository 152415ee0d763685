"""Round 16 precision follow-up (bench/README.md): statements that share a word or a subject
with a held preference and carry a word that can say a change ("going back to", "done with",
"受够了", "这两年", "as of", "started") yet change no preference - a trip planned, a
give-up word negated, a give-up of something else of a broad subject, a time word beside a
plain statement, a reason for what still holds. The agent keeps receiving the older
preference, nothing marked newer; real changes said with the same words still replace.
Through the real `Memory` on SQLite and PostgreSQL, with the Redis cache."""

from __future__ import annotations

import pytest

from memory.engine import Memory
from tests.memory.change_outcomes import assert_kept_both_unmarked, assert_replaced, said_after


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a trip with a date is a plan, no choice gone back to
        pytest.param("I love Paris", "Going back to Paris next week", id="en-trip-next-week"),
        pytest.param("I love Lisbon", "Going back to Lisbon in May", id="en-trip-in-a-month"),
        pytest.param("我很喜欢成都", "下个月又回成都出差", id="zh-trip-next-month"),
        # a give-up word under a negation gives nothing up
        pytest.param("I like hostels", "I'm not done with hostels", id="en-not-done-with"),
        pytest.param("I love road trips", "I'm not over road trips yet", id="en-not-over"),
        pytest.param("我喜欢住青旅", "青旅还没住够呢", id="zh-not-had-enough-yet"),
        # a give-up of one thing changes no fact sharing only a broad subject with it
        pytest.param("喜欢吃火锅", "吃怕了飞机餐", id="zh-had-enough-of-another-food"),
        pytest.param("喜欢吃火锅", "受够了飞机餐", id="zh-fed-up-with-another-food"),
        pytest.param("I love street food", "I'm sick of plane meals", id="en-another-food"),
        # a time word beside a statement that changes no preference marks nothing
        pytest.param("成都喜欢住春熙路", "这两年去了好多次成都", id="zh-these-years-visits"),
        pytest.param("我喜欢住全季", "这两年出差多了", id="zh-these-years-more-trips"),
        pytest.param("我喜欢住全季", "最近出差多了", id="zh-lately-more-trips"),
        pytest.param("成都喜欢住春熙路", "这几年去了好几次成都", id="zh-these-few-years-visits"),
        pytest.param(
            "I like staying near Shibuya", "I've been to Tokyo a lot lately", id="en-lately-visits"
        ),
        # a reason for what still holds
        pytest.param(
            "I always check a bag",
            "As of last year I have Delta status so bags are free",
            id="en-as-of-status-reason",
        ),
        pytest.param(
            "I always check a bag",
            "I have Delta status now so bags are free",
            id="en-status-now-reason",
        ),
        pytest.param(
            "I like Airbnb",
            "We've started a family so we need two bedrooms",
            id="en-started-a-family",
        ),
        pytest.param("我喜欢住民宿", "现在有孩子了，需要两个卧室", id="zh-now-a-family"),
    ],
)
def test_a_statement_that_changes_no_preference_keeps_the_older_unmarked(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_kept_both_unmarked(memory, namespace, old, new, outcome)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("I stay at Hilton", "I'm done with Hilton", id="en-done-with"),
        pytest.param("I hate red-eyes", "I used to hate red-eyes", id="en-used-to"),
        pytest.param("I like hostels", "I'm over hostels", id="en-over"),
        pytest.param("I love Paris", "I'm done with Paris, too crowded", id="en-done-with-a-city"),
        pytest.param("我喜欢住青旅", "青旅住怕了", id="zh-had-enough-of-staying"),
        pytest.param("喜欢吃火锅", "火锅吃怕了", id="zh-had-enough-of-the-same-food"),
        pytest.param(
            "出差习惯带行李箱托运", "这两年只背个双肩包了，托运太麻烦", id="zh-these-two-years"
        ),
    ],
)
def test_a_real_change_with_the_same_words_still_replaces(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_replaced(memory, namespace, old, outcome)
