"""Round 29 review: defects found in the round's new readings, each checked on what the
traveller sees (bench/README.md, "Round 29 review").

The round's keep-rules kept real amounts (a drive's tolls, a casino's stake, a cab "was a 10",
a fare "is 600"); its Chinese per-unit prices refused counts being booked and missed food sold
by the bowl; its split-identifier check refused ordinary trip facts beside an identifier."""

from __future__ import annotations

import pytest

from memory.privacy.guard import PrivacyGuard
from tests.memory.privacy_verdicts import assert_kept, assert_refused


# Kept by the round as a journey's length, a count played, a score or a clock time: each is
# what was paid.
@pytest.mark.parametrize(
    "text",
    [
        "the drive to the airport was 60 for petrol",
        "the drive was 60 in gas",
        "the drive to Portugal was 400 in tolls and gas",
        "the drive to the lake was 80 with parking",
        "I played 500 on roulette",
        "played 200 at the casino",
        "played 50 on the slots",
        "the cab was a 10",
        "the guide got a 10",
        "got a 10 off the driver",
        "the flight is 600",
        "the boat is 400",
        "the sleeper train is 300",
    ],
)
def test_amounts_the_new_readings_kept_are_refused(text: str) -> None:
    assert_refused(text)


# The readings themselves still hold beside those words.
@pytest.mark.parametrize(
    "text",
    [
        "the walk from the gas station is 10",
        "the walk from the parking lot is 10",
        "played 18 at st andrews",
        "the guide was a 10",
        "gave it a 10",
        "the flight is at 600",
        "the flight is 930",
        "the ferry leaves 800",
    ],
)
def test_lengths_scores_and_times_beside_them_are_kept(text: str) -> None:
    assert_kept(text)


# Food priced by the bowl, plate, skewer or can: "二十一碗" after noodles is 20 a bowl (kept
# as 21 bowls once 碗 and 盘 counted as units), "十五一盘" 15 a plate (read as 61 plates).
@pytest.mark.parametrize(
    "text",
    ["牛肉面二十一碗", "拉面三十一碗", "凉菜二十一盘", "饺子十五一盘", "啤酒十块一罐"],
)
def test_chinese_food_priced_per_bowl_or_plate_is_refused(text: str) -> None:
    assert_refused(text)


# Counts being booked, bought or totted up, and people being seated, refused by the round as
# prices per unit.
@pytest.mark.parametrize(
    "text",
    [
        "门票一共要四十一张",
        "门票订四十一张",
        "门票要订四十一张，学生票",
        "船票要买四十一张",
        "请客户吃饭九十一位，包两个厅",
        "吃饭三十一位，安排大桌",
        "我们点了二十一盘饺子",
        "后面二十一位",
        "粉丝二十一位",
    ],
)
def test_chinese_counts_booked_or_seated_are_kept(text: str) -> None:
    assert_kept(text)


# A trip fact beside an identifier: a part word before a count is no part of the number.
@pytest.mark.parametrize(
    "facts",
    [
        ["card ending 4242", "and the last 3 nights are in a twin"],
        ["my passport is E12345678", "and the tour ends at 5"],
        ["my ID is 110101199003071234", "then the rest 3 days in Hangzhou"],
        ["my phone is 13800138000", "and the first 3 days we stay with friends"],
        ["护照号E12345678", "后面3天在杭州"],
        ["身份证110101199003071234", "后面是3天的行程"],
    ],
)
def test_a_trip_fact_beside_an_identifier_is_stored(facts: list[str]) -> None:
    verdicts = PrivacyGuard(semantic=False).check(facts)
    assert verdicts[0] is not None
    assert verdicts[1] is None


# Halves of one number are still stored in neither fact.
@pytest.mark.parametrize(
    "facts",
    [
        ["passport starts X1234", "ends 5678"],
        ["my card number starts 4111 1111", "and ends 1111 1111"],
        ["身份证前面是110101", "后面是19900307123X"],
    ],
)
def test_halves_of_an_identifier_are_stored_in_neither_fact(facts: list[str]) -> None:
    assert all(PrivacyGuard(semantic=False).check(facts))
