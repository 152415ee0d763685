"""Named choices in free words (issue 22, round 10 of bench/README.md): a membership
dropped for another programme replaces the older choice; a membership said beside an
airline of choice is no change of it; an airline no list names is still read as one; and
以后 right after a topic word says "from now on", while after an event it says "after".
The precision follow-up (dev9): 以后 after an act (入住, 退房), a membership of someone
else's or of a group, a colleague or a medicine one "flies with", "航空箱", and a second
brand added ("too these days", "as well now") change nothing.
Through the real `Memory`, as `test_changes.py`."""

from __future__ import annotations

import pytest

from memory.changes import load_changes
from memory.engine import Memory
from tests.memory.change_outcomes import assert_kept_both_unmarked, said_after


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
        pytest.param(
            "酒店要有健身房", "入住以后我一般先去健身房练一会儿", id="zh-yihou-after-checking-in"
        ),
        pytest.param(
            "退房时间最好晚一点", "退房以后行李能寄存在前台就好", id="zh-yihou-after-checkout"
        ),
        pytest.param(
            "I fly American", "My wife is a United MileagePlus member now", id="en-her-membership"
        ),
        pytest.param("出差常住全季", "最近刚办了华住会员", id="zh-membership-of-the-group"),
        pytest.param(
            "I usually fly United",
            "These days I fly with Sarah from finance, she handles the bookings",
            id="en-fly-with-a-colleague",
        ),
        pytest.param(
            "I fly Delta most of the time",
            "I fly with Dramamine now, turbulence gets to me",
            id="en-fly-with-a-medicine",
        ),
        pytest.param(
            "I fly Delta",
            "I've started flying JetBlue too these days, alongside Delta",
            id="en-a-second-airline",
        ),
        pytest.param(
            "I rent from Hertz",
            "I rent from Sixt as well now, depending on the city",
            id="en-a-second-rental-company",
        ),
    ],
)
def test_a_membership_or_an_after_is_no_change_of_mind(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_kept_both_unmarked(memory, namespace, old, new, outcome)


@pytest.mark.parametrize(
    ("text", "airline"),
    [
        ("我现在坐吉祥航空", True),
        ("祥鹏航空的航班便宜", True),
        ("现在带猫出门得用航空箱", False),
        ("飞机上的航空餐现在吃不惯了", False),
        ("I fly Icelandair these days", True),
        ("I fly with Dramamine now, turbulence gets to me", False),
    ],
)
def test_an_airline_read_by_its_shape_is_a_name_not_a_thing(text: str, airline: bool) -> None:
    assert ("airline_name" in load_changes().read(text).aspects) is airline
