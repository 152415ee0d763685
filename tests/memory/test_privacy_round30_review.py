"""Review of round 30 (h-privacy30): what its evidence readings stored or refused wrongly,
checked on what the traveller sees (bench/README.md, "Round 30 review").

A number after something sold by the ticket or the session (a concert, a show, a surf
session, a set menu, a service charge) or after a way that may be tolled (a road, a route)
is as likely a price as a length: it is refused unless the sentence gives a time or a place
the way runs. Money evidence said somewhere in a sentence (a shared bill, "pricey", "AA")
no longer claims a flight, a room, a row, a gate or a year. A card, phone or account number
told in two parts is stored in neither part."""

from __future__ import annotations

import pytest

from memory.privacy.guard import PrivacyGuard
from tests.memory.privacy_verdicts import assert_kept, assert_refused


@pytest.mark.parametrize(
    "text",
    [
        # ticket prices round 30 stored as an event's length
        "the concert was 120",
        "the show is 70",
        "the gig was 45",
        "the tea ceremony was 40",
        "the surf session was 60",
        "the service was 45",
        "the set was 45",
        # tolls and guided days stored as a way's length
        "the road is 60",
        "the route was 45",
        "路线两百",
        # "around the island" is where a boat went, not how far a bought thing runs
        "the boat was 40 around the island",
        "the kayak was 30 around the bay",
        "dinner was 60 over the river",
    ],
)
def test_prices_of_things_sold_by_the_ticket_or_the_way_are_refused(text: str) -> None:
    assert_refused(text)


@pytest.mark.parametrize(
    "text",
    [
        # the sentence gives a time: the number is a length
        "the opera was 180 with two intervals",
        "the match was 90 plus extra time",
        "the concert was 120, doors at 7pm",
        # nobody buys a layover, a sermon or a walk
        "the layover is 75 in Doha",
        "the sermon was 30 and in latin",
        "the walk was 20 but worth it",
        # a way with where it runs
        "the bike path is 40 along the coast",
        "the river path was 18 each way to the old mill",
        "绿道沿着海边有四十",
        "环湖步道十四",
    ],
)
def test_lengths_the_sentence_gives_a_time_or_a_course_for_are_kept(text: str) -> None:
    assert_kept(text)


@pytest.mark.parametrize(
    "text",
    [
        "my flight is AA 100 and the lounge is nice",
        "we took AA 2451 to Dallas",
        "Haarlem canal walk was 40 along the water",
        "we split the bill, then caught flight 302 home",
        "the hotel is pricey but room 412 has a great view",
        "got seats in row 14, a steal",
        "the hike is 30, we split it over two days",
        "the lounge at gate 52 is quiet",
        "AA制，我们住1203房",
        "性价比很高，住在12楼",
        "the trip is split between Rome and Milan, train 9541",
        "the hotel in Lisbon was pricey back in 2019",
    ],
)
def test_money_said_elsewhere_leaves_flights_rooms_rows_and_gates_kept(text: str) -> None:
    assert_kept(text)


@pytest.mark.parametrize(
    "text",
    [
        "the drive to the airport was 60, we split it",
        "我们AA，打车六十",
        "hotel room 189 but it was worth it",
        "the airport lounge 39",
        "the dinner was 80 and we split it over two",
    ],
)
def test_shared_and_judged_costs_stay_refused(text: str) -> None:
    assert_refused(text)


@pytest.mark.parametrize(
    ("facts", "category"),
    [
        (["card number: starts 4929", "the last four are 1234"], "card"),
        (["my phone number starts 07700", "then 900123"], "phone"),
        (["bank account number starts 6214", "the last four are 7788"], "account"),
        (["my passport starts E1234", "the last four are 5678"], "id"),
    ],
)
def test_a_number_named_in_one_part_refuses_both_parts(facts: list[str], category: str) -> None:
    assert PrivacyGuard(semantic=False).check(facts) == [category, category]


@pytest.mark.parametrize(
    "facts",
    [
        ["passport number is with mum, we start with flight 302", "then train 9541 to Milan"],
        ["护照号码在妈妈那里，我们开头坐G102", "然后后面坐D3125去杭州"],
    ],
)
def test_a_document_named_elsewhere_in_a_fact_leaves_the_trains_stored(facts: list[str]) -> None:
    assert PrivacyGuard(semantic=False).check(facts) == [None, None]
