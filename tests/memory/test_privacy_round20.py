"""Round 20 (issue 22): benign numbers refused by rules that name money, not by the guess
(heights under an approximation or "above", room and cabin numbers, a road's limit, a
battery's level), and amounts said beside the same words (bench/README.md)."""

from __future__ import annotations

import pytest

from memory.privacy import scan
from memory.privacy.amount_similarity import guessed_only

KEPT = (
    "the crater lake sits at about 2,400 up",  # a number "up" is a climb or an elevation
    "the hike to the hut is about 900 up from the car park",
    "the pass was closed above 2,000 because of snow",  # a road closes above a height
    "the pass closes above 2,400 in winter",
    "I sleep badly above 2,500, so no mountain lodges",  # one sleeps above a height
    "去山顶那段爬升大概九百",  # a height named right before the number
    "山脊最高大概两千八，多带件衣服",
    "海拔约3000的地方我会高反",
    "上次住的2214景观很好，再要那间",  # what a room has, after a number no round price has
    "上次邮轮住的7112舱在顶层",  # a cabin's number
    "keep the phone charged above 50 on travel days",  # a battery, not a price
    "the old town wall is 4 around, we walked the whole thing",  # "around" is not "a round"
)

REFUSED = (
    "hotel prices went about 200 up from last year",  # up on last year: a price
    "I paid about 500 up front for the chalet",
    "the mountain hut was about 60",
    "mountain lodges around 150 are fine",
    "the snow tour was about 200",
    "the summit shuttle was around 25",  # a priced thing right before the number owns it
    "缆车票大概八十，山顶风景很好",
    "爬到山顶的索道大概一百八",
    "去垭口的包车大概六百",
    "垭口那边的向导大概三百",
    "住的800景观房太贵了",  # a kind of room, priced
    "住的800视野一般",  # a round number may be a price
    "邮轮住的阳台舱一晚3000",
    "the phone shop charged 50",
    "the repair shop charged about 80 for the phone",
    "the boat is 45 a round",
    "the motorway tolls were about 40",
)


@pytest.mark.parametrize("text", KEPT)
def test_round20_numbers_that_are_not_money_are_kept(text: str) -> None:
    assert scan(text) is None


@pytest.mark.parametrize("text", REFUSED)
def test_round20_amounts_beside_the_same_words_are_refused(text: str) -> None:
    assert scan(text) == "amount"


def test_a_motorway_limit_is_left_to_the_learned_reading() -> None:
    # A road's limit names no money: only the guess refuses it, so the learned layer decides.
    assert guessed_only("the highway limit is 130")
