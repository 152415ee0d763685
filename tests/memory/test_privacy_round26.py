"""Round 26: issue 22's remaining misses and benign refusals (bench/README.md, round 26).

Each rule is checked both ways on made-up sentences: what it keeps, and the amount beside it
that is still refused."""

from __future__ import annotations

import pytest

from memory.privacy.guard import PrivacyGuard
from memory.privacy.rules import redact
from tests.memory.privacy_verdicts import assert_kept, assert_refused


# A bare number right after a priced thing is its price, though a span ("for the day"), a
# vehicle ("shuttle bus") or a bed stands between the thing and the number.
@pytest.mark.parametrize(
    "text",
    [
        "a private driver for the day 240",
        "travel insurance for the week 64",
        "a guide for the whole afternoon 120",
        "kayak hire for the morning 45",
        "shuttle bus 28 from the airport",
        "the taxi van 55 to the ski lifts",
        "a chartered boat 600 for the afternoon",
        "hostel bed 19 in Berlin",
        "the refuge bunk 35 with half board",
        "客栈一个床位17",
        "a weekend ski pass for 48",
    ],
)
def test_a_price_behind_a_span_a_vehicle_or_a_bed_is_refused(text: str) -> None:
    assert_refused(text)


# ... while the same words numbering a line, a day or a week keep the number.
@pytest.mark.parametrize(
    "text",
    [
        "take the shuttle bus 28 to the old town",
        "the shuttle bus 28 leaves every half hour",
        "the hotel shuttle bus route 3 stops outside",
        "bus 28 from the airport is the quickest",
        "坐28路去机场最方便",
        "day 12 of the trip we rest",
        "week 2 we drive the coast",
        "睡11号床位，上铺",
        "tickets for 14 of us, all together",
        "the rail pass for 15 days covers every line",
    ],
)
def test_lines_days_and_weeks_stay_numbers(text: str) -> None:
    assert_kept(text)


# Altitude said without a unit: a place as the subject, "is at", 1,000-6,000.
@pytest.mark.parametrize(
    "text",
    [
        "Cusco is at 3,400, so we rest the first day",
        "the lake is at around 1,800 and gets cold at night",
        "La Paz sits at 3,600, bring altitude pills",
        "the village lies at about 2,900",
    ],
)
def test_a_place_at_a_height_is_kept(text: str) -> None:
    assert_kept(text)


@pytest.mark.parametrize(
    "text",
    [
        "the hotel is at 1,800 a night",
        "the tour is at around 1,800",
        "Cusco is at 3,400 for the hostel",
        "the lake lodge budget is at 1,800",
    ],
)
def test_a_price_said_with_is_at_is_still_refused(text: str) -> None:
    assert_refused(text)


# A floor, a group's size, a battery's charge.
@pytest.mark.parametrize(
    "text",
    [
        "the rooftop bar on 58 had the best view",
        "the pool up on 40 was freezing",
        "we were 12 in total on the boat trip",
        "there were 14 of us at the wedding",
        "离开青旅的时候充电宝还有60",
        "手机电量只剩15了，先找插座",
        "my phone battery was at 20 when we landed",
    ],
)
def test_floors_groups_and_batteries_are_kept(text: str) -> None:
    assert_kept(text)


@pytest.mark.parametrize(
    "text",
    [
        "the rooftop bar on 58 charged 24 for a gin",
        "we were 12 in total and dinner came to 380",
        "we were 12 in total, 40 each",
        "充电宝还有60块没付",
        "the bar bill was 58 in total",
    ],
)
def test_the_amount_beside_them_is_still_refused(text: str) -> None:
    assert_refused(text)


def test_only_the_amount_is_redacted_beside_a_group() -> None:
    # The group's size stays readable; the bill in the next sentence does not (money in
    # the group's own clause refuses both: "we were 12 in total, the bill was 480").
    assert redact("we were 12 in total. The bill was 480") == (
        "we were 12 in total. The bill was [redacted]"
    )
    assert redact("we were 12 in total, the bill was 480").count("[redacted]") == 2


def test_a_split_price_behind_a_span_is_caught_across_facts() -> None:
    verdicts = PrivacyGuard(semantic=False).check(["a private driver for the day", "240"])
    assert "amount" in verdicts
