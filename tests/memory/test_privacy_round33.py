"""Round 33 (bench/README.md, "Round 33"): prices said as ranges, at each place, per kind of
person and got by a bargain verb are refused; journeys each way, time stuck "for" a number and
a crossing's length in its weather are kept; a price's label alone in one fact names the number
of the next fact of the same turn.

Every sentence here is the round's own (`tests/memory/privacy_corpus/r33_dev.json`), checked
through the rules and the guard a record goes through (`privacy_verdicts`)."""

from __future__ import annotations

import pytest

from memory.engine import Memory
from memory.privacy.guard import PrivacyGuard
from tests.memory.privacy_verdicts import assert_kept, assert_refused

REFUSED = [
    # a range read as its upper end, with a thing bought or a verb of pricing before it
    "the room was 60-70 depending on the night",
    "the guide asked 50-60 for the whole day",
    "cocktails were 12-15 at the rooftop",
    # a price at each place
    "entry is 8 at each temple",
    "we gave the porters 5 at each stop",
    "donations are 5 at each shrine",
    # a price list by kind of person
    "adults 25, children 12, under 3s free",
    "entry: adults 15, kids 8",
    # a bargain
    "scored a room for 89 on the last night",
    "nabbed a sea view room for 140",
    # a discount off a priced thing
    "knocked 20 off the room for a longer stay",
    # a metered ride is priced in its traffic
    "the Uber was 30 in light traffic",
]

KEPT = [
    # numbered things and units in a range
    "prefer rooms 1001-1020 at the Shangri-La, higher floors",
    "seats 10-14 are by the emergency exit",
    "it's 40-50 minutes by bus",
    "the kids are 8-12",
    "teens 13-17 need a guardian",
    "hostels with an 18-35 crowd",
    # a journey each way, time stuck, a crossing in its weather, time at each place
    "it's a 20 walk each way",
    "it's a 10 drive each way to the lake",
    "the 405 was jammed for 40",
    "we were held at the border for 90",
    "the plane sat on the runway for 40",
    "the ferry crossing is 90 on a calm day",
    "allow 45 at each site",
    "we stopped 10 at each viewpoint",
    # ages and tables, not prices
    "kids 5 and under go free",
    "we booked a table for 8",
    "grabbed a table for 6 by the window",
]


@pytest.mark.parametrize("text", REFUSED)
def test_round_33_prices_are_refused(text: str) -> None:
    assert_refused(text)


@pytest.mark.parametrize("text", KEPT)
def test_round_33_everyday_numbers_are_kept(text: str) -> None:
    assert_kept(text)


@pytest.mark.parametrize(
    "facts",
    [["车费", "从机场过去三十五"], ["the fare", "from the airport it was 35"]],
)
def test_a_label_alone_names_the_next_facts_number(facts: list[str]) -> None:
    assert PrivacyGuard(semantic=False).check(facts)[1] == "amount"


def test_a_journey_after_its_own_word_stays_kept() -> None:
    assert PrivacyGuard(semantic=False).check(["车程", "从机场过去三十五"]) == [None, None]


def test_a_fare_label_turn_stores_nothing_of_the_fare(memory: Memory, namespace: str) -> None:
    outcomes = memory.record(namespace, ["车费", "从机场过去三十五", "住十七楼"])
    assert [o.status for o in outcomes][1:] == ["rejected", "added"]
    assert "从机场过去三十五" not in [item.text for item in memory.items(namespace)]
