"""Review of round 17 (bench/README.md): false replacements the round left - a report of one
occasion read as a wish ("I was stuck in a window seat again" replaced "I prefer aisle
seats"). What the agent receives after each, through the real
`Memory` on SQLite and PostgreSQL, with the Redis cache."""

from __future__ import annotations

import pytest

from memory.engine import Memory
from tests.memory.change_outcomes import assert_kept_both_unmarked, assert_replaced


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
    memory.record(namespace, [old])
    [outcome] = memory.record(namespace, [new])
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
    ],
)
def test_a_change_said_beside_a_report_still_replaces(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    memory.record(namespace, [old])
    [outcome] = memory.record(namespace, [new])
    assert_replaced(memory, namespace, old, outcome)
