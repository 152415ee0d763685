"""Round 19: a switch between two members of one category, said with no shared word.

"These days it's the Amex for me" after "Mastercard for all my travel spending" names
another card, and "现在都用万事达了" another card than "出国刷卡一般用Visa": cards, payment
apps, coffee chains, car hire firms and ride apps are now named choices like airlines and
hotel chains, and a listed name for another replaces the older fact in whatever season or
kind of trip it was said (one said of a place stays, marked: the round-19 review). Another
person's choice ("My wife switched to Visa", "同事现在都住希尔顿") and the time of a meeting
change nothing of the writer's. What the agent receives after each, through the real
`Memory` on SQLite and PostgreSQL, with the Redis cache."""

from __future__ import annotations

import pytest

from memory.engine import Memory
from tests.memory.change_outcomes import (
    assert_kept_both_unmarked,
    assert_replaced,
    history,
    said_after,
)

TRAVELLER = [
    "Aisle seat, I get up a lot on long flights",
    "I stay at Hyatt when I can",
    "Carry-on only, never check a bag",
    "I take Uber from the airport",
    "Gym in the hotel is a must",
]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            "Mastercard for all my travel spending",
            "These days it's the Amex for me, the points are better",
            id="card-for-its-points",
        ),
        pytest.param(
            "Starbucks is my airport coffee stop", "It's Costa for me nowadays", id="coffee"
        ),
        pytest.param("My go-to hotel chain is Marriott", "I've gone over to IHG", id="gone-over"),
        pytest.param(
            "Uber everywhere, it's just easier",
            "I've given Uber up, it's Lyft for me",
            id="given-up-for-another",
        ),
        pytest.param("出国刷卡一般用Visa", "现在都用万事达了", id="card-abroad-zh"),
        pytest.param("我习惯用支付宝付款", "现在都用微信支付了", id="payment-app-zh"),
        pytest.param("租车一般用神州", "现在都用一嗨了", id="car-hire-zh"),
    ],
)
def test_another_member_of_the_category_replaces_the_older(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_replaced(memory, namespace, old, outcome)
    summary = memory.retrieve(namespace, "")
    assert new in summary and "newer" not in summary and "较新" not in summary


def test_a_card_switch_among_other_facts_replaces_the_card_only(
    memory: Memory, namespace: str
) -> None:
    memory.record(namespace, TRAVELLER)
    old, new = "Mastercard for all my travel spending", "These days it's the Amex for me"
    outcome = said_after(memory, namespace, old, new)
    assert_replaced(memory, namespace, old, outcome)
    kept = history(memory, namespace)
    assert all(kept[fact]["current"] and not kept[fact]["contested_by"] for fact in TRAVELLER)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("I pay with Amex", "My wife switched to Visa", id="wife-switched"),
        pytest.param("I use Uber", "My son uses Lyft these days", id="son-uses"),
        pytest.param("I stay at Marriott", "My boss stays at Hilton now", id="boss-stays"),
        pytest.param(
            "Window seat please", "My husband wants the aisle these days", id="husband-wants"
        ),
        pytest.param("I pay with Visa", "I also carry a Mastercard as a spare", id="also"),
        pytest.param("喜欢靠窗的座位", "孩子喜欢坐过道", id="child-zh"),
        pytest.param("住酒店一般选万豪", "同事现在都住希尔顿", id="colleague-zh"),
        pytest.param("打车一般用滴滴", "我妈现在也用高德了", id="mother-zh"),
        pytest.param("航班喜欢早上的", "晚上的会议改到七点了", id="meeting-zh"),
        pytest.param("我用支付宝付款", "公司报销用微信，自己花钱用支付宝", id="by-use-zh"),
    ],
)
def test_a_sibling_named_without_a_switch_keeps_both(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_kept_both_unmarked(memory, namespace, old, new, outcome)


def test_a_companions_change_of_mind_still_changes_what_was_said_of_them(
    memory: Memory, namespace: str
) -> None:
    old, new = "I like quiet hotels, my wife loves museums", "My wife doesn't like museums anymore"
    outcome = said_after(memory, namespace, old, new)
    assert_replaced(memory, namespace, old, outcome)
