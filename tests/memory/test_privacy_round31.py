"""Round 31: what a sentence says about a bare number, checked on what the traveller sees
(bench/README.md, "Round 31").

A verb of lasting or stopping, an event that ran, the part of the day a session is held in, a
match that went to penalties, a vehicle one rides or that runs, a Chinese drive or walk one
makes oneself, golf holes, a floor of a venue a hotel owns: no money. A number "for the
guide" or "for our driver": their pay. Half an ID or passport number named as such is refused
even when its other half never comes."""

from __future__ import annotations

import pytest

from memory.engine import Memory
from memory.privacy.guard import PrivacyGuard
from tests.memory.privacy_verdicts import assert_kept, assert_refused


@pytest.mark.parametrize(
    "text",
    [
        "the tour lasted 90 and the kids were bored",
        "the talk went on for 40, then drinks",
        "the lecture ran 50 and then there was lunch",
        "the yoga class is 75 in the morning",
        "the spin class is 45 every morning",
        "the match was 90 and went to penalties",
        "我喜欢坐夜车401去西安",
        "搭夜班公交381回酒店",
        "夜班公交381就停在酒店门口",
        "打了十八洞高尔夫",
        "we played 18 holes before the flight",
        "the tour bus stops 20, then drives on",
        "每个观景台停二十",
        "开车去酒庄九十，一路都是山",
        "走路到古城二十",
        # a floor belongs to the venue nearest it, not to the hotel that owns the venue
        "the hotel's rooftop is on 31 and opens at 5",
    ],
)
def test_lengths_rides_and_holes_are_kept(text: str) -> None:
    assert_kept(text)


@pytest.mark.parametrize(
    "text",
    [
        "the hike was 120 for the guide",
        "we paid 80 for our driver",
        "the dive was 60 for the instructor",
        # no lasting, no running, no time of day: a class or a tour's number is its price
        "the yoga class is 75",
        "the tour ran 90",
        "the taxi ran me 40",
        "the tour lasted 90 and cost 60 a head",
        # a hailed ride's number is its fare, ridden or not
        "坐出租车45到酒店",
        "夜车四百",
        # a drive or a stop beside a fee, a rental or a hired car is its cost
        "开车去机场停车费六十",
        "租车一天三百",
        "打车去机场六十",
        "停车二十",
        "the hotel rooftop bar on 58 was 30 a cocktail",
    ],
)
def test_pay_and_prices_stay_refused(text: str) -> None:
    assert_refused(text)


def test_half_a_passport_number_is_not_stored(memory: Memory, namespace: str) -> None:
    outcomes = memory.record(namespace, ["passport number: starts X1234", "aisle seats please"])
    assert [(o.status, o.code) for o in outcomes] == [("rejected", "id"), ("added", "")]
    assert [item.text for item in memory.items(namespace)] == ["aisle seats please"]


@pytest.mark.parametrize(
    "fact",
    ["my passport starts with E1234", "身份证开头是110101", "passport number: starts X1234"],
)
def test_a_named_part_of_an_id_alone_is_refused(fact: str) -> None:
    assert PrivacyGuard(semantic=False).check([fact]) == ["id"]


@pytest.mark.parametrize(
    "fact",
    ["passport renewed, then 302 home", "the night train 401", "坐夜车401"],
)
def test_a_number_after_a_list_word_or_a_vehicle_is_no_document_part(fact: str) -> None:
    assert PrivacyGuard(semantic=False).check([fact]) == [None]
