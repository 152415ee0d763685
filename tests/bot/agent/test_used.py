"""The preferences listed under an answer are the ones that mattered for the request.

A summary carries a traveller's whole profile when it fits (issue 22), so "preferences I
used" cannot be "every fact the summary held": it follows the summary's relevance order
and stops at a few, whatever order the facts were said in.
"""

from __future__ import annotations

from bot.agent.used import MAX_USED, used_preferences
from memory.engine import Memory

RAIL = "高铁要靠窗"
# Said in this order: the rail preference first, a dozen unrelated ones after it.
PROFILE = [
    RAIL,
    "不住青旅",
    "酒店要有健身房",
    "早餐要中式的",
    "不喝咖啡，只喝茶",
    "对海鲜过敏",
    "喜欢住在市中心",
    "出租车比地铁方便",
    "开会的日子别安排太早的行程",
    "积分攒在万豪",
    "房间要安静，远离电梯",
    "周末不想出差",
]


def test_the_preference_that_matters_is_listed_first_and_the_list_is_short(
    memory: Memory, namespace: str
) -> None:
    for fact in PROFILE:  # one turn each, as a person would say them over weeks
        memory.record(namespace, [fact])
    summary = memory.retrieve(namespace, "帮我订下周去杭州的火车票")
    assert RAIL in summary and summary.count("；") >= len(PROFILE) - 2  # the whole profile

    used = used_preferences(memory.items(namespace), [summary], lang="zh", tz="Asia/Shanghai")
    assert used[0].text == RAIL  # said first of all, yet the one this request needs
    assert len(used) == MAX_USED < len(PROFILE)
    assert used[0].when.endswith("说的")


def test_nothing_recalled_lists_nothing(memory: Memory, namespace: str) -> None:
    memory.record(namespace, [RAIL])
    assert used_preferences(memory.items(namespace), [""], lang="en", tz="UTC") == []
    assert (
        used_preferences(memory.items(namespace), ["Prefers an aisle seat."], lang="en", tz="UTC")
        == []
    )
