"""Round 19's review: a sibling named in words that change nothing of the traveller's.

A question ("Should I switch to Lyft?", "Is a window seat better for sleeping?") asks and
says no change, though round 19 made a switch between two ride apps replace the older; a
parent or sibling said in two characters ("我爸妈", "我哥哥") is another person as much as
"我妈"; a meeting or flight moved ("Our weekly meeting moved to Thursday afternoon",
"明天的会议改到下午了") is a schedule, not the traveller's mind; a hotel for one occasion
("The conference hotel is a Hilton this time", "这次会议酒店是希尔顿") or a seat asked for
once ("这次给我订靠窗的") sets no standing choice. A card or payment app said of one place
("In Japan I pay with JCB") may still hold after another is named for all travel: both
stay, the newer marked, as issue 22 asks when unsure; said of travel abroad or a season,
the whole habit, the older is still replaced. What the agent receives after each, through
the real `Memory`."""

from __future__ import annotations

import pytest

from memory.engine import Memory
from tests.memory.change_outcomes import (
    assert_kept_both_marked_newer,
    assert_kept_both_unmarked,
    assert_replaced,
    said_after,
)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("I use Uber", "Should I switch to Lyft?", id="question"),
        pytest.param("I use Uber", "should I switch to Lyft", id="question-unmarked"),
        pytest.param(
            "I prefer aisle seats", "Is a window seat better for sleeping?", id="question-seat"
        ),
        pytest.param("我习惯用微信支付", "我爸妈都改用支付宝了", id="parents-zh"),
        pytest.param("我习惯用微信支付", "我妈妈现在用支付宝", id="mother-zh"),
        pytest.param("我坐国航", "我哥哥都坐东航", id="brother-zh"),
        pytest.param(
            "Morning meetings work best for me",
            "Our weekly meeting moved to Thursday afternoon",
            id="meeting-moved",
        ),
        pytest.param("早上开会效率高", "明天的会议改到下午了", id="meeting-moved-zh"),
        pytest.param(
            "I stay at IHG hotels", "The conference hotel is a Hilton this time", id="this-time"
        ),
        pytest.param("住酒店选洲际", "这次会议酒店是希尔顿", id="this-time-zh"),
        pytest.param("坐东航", "我们公司现在统一订南航", id="company-zh"),
        pytest.param("I prefer aisle seats", "Window seat this time please", id="asked-once"),
        pytest.param("喜欢靠过道", "这次给我订靠窗的", id="asked-once-zh"),
    ],
)
def test_a_sibling_named_without_a_change_of_mind_keeps_both(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_kept_both_unmarked(memory, namespace, old, new, outcome)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("I use Uber", "I use Lyft now, is that ok?", id="said-then-asked"),
        pytest.param(
            "I prefer morning meetings",
            "I'd rather have meetings in the afternoon now",
            id="meetings-by-choice",
        ),
        pytest.param("早上开会效率高", "现在喜欢下午开会", id="meetings-by-choice-zh"),
        pytest.param("住酒店选洲际", "从这次起都住希尔顿", id="from-this-time-zh"),
        pytest.param(
            "I stay at Marriott",
            "I'm done with Marriott. Can you find Hiltons?",
            id="said-then-asked-sentence",
        ),
        pytest.param(
            "I prefer aisle seats",
            "Could you book me window seats from now on?",
            id="a-request-is-said",
        ),
        pytest.param("喜欢靠过道", "以后能帮我订靠窗的吗？", id="a-request-is-said-zh"),
    ],
)
def test_a_change_said_beside_those_words_still_replaces(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_replaced(memory, namespace, old, outcome)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("In Japan I pay with JCB", "These days it's the Visa for me", id="japan"),
        pytest.param("In China I use Alipay", "I use Apple Pay for everything now", id="china"),
    ],
)
def test_a_switch_after_a_choice_said_of_one_place_keeps_both_the_newer_marked(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_kept_both_marked_newer(memory, namespace, old, new, outcome)


def test_a_switch_after_a_card_said_of_travel_abroad_still_replaces_it(
    memory: Memory, namespace: str
) -> None:
    old, new = "出国刷卡一般用Visa", "现在都用万事达了"
    outcome = said_after(memory, namespace, old, new)
    assert_replaced(memory, namespace, old, outcome)
