"""Round 22 (issue 22): amounts and numbers that are not money in voices the earlier sets
lacked (chat shorthand, Cantonese and Taiwanese wording), read by the rules
(bench/README.md)."""

from __future__ import annotations

import pytest

from memory.privacy import scan

REFUSED = (
    "加班费拿了一千五周末去趟厦门",  # 周末 is a weekend, not 五周 (five weeks)
    "加班费拿了一千五",
    "the extra legroom seat was 89 and totally worth it",  # a value judged worth it
    "早餐一位180，唔抵",
    "高鐵台北到高雄1490",  # 高 of 高雄 or 高鐵 is no height
    "高铁到高雄一千四百九",
)

KEPT = (
    "住了三周",  # weeks are still a unit
    "seat 14 was worth it for the view",  # a seat's number, not a value
    "waits over 15 at the taxi rank, just book a car",  # a wait, in minutes
    "the 3 hour hike was totally worth it",
    "我老公长得高，185",  # a height said with 高
    "个子高 185",
)


@pytest.mark.parametrize("text", REFUSED)
def test_amounts_in_other_voices_are_refused(text: str) -> None:
    assert scan(text) == "amount"


@pytest.mark.parametrize("text", KEPT)
def test_numbers_that_are_no_money_are_kept(text: str) -> None:
    assert scan(text) is None
