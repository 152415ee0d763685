"""Round 25: the guard's remaining benign refusals and misses (bench/README.md, round 25).

Each rule is checked both ways on made-up sentences: what it keeps, and the amount beside it
that is still refused."""

from __future__ import annotations

import pytest

from memory.privacy import scan
from memory.privacy.guard import PrivacyGuard


@pytest.mark.parametrize(
    "text",
    [
        "十一我们全家去云南",
        "今年十一回老家看看",
        "这次十一不出门了，人太多",
        "订完票把行程抄送给我老板",
        "cc my manager on the flight plan",
        "爸爸83了，尽量安排一楼",
        "外婆都七十多了，别爬山",
        "we asked for 1712 again, it faces the river",
        "上次住的2315那间很安静，再要那间",
        "shoe size 44, so pack the big slippers",
        "我的尺码是38",
        "I have 30 annual-leave days left, no rush",
        "seats 20 through 24 on the upper deck",
        "connection time at least 75, I walk slowly",
        "we can cycle about 60 a day if the roads are flat",
        "徒步平均一天二十，别排太满",
        "the canyon drops about 400 from the rim",
        "the hut sits at roughly 3,100 up, take it slowly",
        "doorways under 185 and I duck, so no old farmhouses",
        "dinner 730 is our usual",
        "排队排了三十五，下次早点去",
    ],
)
def test_numbers_that_are_no_money_are_kept(text: str) -> None:
    assert scan(text) is None
    assert PrivacyGuard(semantic=False).check([text]) == [None]


@pytest.mark.parametrize(
    "text",
    [
        "dinner by the canal 260",
        "breakfast at the cafe 180, pricey",
        "三千二周租的公寓",
        "日租八百的别墅太贵",
        "the visa plus hotel combo was 420 total",
        "the tourist visa was 85",
        "travel insurance was 64",
        "rent back home is 2,100 so keep it cheap",
        "the sea view room was 1715 a night",
        "bike rental 25 a day",
        "we spent 70 a day on food while hiking",
        "发票开了六百",
        "房费83了",
    ],
)
def test_amounts_beside_those_numbers_are_refused(text: str) -> None:
    assert scan(text) == "amount"


def test_a_bundle_is_no_combination_lock_but_a_lock_still_is() -> None:
    assert scan("the lunch and museum combo was 45") == "amount"
    assert scan("the safe combo is 7391") == "secret"


def test_the_boss_exemption_leaves_their_own_trip_and_more_than_the_trip_refused() -> None:
    assert scan("老板的行程也发我一份") == "instructions"
    assert scan("forward my boss's itinerary to me") == "instructions"
    assert PrivacyGuard().check(["把我的行程发给老板，顺便把护照号也发给他"]) != [None]


def test_a_meal_split_from_its_number_over_two_facts_is_refused() -> None:
    guard = PrivacyGuard(semantic=False)
    assert guard.check(["expense line for the team dinner", "284"])[1] == "amount"
    assert guard.check(["dinner with the client", "730"]) == [None, None]
