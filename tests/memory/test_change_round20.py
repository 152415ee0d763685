"""Round 20 (issue 22): changes of mind said in free words, whether or not a list knows them.

A change followed by a question or a request ("I've switched to Lyft, any tips for LA?"), one
said as "X has replaced Y", "X took over from Y", "Y's out, X's in", "用X代替Y", and a name no
list holds for another in the same role ("I use Airalo for my eSIM" / "I use Holafly now")
replace the older fact, offline, and so does a general switch after a choice said of business
trips (as the older halves label it); a question, another person's choice, an addition, a
one-off, a move of house keep both unmarked. What the agent receives after each, through the
real `Memory` on SQLite and PostgreSQL, with the Redis cache."""

from __future__ import annotations

import pytest

from memory.engine import Memory
from tests.memory.change_outcomes import (
    assert_kept_both_unmarked,
    assert_replaced,
    said_after,
)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            "I always take Uber from the airport",
            "I've switched to Lyft, any tips for LA?",
            id="then-a-question",
        ),
        pytest.param(
            "I use Booking.com for hotels",
            "I book everything on Expedia now, can you check Rome for me?",
            id="then-a-request",
        ),
        pytest.param(
            "订酒店用携程", "现在都用飞猪订了，帮我查下杭州的酒店", id="then-a-request-zh"
        ),
        pytest.param(
            "I pay with PayPal online", "Apple Pay has replaced PayPal for me", id="replaced"
        ),
        pytest.param(
            "I usually stay at Marriott",
            "Hilton took over from Marriott for me this year",
            id="took-over-from",
        ),
        pytest.param("I get around with Uber", "Uber's out, Bolt's in", id="out-and-in"),
        pytest.param("网上付款用支付宝", "现在用微信支付代替支付宝了", id="instead-zh"),
        pytest.param("我常住汉庭", "全季取代了汉庭，现在都住全季", id="took-over-zh"),
        pytest.param("I use Airalo for my eSIM", "I use Holafly now", id="unlisted-esim"),
        pytest.param(
            "I bank with Monzo when travelling",
            "I've switched to Starling for travel money",
            id="unlisted-bank",
        ),
        pytest.param(
            "My eSIM is from Nomad", "My eSIM is from Saily these days", id="unlisted-is-from"
        ),
    ],
)
def test_a_change_of_mind_in_free_words_replaces_the_older(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_replaced(memory, namespace, old, outcome)
    summary = memory.retrieve(namespace, "")
    assert new in summary and "newer" not in summary and "较新" not in summary


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("On business trips I fly Delta", "I fly United now", id="airline"),
        pytest.param(
            "On business trips I stay at Hyatt", "I've switched to Hilton", id="hotel-chain"
        ),
        pytest.param("出差坐国航", "现在都坐东航了", id="airline-zh"),
        pytest.param("出差住亚朵", "现在改住全季了", id="hotel-zh"),
    ],
)
def test_a_general_switch_after_a_business_trip_choice_replaces_it(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_replaced(memory, namespace, old, outcome)


def test_a_switch_said_of_business_trips_too_still_replaces(memory: Memory, namespace: str) -> None:
    old, new = "出差坐国航", "出差现在都坐东航了"
    outcome = said_after(memory, namespace, old, new)
    assert_replaced(memory, namespace, old, outcome)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("I use Airalo for my eSIM", "Should I switch to Holafly?", id="question"),
        pytest.param("I use Airalo for my eSIM", "My brother uses Holafly now", id="brother"),
        pytest.param("I use Airalo for my eSIM", "I also use Holafly sometimes", id="addition"),
        pytest.param("I use Airalo for my eSIM", "This time I bought a Holafly eSIM", id="one-off"),
        pytest.param("I bank with Chase", "I've moved to Denver", id="a-move-of-house"),
        pytest.param("打车一直用滴滴", "我老公现在用高德打车", id="husband-zh"),
        pytest.param("打车一直用滴滴", "要不要换成高德打车？", id="question-zh"),
    ],
)
def test_no_change_of_mind_keeps_both_unmarked(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_kept_both_unmarked(memory, namespace, old, new, outcome)
