"""Round 30: the evidence a sentence gives for a bare number, checked on what the traveller
sees (bench/README.md, "Round 30").

Money is marked by a cost shared, a shop the number was left at, a judgement of price or a
lounge; a measure by the length of an event or a way, or by where the number runs. A passport
number told in two parts is stored in neither fact."""

from __future__ import annotations

import pytest

from memory.engine import Memory
from memory.privacy.guard import PrivacyGuard
from tests.memory.privacy_verdicts import assert_kept, assert_refused


@pytest.mark.parametrize(
    "text",
    [
        "the drive to the airport was 60, we split it",
        "the taxi 45, we split it",
        "我们AA，打车六十",
        "scored 200 at the duty free",
        "dropped 80 at the outlet mall",
        "the show was 90, a bit pricey",
        "hotel room 189 but it was worth it",
        "the airport lounge 39",
        "酒店房间一百八十九但是值",
        # what a thing bought owns stays money beside a way or an event
        "the hut on the trail is 50 a bed",
        "the cab was 40 across town",
        "the tour was 40 around the old town",
        "the concert was 120 and the tickets were 80",
    ],
)
def test_amounts_the_sentence_marks_as_money_are_refused(text: str) -> None:
    assert_refused(text)


@pytest.mark.parametrize(
    "text",
    [
        "the gig is 45 minutes and then we drive on",
        "the set is 90, on at 10pm, so we need a late dinner",
        "the layover is 75 in Doha",
        "the bike path is 40 along the coast",
        "the trail is 14 around the lake",
        "the canal towpath is 25 into town",
        "the night train 401",
        "门票要四十一张",
        "环湖步道十四",
        # the money evidence needs money: no cost shared, no shopping, a seat, a wait
        "we split the driving, the drive was 60",
        "we were 12 at the market",
        "waited 40 at the duty free",
        "lounge 3 is the quiet one",
        "the seat 14 was worth it for the view",
        # effort is worth it too: a walk's or a hike's length stays one
        "the walk was 20 but worth it",
        "the hike is 12 but so worth it",
    ],
)
def test_lengths_counts_and_numbers_without_money_evidence_are_kept(text: str) -> None:
    assert_kept(text)


def test_a_passport_number_told_in_two_parts_is_stored_in_neither(
    memory: Memory, namespace: str
) -> None:
    outcomes = memory.record(
        namespace,
        ["passport number: starts X1234", "the last four are 5678", "aisle seats please"],
    )
    assert [(o.status, o.code) for o in outcomes] == [
        ("rejected", "id"),
        ("rejected", "id"),
        ("added", ""),
    ]
    assert [item.text for item in memory.items(namespace)] == ["aisle seats please"]


@pytest.mark.parametrize(
    "facts",
    [
        ["passport number: starts X1234", "the last four are 5678"],
        ["身份证号开头是110101", "最后四位是1234"],
    ],
)
def test_both_parts_of_a_named_document_number_are_refused(facts: list[str]) -> None:
    assert PrivacyGuard(semantic=False).check(facts) == ["id", "id"]


@pytest.mark.parametrize(
    "facts",
    [
        ["the last 3 nights are in a twin", "passport number: starts X1234"],
        ["the layover is 90", "the night train 401"],
        ["门票要四十一张", "最后两天在杭州"],
    ],
)
def test_trip_facts_beside_a_part_are_stored(facts: list[str]) -> None:
    assert PrivacyGuard(semantic=False).check(facts)[0] is None
