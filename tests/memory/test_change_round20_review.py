"""Round 20's review: what the agent receives after changes said in round 20's shapes, and
after lookalikes built to trip its rules (`memory.change_roles`), through the real `Memory`.

A dash ends a clause ("I'm done with Hilton - can you find me a Hyatt in Rome?": Hilton is
left, Hyatt asked for, not avoided); a capitalised weekday is no brand ("I fly out on
Mondays" / "I use Holafly now"); "X replaced Y" where X is the older's own name, or where Y
is none of the older's and nothing else says a change, leaves the older; 取代 / 代替 under a
negation ("不能取代", "取代不了"), of the past ("取代过"), heard from others ("听说…要取代"),
or of someone standing in for another ("小李代替小王跟我出差") is no change."""

from __future__ import annotations

import pytest

from memory.engine import Memory
from memory.profile import load_schema
from tests.memory.change_outcomes import (
    assert_kept_both_unmarked,
    assert_replaced,
    said_after,
)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            "I keep my travel money with Monzo",
            "Wise has replaced Monzo for my travel money",
            id="replaced",
        ),
        pytest.param(
            "I always stay at Hilton",
            "I'm done with Hilton - can you find me a Hyatt in Rome?",
            id="then-a-request-after-a-dash",
        ),
        pytest.param(
            "我住酒店一般选如家",
            "现在改住锦江之星了，帮我订一间上海的",
            id="the-request-names-no-scope-zh",
        ),
        pytest.param("I use Airalo for data abroad", "I use Ubigi for data abroad now", id="esim"),
        pytest.param("早餐喜欢喝咖啡", "现在早餐用茶代替咖啡了", id="instead-zh"),
        pytest.param("我一般住万豪", "希尔顿代替了万豪，现在只住希尔顿", id="took-over-zh"),
    ],
)
def test_a_change_in_round_20s_shapes_replaces_the_older(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_replaced(memory, namespace, old, outcome)
    summary = memory.retrieve(namespace, "")
    assert new in summary and old not in summary


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            "I use Airbnb for longer stays",
            "Airbnb replaced hotels for my parents",
            id="the-older-name-is-what-stays",
        ),
        pytest.param(
            "I keep my travel money with Monzo",
            "Monzo took over from my old bank years ago",
            id="took-over-long-ago",
        ),
        pytest.param(
            "I use Revolut for cards",
            "Revolut is down right now, can you check Wise rates?",
            id="right-now",
        ),
        pytest.param("订酒店用携程", "Booking取代不了携程", id="could-not-replace-zh"),
        pytest.param("我一般坐东航", "以前南航取代过东航的航线", id="replaced-once-zh"),
        pytest.param("打车用滴滴", "听说高德打车要取代滴滴了，是真的吗？", id="hearsay-zh"),
        pytest.param("早餐喜欢喝咖啡", "下午茶用点心代替正餐", id="another-thing-replaced-zh"),
        pytest.param("我和小王一起出差", "这次小李代替小王跟我出差", id="a-stand-in-zh"),
        pytest.param("我一般坐国航", "下周同事代替我去开会，他坐东航", id="stands-in-for-me-zh"),
    ],
)
def test_a_lookalike_of_round_20s_shapes_keeps_both_unmarked(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_kept_both_unmarked(memory, namespace, old, new, outcome)


@pytest.mark.parametrize(
    "new",
    [
        "I'm done with Hilton - can you find me a Hyatt in Rome?",
        "I'm done with Hilton — can you find me a Hyatt in Rome?",
        "I'm done with Hilton, can you find me a Hyatt in Rome?",
    ],
)
def test_a_dash_ends_the_clause_that_leaves_a_name(new: str) -> None:
    found = load_schema().detect(new)
    assert found is not None
    assert found.slot == "preferred_hotel_brands" and found.value == ("hyatt",)


def test_a_weekday_is_no_name_a_switch_replaces(memory: Memory, namespace: str) -> None:
    old, new = "I fly out on Mondays", "I use Holafly now"
    outcome = said_after(memory, namespace, old, new)
    assert outcome.status == "added", outcome
    assert {i.text for i in memory.items(namespace)} == {old, new}
    assert old in memory.retrieve(namespace, "")
