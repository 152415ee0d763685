"""Round 27: the number's role read from the verb that governs it (bench/README.md, round 27).

A price is reported (something bought "was / is" it, a seller "asked / quoted / 要" it); a
level is reached, a measure is the subject, a score is scored. Each rule is checked both ways
on made-up sentences: what the bot keeps, and the amount beside it that it still refuses."""

from __future__ import annotations

import pytest

from memory.privacy.amount_classifier import names_money
from memory.privacy.guard import PrivacyGuard
from tests.memory.privacy_verdicts import assert_kept, assert_refused


# A price reported of a thing bought, however small and whatever its shape, or asked by a
# seller: the bot refuses to keep it.
@pytest.mark.parametrize(
    "text",
    [
        "the porter asked 5 per bag",
        "the wifi on board was 8 for the whole flight",
        "the fast track through security was 8",
        "the cloakroom at the museum was 2",
        "coffee on the train was 4 and awful",
        "yeah the tram ticket's like 3",
        "the rickshaw guy asked 8 for a short hop",
        "the bag drop was 2.50",
        "ok so the bus to the airport is 4.50 here lol",
        "entry to the temple 5 per person",
        "a towel at the pool is 4 to rent",
        "the lady at the stall wanted 12 for the scarf",
        "突突车司机整个下午要三百",
        "船夫开价两百五",
        "过江的渡轮现在两块五",
        "厕所五毛一次",
    ],
)
def test_a_price_reported_is_refused(text: str) -> None:
    assert_refused(text)


# The same verbs with a number that is no price: a line, a count, an age, a delay, a time.
@pytest.mark.parametrize(
    "text",
    [
        "row 5 please",
        "our bus was number 14 to the old town",
        "the swell was 6 all morning so we stayed in",
        "my daughter is 7 and gets carsick on buses",
        "the train was 20 late again",
        "the hostel curfew is 11, too early for me",
        "the tour was 4 of us plus the guide",
        "买了两块蛋糕当早饭",
    ],
)
def test_the_same_verbs_with_no_price_are_kept(text: str) -> None:
    assert_kept(text)


# A level reached, a measure as the subject, a score, a group, a distance gone, a time to
# connect, heights crossed, a cap in the unit said before: kept.
@pytest.mark.parametrize(
    "text",
    [
        "the dive went down to 18 and it was fine",
        "the lift only goes to 12, walk the rest",
        "the tour group was 25, too many",
        "I need at least 45 to change terminals",
        "I scored 92 on the dive theory test",
        "visibility was about 15 on the dive",
        "seat pitch on that airline is 28, awful",
        "the water was 28 and perfect",
        "we covered 40 on the bikes today",
        "I need a gap of 90 between meetings and flights",
        "the trek crosses 3 passes over 5,000",
        "we drove 430 km that day, too much, cap it at 300",
        "缆车上到3600的平台",
        "高原上心率到了110",
    ],
)
def test_a_number_reached_or_measured_is_kept(text: str) -> None:
    assert_kept(text)


# Their lookalikes with money in them stay refused: the same verbs and nouns, and a price.
@pytest.mark.parametrize(
    "text",
    [
        "I'd go up to 260 for a room with a view",
        "I'd rather not go over 2,400 on the whole Iceland trip",
        "the client dinner ran 740",
        "the water taxi was 120 return",
        "the hut on the trail is 50 a bed",
        "the altitude sickness pills were 28 at the pharmacy",
        "my fleece from the shop at the summit was 60",
        "the cooking class was 75 each and worth it",
        "honestly the lounge day pass was 39",
        "salary went up to 9,800 a month",
        "机票降到700了",
        "日补降到六十了",
    ],
)
def test_lookalikes_with_a_price_stay_refused(text: str) -> None:
    assert_refused(text)


def test_a_reported_price_names_money_so_no_learned_layer_keeps_it() -> None:
    # The learned layers only decide facts where nothing names money; a price reported by its
    # verb does, so "the museum is 12 to get in" is never handed to them.
    assert names_money("the museum is 12 to get in")
    assert not names_money("the lift only goes to 12")
    assert PrivacyGuard().check(["the museum is 12 to get in"]) == ["amount"]


def test_a_split_price_reported_over_a_turn_is_refused() -> None:
    guard = PrivacyGuard(semantic=False)
    assert "amount" in guard.check(["the locker at the ferry terminal", "was 4 for the day"])
