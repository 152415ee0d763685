"""Review of round 31 (bench/README.md, "Round 31 review"): the new keep-readings must not keep
a price said beside them, and the new pay and ID-part rules must not refuse a wait or an
errand done with a passport.

Found by probes written for the review: a class held in the morning but paid in cash, a class
that "ran 80", a Chinese drive paid by the day or with its ticket in the next clause, a coach
ride whose fare stands apart; and, the other way, a wait for the driver read as his pay and
passport control's opening time read as half a passport number."""

from __future__ import annotations

import pytest

from memory.privacy.guard import PrivacyGuard
from tests.memory.privacy_verdicts import assert_kept, assert_refused


@pytest.mark.parametrize(
    "text",
    [
        # a session held in the morning is still paid for in its sentence's other clause
        "the cooking class was 75 in the morning, paid cash",
        "the surf lesson was 60 in the afternoon, cash only",
        # a class or a tour that "ran 80" cost it (a lecture "ran 50" is its length)
        "the cooking class ran 80",
        # a drive one makes oneself, paid by the day, as pay, or with a ticket said beside it
        "开车去工地一天三百",
        "自驾去大理每天补贴三百",
        "开车去酒庄九十，门票另外",
        # a figure set apart from the coach one rode is its fare, not its number
        "坐了一趟大巴 120",
        # a caddie is paid like a guide
        "the golf was 18 holes and 120 for the caddie",
    ],
)
def test_prices_beside_round_31_readings_stay_refused(text: str) -> None:
    assert_refused(text)


@pytest.mark.parametrize(
    "text",
    [
        "we waited 20 for the driver",
        "we waited 15 for the guide",
        # round 31's keeps still hold
        "the yoga class is 75 in the morning",
        "the lecture ran 50 and then there was lunch",
        "开车去酒庄九十，一路都是山",
        "我喜欢坐夜车401去西安",
    ],
)
def test_waits_and_round_31_keeps_are_kept(text: str) -> None:
    assert_kept(text)


@pytest.mark.parametrize(
    "fact",
    [
        "passport control starts 0600",
        "ID check begins 0800 at the gate",
        "passport renewal starts 2027",
    ],
)
def test_an_errand_with_a_passport_is_no_part_of_its_number(fact: str) -> None:
    assert PrivacyGuard(semantic=False).check([fact]) == [None]


def test_a_passport_numbers_half_is_still_refused() -> None:
    assert PrivacyGuard(semantic=False).check(["passport number starts X1234"]) == ["id"]
