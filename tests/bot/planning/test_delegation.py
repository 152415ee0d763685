"""Whom a message plans for ("plan a trip for @x", "给@x规划…"), and whether its writer may."""

from __future__ import annotations

import pytest

from bot.chat.markup import MENTION
from bot.planning.delegation import about_self, delegate, parse_plan_for

TEAM = "T0TEST"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<@UBOT> plan a trip for <@U123> from Shanghai to Chengdu on 2026-12-10", "U123"),
        ("<@UBOT> please plan a trip to Chengdu for <@U123|alice> next week", "U123"),
        ("<@UBOT> book <@W42ABC>'s flights to Beijing", "W42ABC"),
        # Any platform's ids, in the core's mention markup.
        ("<@UBOT> plan a trip for <@ou_7d8a6e2b> to Chengdu", "ou_7d8a6e2b"),
        ("<@UBOT> 给<@manager4421>规划一下下周去成都的行程", "manager4421"),
        ("<@UBOT> 给<@U123>规划一下下周去成都的行程", "U123"),
        ("<@UBOT> 帮 <@U123> 订12月10日上海到成都的机票", "U123"),
        ("<@UBOT> 为<@U123|张三>安排出差", "U123"),
        ("<@UBOT> 看看<@U123>的行程", "U123"),
        ("<@UBOT> plan my trip to Chengdu", None),
        ("<@UBOT> plan a trip for <@UBOT>", None),
        ("<@UBOT> thanks for <@U123>'s help yesterday", None),
        ("<@UBOT> 我从不坐红眼航班", None),
        ("", None),
        # The mention is the object of a plan/book/arrange verb: the traveller.
        ("<@UBOT> book <@U123> a flight to Chengdu on Friday", "U123"),
        ("<@UBOT> plan <@U123>’s next business trip to Beijing", "U123"),
        ("<@UBOT> book a hotel in Chengdu for <@U123>, let me know the price", "U123"),
        ("<@UBOT> please arrange travel for <@U123> to Shanghai, I need it today", "U123"),
        ("<@UBOT> 帮我给<@U123>订一张去成都的机票", "U123"),
        ("<@UBOT> 帮我规划一下<@U123>的行程", "U123"),
        ("<@UBOT> 把<@U123>的成都行程安排一下", "U123"),
        ("<@UBOT> <@U123> 的行程帮忙规划一下", "U123"),
        # A mention that is only nearby, or the writer's own trip: not a colleague's plan.
        ("<@UBOT> plan my trip to Chengdu for <@U123>'s offsite", None),
        ("<@UBOT> book me the same flight as <@U123>'s flight", None),
        ("<@UBOT> plan my trip, thanks for <@U123> recommending you", None),
        ("<@UBOT> 我和<@U123>的行程一样，帮我订票", None),
        ("<@UBOT> plan my trip to Chengdu for <@U123>", None),
        ("<@UBOT> plan a trip to Chengdu for me and <@U123>", None),
        ("<@UBOT> book me a flight to Beijing, same as <@U123>", None),
        ("<@UBOT> plan my trip to Shanghai with <@U123>", None),
        ("<@UBOT> book a hotel for <@U123>'s visit", None),
        ("<@UBOT> 给我订一张和<@U123>一样的机票", None),
        ("<@UBOT> 帮我查一下<@U123>推荐的酒店", None),
        ("<@UBOT> 我的行程和<@U123>一样，帮我规划一下", None),
        ("<@UBOT> 我想和<@U123>一起去成都，帮我规划行程", None),
        ("<@UBOT> 给<@U123>做个汇报，然后帮我订票", None),
        ("<@UBOT> <@U123> 说成都的火锅不错，帮我规划去成都的行程", None),
    ],
)
def test_parse_plan_for(text: str, expected: str | None) -> None:
    assert parse_plan_for(text, mention=MENTION, bot_user_id="UBOT") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("now plan my own trip to Beijing", True),
        ("book me a flight too", True),
        ("what about a hotel for me?", True),
        ("I'm flying to Shenzhen next week, plan it", True),
        ("现在帮我订去北京的票", True),
        ("我的行程也规划一下", True),
        ("make it one day later please", False),
        ("帮我改成晚一天", False),
        ("switch her to the morning flight", False),
        ("", False),
    ],
)
def test_about_self(text: str, expected: bool) -> None:
    assert about_self(text) is expected


def test_an_admin_speaking_of_their_own_trip_leaves_the_threads_colleague() -> None:
    def traveller(text: str, user: str = "UADMIN") -> str | None:
        found = delegate(
            text,
            user_id=user,
            namespace_of=lambda u: f"{TEAM}:{u}",
            is_admin=lambda: user == "UADMIN",
            mention=MENTION,
            thread_subject="UALICE",
        )
        return found.traveller if found is not None else None

    assert traveller("make it one day later please") == "UALICE"
    assert traveller("帮我改成晚一天") == "UALICE"
    assert traveller("now plan my own trip to Beijing") is None
    assert traveller("现在帮我订去北京的票") is None
    assert traveller("and book <@UBOB> a flight as well") == "UBOB"
    assert traveller("make it one day later please", user="UBOB") is None  # not an admin


def test_a_colleagues_namespace_and_the_admin_check_come_from_the_caller() -> None:
    asked: list[str] = []

    def is_admin() -> bool:
        asked.append("asked")
        return False

    found = delegate(
        "plan a trip for <@ou_42> to Chengdu",
        user_id="ou_1",
        namespace_of=lambda user: f"feishu:TENANT:{user}",
        is_admin=is_admin,
        mention=MENTION,
    )
    assert found is not None
    assert (found.traveller, found.namespace, found.allowed) == (
        "ou_42",
        "feishu:TENANT:ou_42",
        False,
    )
    # A message about the writer's own travel never asks whether they are an admin.
    assert (
        delegate(
            "plan my trip", user_id="ou_1", namespace_of=str, is_admin=is_admin, mention=MENTION
        )
        is None
    )
    assert asked == ["asked"]
