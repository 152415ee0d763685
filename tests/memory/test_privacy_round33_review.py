"""Review of round 33 (bench/README.md, "Round 33 review"): the reviewer's probes
(`tests/memory/privacy_corpus/r33_review.json`) that main's guard got wrong, checked through
the rules and the guard a record goes through (`privacy_verdicts`), the same entry the round 33
tests use; and long texts in the round's shapes stay fast to check."""

from __future__ import annotations

import time

import pytest

from memory.privacy import scan
from tests.memory.privacy_verdicts import assert_kept, assert_refused

REFUSED = [
    # a discount off any thing that is bought, not only a room or a fare
    "the driver took 5 off the ride since we were regulars",
    "they took 15 off the bill because the aircon broke",
    "the hotel knocked 25 off each night",
]

KEPT = [
    # a number right after "aged" is an age, whatever is priced before it
    "the dorm takes guests aged 18-35 only",
    # a stay at each place is a time, like a stop
    "we stayed 30 at each lookout",
    # a crossing in its weather, said with "in" as well as "on a … day"
    "the crossing is 45 in calm seas",
    # the same shapes, kept before the review too
    "ask for rooms 2201-2210 facing the bay",
    "our flights usually leave from gates 40-45",
    "we anchored 20 off the coast for snorkelling",
    "scored a window seat for the 9am to Lisbon",
    "车程三四十分钟",
    "三四个人一间",
]


@pytest.mark.parametrize("text", REFUSED)
def test_review_prices_are_refused(text: str) -> None:
    assert_refused(text)


@pytest.mark.parametrize("text", KEPT)
def test_review_everyday_numbers_are_kept(text: str) -> None:
    assert_kept(text)


LONG = [
    pytest.param("jammed for 40 " * 250, id="stuck-for"),
    pytest.param("20 on a calm day " * 200, id="crossing-weather"),
    pytest.param("the x was 60-70 and " * 200, id="ranges-one-clause"),
    pytest.param("adults 18 " * 400, id="kinds-of-person"),
    pytest.param("+1 (2" * 600, id="plus-parentheses"),
]


@pytest.mark.parametrize("text", LONG)
def test_long_texts_in_the_rounds_shapes_are_checked_quickly(text: str) -> None:
    # Well under 0.3 s CPU on a quiet machine after the review (up to 1.2 s before on a loaded
    # one); the bound is loose so a loaded box never trips it.
    started = time.process_time()
    scan(text)
    assert time.process_time() - started < 3.0
