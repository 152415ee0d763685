"""Review of round 17 (bench/README.md): false replacements the round left - a report of one
occasion read as a wish ("I was stuck in a window seat again" replaced "I prefer aisle
seats"), and one thing of a kind given up read as the whole kind ("I quit whisky" replaced
"I love cocktails at the hotel bar"). What the agent receives after each, through the real
`Memory` on SQLite and PostgreSQL, with the Redis cache."""

from __future__ import annotations

import pytest

from memory.engine import Memory
from tests.memory.change_outcomes import assert_kept_both_unmarked, assert_replaced, said_after


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            "I prefer aisle seats", "I was stuck in a window seat again", id="en-stuck-again"
        ),
        pytest.param(
            "I prefer aisle seats",
            "I got a window seat again on my last flight",
            id="en-got-one-last-flight",
        ),
        pytest.param(
            "I like window seats",
            "The aisle was taken again so I sat by the window",
            id="en-sat-by-the-window",
        ),
        pytest.param("我喜欢靠过道", "上次又被分到靠窗的位子", id="zh-given-a-window-last-time"),
    ],
)
def test_a_report_of_one_occasion_keeps_the_preference_unmarked(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_kept_both_unmarked(memory, namespace, old, new, outcome)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            "I prefer aisle seats",
            "After being stuck in the middle on my last flight, I now want a window seat",
            id="en-report-then-a-change",
        ),
        pytest.param(
            "我喜欢靠过道", "上次被分到靠窗，发现其实更喜欢靠窗", id="zh-report-then-a-change"
        ),
        pytest.param("我晚饭喜欢喝点红酒", "我已经不喝酒了", id="zh-the-kind-whole-given-up"),
        pytest.param(
            "I love the Ritz-Carlton",
            "I've stopped staying at the Ritz",
            id="en-the-same-chain-in-short",
        ),
    ],
)
def test_a_change_beside_a_report_of_a_whole_kind_or_the_same_thing_replaces(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_replaced(memory, namespace, old, outcome)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("I love cocktails at the hotel bar", "I quit whisky", id="en-whisky"),
        pytest.param(
            "I have a glass of wine with dinner", "I've stopped drinking beer", id="en-beer"
        ),
        pytest.param("我喜欢喝红酒", "我现在不喝白酒了", id="zh-baijiu"),
        pytest.param("I like hostels", "I don't do Airbnbs anymore", id="en-airbnb"),
        pytest.param("我喜欢住民宿", "青旅现在不住了", id="zh-youth-hostel"),
        pytest.param("I stay at Marriott", "I've stopped staying at Hilton", id="en-hilton"),
    ],
)
def test_another_thing_of_a_kind_given_up_keeps_the_older_unmarked(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_kept_both_unmarked(memory, namespace, old, new, outcome)
