"""Review of round 17, follow-up: ground transport as things apart. "I've stopped using Uber"
replaced "I take the bus in cities" - the bus and Uber are both ground transport, but giving
up one is no word about the other. Giving up the same thing, however said, still replaces.
What the agent receives after each, through the real `Memory` on SQLite and PostgreSQL, with
the Redis cache."""

from __future__ import annotations

import pytest

from memory.engine import Memory
from tests.memory.change_outcomes import assert_kept_both_unmarked, assert_replaced, said_after


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("I take the bus in cities", "I've stopped using Uber", id="en-uber-bus"),
        pytest.param(
            "I take the metro from the airport", "No more taxis for me", id="en-taxis-metro"
        ),
        pytest.param(
            "I like taking the bus to save money", "I quit taking taxis", id="en-taxis-bus"
        ),
        pytest.param(
            "I use Uber everywhere",
            "I've stopped using public transport",
            id="en-public-transport-uber",
        ),
        pytest.param(
            "I take the tube in London",
            "I've stopped taking taxis in London",
            id="en-taxis-tube",
        ),
        pytest.param(
            "I take the airport shuttle", "I've stopped using taxis", id="en-taxis-shuttle"
        ),
        pytest.param("I drive myself everywhere", "No more Uber for me", id="en-uber-driving"),
        pytest.param("在城市里我坐地铁", "我现在不打车了", id="zh-hailing-metro"),
        pytest.param("我出差一般自驾", "我现在不打车了", id="zh-hailing-driving"),
        pytest.param("在城市里我坐地铁", "滴滴现在不用了", id="zh-didi-metro"),
        pytest.param("出差都租车", "我不再坐出租车了", id="zh-taxi-is-no-car-rental"),
    ],
)
def test_one_way_of_getting_around_given_up_keeps_another_unmarked(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_kept_both_unmarked(memory, namespace, old, new, outcome)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("I take the bus in cities", "I've stopped taking the bus", id="en-bus"),
        pytest.param("I rent a car on road trips", "I've stopped renting cars", id="en-rental"),
        pytest.param("我喜欢自驾游", "我现在不自驾了", id="zh-driving"),
        pytest.param(
            "I usually take a cab to the hotel", "No more taxis for me", id="en-cab-is-a-taxi"
        ),
        pytest.param("出门一般打车", "我现在不打车了", id="zh-hailing"),
        pytest.param("我一般坐出租车", "我现在不打车了", id="zh-hailing-covers-taxis"),
        pytest.param("我出门都用滴滴", "网约车我不坐了", id="zh-ride-hailing-covers-didi"),
        pytest.param("我喜欢坐公交", "我现在不坐公交了", id="zh-bus"),
    ],
)
def test_the_same_way_given_up_however_said_replaces(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_replaced(memory, namespace, old, outcome)
