"""Round 27 review: the readings of `memory/privacy/reports.py` that let money through or
refused a height (bench/README.md, round 27, "Review fixes").

Each fix is checked on what the traveller sees: the sentence is kept or refused."""

from __future__ import annotations

import pytest

from tests.memory.privacy_verdicts import assert_kept, assert_refused


# A total or a price takes "hit / reached / topped" too: only a mover or a measure reaches a
# level; "it" is no mover ("it went up to 450 in August" is a price); a need "to get through"
# the week is money, one to get through security a time.
@pytest.mark.parametrize(
    "text",
    [
        "the total hit 450",
        "our spending topped 500",
        "it went up to 450 in August",
        "it goes up to 300 at weekends",
        "I need 300 to get through the week",
        # a pronoun after the thing bought is a relative clause, not the number's owner
        "the coffee I had was 4",
        "the tickets we got were 2 per person",
    ],
)
def test_money_read_as_a_level_is_refused(text: str) -> None:
    assert_refused(text)


@pytest.mark.parametrize(
    "text",
    [
        "the temperature hit 35 by noon",
        "the road climbs and reaches 4,200",
        "I need 30 to get through security",
        "I was 5 minutes late",
        "the tour I did was 3 days",
        # a lift also paid for still goes up to a height
        "the gondola goes up to 2,200",
        "the chairlift goes up to 2,400, skiers only",
    ],
)
def test_levels_and_times_are_still_kept(text: str) -> None:
    assert_kept(text)


def test_a_lift_going_up_to_a_small_number_stays_a_price() -> None:
    assert_refused("the gondola went up to 40 this year")


# "五一" after 块 / 毛 is the tenths of a price and "one" of its rate, never May Day:
# "水两块五一瓶" is 2.5 a bottle, and the holiday itself still reads as a date.
@pytest.mark.parametrize("text", ["水两块五一瓶", "地铁票两块五一张"])
def test_a_price_ending_in_five_before_a_rate_is_refused(text: str) -> None:
    assert_refused(text)


@pytest.mark.parametrize("text", ["五一我们去海边", "国庆、五一这种假期不出门"])
def test_may_day_is_still_kept(text: str) -> None:
    assert_kept(text)
