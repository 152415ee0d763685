"""Round 28 review: the readings of `memory/privacy/stated.py` (and the distance run of
`reports.py`) that let money through, and the new money readings that refused a count, an age
or a time (bench/README.md, round 28, "Review fixes").

Each fix is checked on what the traveller sees: the sentence is kept or refused."""

from __future__ import annotations

import pytest

from tests.memory.privacy_verdicts import assert_kept, assert_refused


# Prices the round's readings kept: a journey's number that is no plausible length (a flight
# over a day's hours, a ride of 89 minutes), a condition of buying ("if you book early"), a
# meal's "hours" outside its meal, a bar's or a sauna's "hours" with no opening word, money
# "run" on something bought; and a flight's price a stop no longer hides.
@pytest.mark.parametrize(
    "text",
    [
        "the flight home was 780 with a stop in Dubai",
        "the flight was 450 with a stop",
        "the flight was 450",
        "the train was 89 and I slept most of it",
        "the bus to Hanoi was 25 if you book early",
        "the train was 45 if you book ahead",
        "the ferry is 35 if we go on Tuesday",
        "the ride is 40 if we go together",
        "breakfast was 15 to 20",
        "lunch was 8 to 12",
        "lunch is 12 to 18",
        "the bar is 8 to 12",
        "the sauna is 10 to 15",
        "I ran 200 on souvenirs",
        "we ran 300 on the bar tab",
        "we ran 40 on drinks",
        # a rate "a night" is no time of night (the range's reading skipped it)
        "hostels 5-7 a night",
    ],
)
def test_prices_read_as_a_journey_or_hours_are_refused(text: str) -> None:
    assert_refused(text)


# The lengths, hours and distances the round meant to keep stay kept beside the fixes.
@pytest.mark.parametrize(
    "text",
    [
        "the flight home was 13 with a stop",
        "the drive is 45 if we leave early",
        "the train up the mountain was 45 and stunning",
        "dinner is 7 to 10",
        "happy hour is 5 to 7",
        "the pool opens 7 to 22",
        "the spa is open 9 to 21",
        "I ran 10 on the treadmill",
        "I ran 42 for the marathon",
        "brunch is 10 to 2",
        "the flight was 11 hours",
    ],
)
def test_journeys_hours_and_runs_stay_kept(text: str) -> None:
    assert_kept(text)


# Counts, ages and times the round's money readings refused: how often ("tours 2-3 a week"),
# an age band ("18-35"), a flight's hours ("flights 8 to 10"), a group's size before "total",
# the first or last service's time, a line used, afternoon tea's hour, the writer Sanmao.
@pytest.mark.parametrize(
    "text",
    [
        "tours 2-3 a week",
        "meals 3-4 a day",
        "I take taxis 2-3 times a week",
        "tours for 18-35s",
        "hostels with an 18-35 crowd",
        "flights 8 to 10",
        "flights around 12",
        "the tour group was 12 total",
        "the last train 23",
        "first bus 06",
        "we used the night bus 14.",
        "afternoon tea 4 at the Ritz",
        "作家三毛。",
        "我们的猫三毛",
    ],
)
def test_counts_ages_and_times_are_kept(text: str) -> None:
    assert_kept(text)
