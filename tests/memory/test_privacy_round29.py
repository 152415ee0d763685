"""Round 29: numbers told in chat by the words right around them, and Chinese prices said per
unit (bench/README.md, "privacy round 29"; `memory/privacy/told.py`, `numerals.py`).

Each reading is checked both ways on what the traveller sees: the sentence is kept or refused."""

from __future__ import annotations

import pytest

from memory.privacy.guard import PrivacyGuard
from memory.privacy.text import normalise
from tests.memory.privacy_verdicts import assert_kept, assert_refused


# Numbers that are no money, refused before the round: a journey one makes oneself told by
# its length, what one did counted by its verb, a depth, a score out of ten, a service's clock
# time, a vehicle's seats.
@pytest.mark.parametrize(
    "text",
    [
        "the drive to the lake is 45",
        "the walk from the station was 15",
        "played 18 at st andrews",
        "I can lift 20 on my own",
        "we dove to 30 on the second day",
        "the dive site is at 30 so advanced only",
        "the reef is 20 down",
        "the food there was a 10",
        "the flight is 930",
        "the ferry leaves 745",
        "we rented the 12 seater van last time",
        "a 7-seater is enough for us",
    ],
)
def test_numbers_told_by_their_words_are_kept(text: str) -> None:
    assert_kept(text)


# The same shapes with money in the clause, or bought, stay amounts; so do prices told the
# ways the readings sit beside.
@pytest.mark.parametrize(
    "text",
    [
        "the drive to the airport was 60 with the hotel car service",
        "the drive to the airport was 60 for the private transfer",
        "the walk was 15 each with the guide",
        "played 18 and paid 60 for the round",
        "the dive site is at 30 a head",
        "the reef trip was 20 down from 35",
        "the flight was 930",
        "the flight is 940",
        "the ferry is 745 return",
        "the 12 seater van was 140 for the day",
        "the cab was 45",
        "the airbnb in lisbon was 95/night",
        "I make about 85k so mid range hotels pls",
    ],
)
def test_prices_beside_the_readings_are_refused(text: str) -> None:
    assert_refused(text)


# Chinese: a price per unit said after a thing bought ("九十一位" is 90 a head there), a
# spoken "十五一小时" that was read as 61 hours, what was drunk or eaten said as a sum, and
# what one offers up to.
@pytest.mark.parametrize(
    "text",
    [
        "请客户吃饭最多九十一位",
        "门票四十一张",
        "按摩八十一个钟",
        "停车十五一小时",
        "停车15一小时",
        "咖啡三十一杯",
        "我们一晚上喝了七百",
        "中午吃了两百多",
        "有景观的房间最多出到二百六",
    ],
)
def test_chinese_prices_per_unit_and_sums_are_refused(text: str) -> None:
    assert_refused(text)


@pytest.mark.parametrize(
    "text",
    [
        "我们九十一位",
        "门票买了四十一张",
        "一共二十一个人",
        "吃饭二十一位都坐得下",
        "孩子十一岁",
        "二〇一一年去过一次",
        "吃了12串烤串",
        "喝了三杯咖啡还是困",
        "孩子玩了三个小时",
        "我们吃了二十个饺子",
        "坐了二十一站地铁才到",
        "房间在二十一层",
        "有景观的房间，最好1208那间",
    ],
)
def test_chinese_counts_beside_them_are_kept(text: str) -> None:
    assert_kept(text)


def test_a_spoken_price_per_hour_is_read_as_the_traveller_said_it() -> None:
    # "十五一小时" is 15 an hour; it was read as 61 hours, so a parking fee passed as a duration.
    assert normalise("停车十五一小时").text == "停车15一小时"
    assert normalise("停车15一小时").text == "停车15一小时"
    assert normalise("请客户吃饭最多九十一位").text == "请客户吃饭最多90一位"
    assert normalise("我们九十一位").text == "我们91位"


def test_a_turn_keeps_its_times_and_refuses_its_split_price() -> None:
    guard = PrivacyGuard(semantic=False)
    assert guard.check(["the flight is 930", "gate 23, row 12 aisle"]) == [None, None]
    assert guard.check(["停车场", "十五一小时"])[1] == "amount"


def test_an_identifier_split_into_its_start_and_end_is_stored_in_neither_fact() -> None:
    guard = PrivacyGuard(semantic=False)
    # Before the round the first half was stored: only "ends 5678" was read as a passport's.
    assert guard.check(["my passport number starts X1234", "and ends 5678"]) == ["id", "id"]
    assert all(guard.check(["身份证前面是110101", "后面是19900307123X"]))
    # A part word away from the number, or an ordinary fact beside an identifier, is kept.
    assert guard.check(["my passport is E12345678", "and the first leg is flight 21"])[1] is None
    assert guard.check(["card ending 4242 for the hotel", "and the last row 30 is fine"])[1] is None
