"""Round 28: numbers stated around a journey, a meal's hours or a price (bench/README.md,
"privacy round 28"; `memory/privacy/stated.py`).

Each reading is checked both ways on what the traveller sees: the sentence is kept or refused."""

from __future__ import annotations

import pytest

from tests.memory.privacy_verdicts import assert_kept, assert_refused


# Amounts the guard let through before the round: a range of prices, an approximate fare, a
# total, a price with what it came with, a fare of a kind of service, small drinks, Chinese
# tenths and yuan said the spoken way.
@pytest.mark.parametrize(
    "text",
    [
        "hostels ~25-30 in SE Asia",
        "hostels were 25-30 in Laos",
        "please keep flights to Lima around 850",
        "flights to Bali around 650",
        "ferry 2 adults 1 kid 74 total",
        "the room was 89 with breakfast",
        "night bus 14, the day train 38",
        "beer 3 at the beach bar",
        "lunch at the market 6",
        "厕所五毛",
        "停车场五毛一小时",
        "水两块五一斤",
        "两块五一斤的橘子",
        # already refused before the round, kept as the bar any change must hold
        "taxi 40",
        "40 for the taxi",
        "40$",
        "my spending in Vietnam was about 35 a day",
        "for the hotel keep it under 150",
        "daily allowance is 75",
        "the bonus this year was 4000",
        "the ferry ride is 35 and worth it",
        "the tour was 80 and worth every penny",
        "the boat was 40 and we split it",
        "the bus was 12 and I paid cash",
        "the boat was 40 and the captain was nice",
        "the gondola was 28 return",
        "the taxi is 7 to 10",
        "breakfast is 7 to 10 euros",
        "hotels under 120 please",
        # judged, not changed: a ticket "for us" and a meal "was N" are how a price is told
        "tickets were 2 for us",
        "breakfast was 7",
    ],
)
def test_amounts_stated_are_refused(text: str) -> None:
    assert_refused(text)


# Numbers that are no money: a journey's length told with the way, a span of hours, a distance
# run, and the times, floors and sizes beside the new money readings.
@pytest.mark.parametrize(
    "text",
    [
        "the drive was 300 with two stops",
        "the ferry crossing is 90 if the sea is calm",
        "the ride is 40 if traffic is ok",
        "the flight home was 13 with a stop",
        "the bike tour was 60 and hilly",
        "the tour was 8 with lunch stops",
        "the train up the mountain was 45 and stunning",
        "the flight was 11 and I slept most of it",
        "the temple steps are 300, brutal",
        "that hostel scored 9.1 on the app",
        "breakfast is 7 to 10",
        "the pool is open 7 to 9",
        "check-in is 2 till midnight",
        "breakfast was at 7",
        "breakfast was 7 sharp",
        "dinner 8 at the harbour",
        "I ran 12 along the beach every morning",
        "prefer flights around 0900",
        "flights 0800-1100 work best",
        "flights around 10 in the morning",
        "rooms on floors 20-25",
        "prefer rooms 1001-1020 at the Shangri-La, higher floors",
        "hotel rooms under 25 square meters are too small",
        "hostels had 25-30 beds",
        "night bus 14 goes to Camden",
        "I take the night bus 14",
        "我喜欢三毛",
        "读过三毛的书",
        "早餐7点到10点",
    ],
)
def test_numbers_that_are_no_money_are_kept(text: str) -> None:
    assert_kept(text)
