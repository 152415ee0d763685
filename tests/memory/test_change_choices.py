"""Named choices in free words (issue 22, round 10 of bench/README.md): a membership
dropped for another programme replaces the older choice; a membership said beside an
airline of choice is no change of it; an airline no list names is still read as one; and
以后 right after a topic word says "from now on", while after an event it says "after".
Through the real `Memory`, as `test_changes.py`."""

from __future__ import annotations

import pytest

from memory.engine import Memory


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            "Hyatt is where I stay when I travel",
            "I cancelled my Hyatt membership, I'm a Hilton Honors guy now",
            id="en-membership-cancelled",
        ),
        pytest.param(
            "I stay at Sheraton hotels",
            "I'm not a Sheraton member anymore, I switched to Radisson Rewards",
            id="en-no-longer-a-member",
        ),
        pytest.param(
            "我是希尔顿会员", "希尔顿的会员不续了，现在是万豪会员", id="zh-membership-switched"
        ),
        pytest.param("Aer Lingus is my airline", "I fly Icelandair these days", id="en-no-list"),
        pytest.param("酒店订在市中心", "酒店以后订在机场附近吧", id="zh-yihou-after-a-topic"),
        pytest.param(
            "出差住市中心", "出差以后住机场附近，赶飞机方便", id="zh-yihou-after-a-trip-kind"
        ),
    ],
)
def test_a_named_choice_left_for_another_replaces_it(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    [first] = memory.record(namespace, [old])
    [outcome] = memory.record(namespace, [new])
    assert outcome.status == "updated", outcome
    assert outcome.replaced_ids == (first.item_id,)
    assert [i.text for i in memory.items(namespace)] == [new]
    assert old not in memory.retrieve(namespace, "")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("出差常坐东航", "我是南航明珠会员", id="zh-membership-beside-a-choice"),
        pytest.param("我是东航会员", "我是南航明珠会员", id="zh-two-memberships"),
        pytest.param("I usually fly Delta", "I'm a United MileagePlus member", id="en-membership"),
        pytest.param("喜欢住市中心", "落地以后先去酒店放行李", id="zh-yihou-after-landing"),
        pytest.param("喜欢有浴缸的酒店", "到酒店以后要先洗个澡", id="zh-yihou-after-arriving"),
    ],
)
def test_a_membership_or_an_after_is_no_change_of_mind(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    memory.record(namespace, [old])
    [outcome] = memory.record(namespace, [new])
    assert outcome.status == "added", outcome
    assert {i.text for i in memory.items(namespace)} == {old, new}
    assert all(i.contested_by is None for i in memory.items(namespace))
    summary = memory.retrieve(namespace, "")
    assert old in summary and "newer" not in summary and "较新" not in summary
