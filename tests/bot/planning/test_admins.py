"""Travel admins from configuration and a Slack user group; "plan a trip for @x" parsing."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
import redis
from slack_sdk import WebClient

from bot.planning.admins import AdminResolver, about_self, parse_plan_for
from bot.planning.delegation import delegate
from bot.settings import Settings
from tests.support.slack_api import FakeSlackAPI

TEAM = "T0TEST"


@pytest.fixture
def slack() -> Iterator[FakeSlackAPI]:
    with FakeSlackAPI(team_id=TEAM) as fake:
        yield fake


@pytest.fixture
def prefix(redis_client: redis.Redis) -> Iterator[str]:
    key_prefix = f"test-admins-{uuid.uuid4().hex[:10]}:"
    yield key_prefix
    keys = list(redis_client.scan_iter(match=f"{key_prefix}*"))
    if keys:
        redis_client.delete(*keys)


def resolver(
    slack: FakeSlackAPI | None,
    client: redis.Redis | None,
    prefix: str = "",
    **settings: object,
) -> AdminResolver:
    web = WebClient(token="xoxb-test", base_url=slack.base_url) if slack else None
    config = Settings(redis_key_prefix=prefix, **settings)  # type: ignore[arg-type]
    return AdminResolver(config, client, web)


def test_admins_from_the_id_list(redis_client: redis.Redis, prefix: str) -> None:
    admins = resolver(None, redis_client, prefix, travel_admin_user_ids=" UADMIN1, UADMIN2 ,")
    assert admins.is_admin(TEAM, "UADMIN1") and admins.is_admin(TEAM, "UADMIN2")
    assert not admins.is_admin(TEAM, "UALICE")
    assert not admins.is_admin(TEAM, "")
    assert not resolver(None, None).is_admin(TEAM, "UADMIN1")  # nobody configured


def test_admins_from_a_user_group_are_cached(
    slack: FakeSlackAPI, redis_client: redis.Redis, prefix: str
) -> None:
    slack.add_usergroup("S0ADMINS", ["UGROUP1", "UGROUP2"], handle="travel-admins")
    admins = resolver(
        slack,
        redis_client,
        prefix,
        travel_admin_user_ids="UADMIN1",
        travel_admin_usergroup_id="S0ADMINS",
    )
    assert admins.is_admin(TEAM, "UGROUP1")
    assert admins.is_admin(TEAM, "UGROUP2")
    assert admins.is_admin(TEAM, "UADMIN1")  # the id list still counts
    assert not admins.is_admin(TEAM, "UALICE")
    assert len(slack.calls_to("usergroups.users.list")) == 1  # membership came from Redis
    assert redis_client.ttl(f"{prefix}travel-admins:{TEAM}:S0ADMINS") <= 300

    # A new member shows up once the cache is dropped (or expires).
    slack.add_usergroup("S0ADMINS", ["UGROUP1", "UGROUP2", "UNEW"])
    assert not admins.is_admin(TEAM, "UNEW")
    admins.forget(TEAM)
    assert admins.is_admin(TEAM, "UNEW")


@pytest.mark.parametrize("error", ["paid_teams_only", "missing_scope", "no_such_subteam"])
def test_without_user_groups_the_id_list_decides(
    slack: FakeSlackAPI, redis_client: redis.Redis, prefix: str, error: str
) -> None:
    slack.add_usergroup("S0ADMINS", ["UGROUP1"])
    slack.fail("usergroups.users.list", error, times=5)
    admins = resolver(
        slack,
        redis_client,
        prefix,
        travel_admin_user_ids="UADMIN1",
        travel_admin_usergroup_id="S0ADMINS",
    )
    assert admins.is_admin(TEAM, "UADMIN1")
    assert not admins.is_admin(TEAM, "UGROUP1")
    assert not admins.is_admin(TEAM, "UGROUP1")
    # The failure is remembered briefly instead of asking Slack on every message.
    assert len(slack.calls_to("usergroups.users.list")) == 1


def test_slack_unreachable_and_redis_down_fall_back_to_the_id_list() -> None:
    down = redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2)
    admins = AdminResolver(
        Settings(travel_admin_user_ids="UADMIN1", travel_admin_usergroup_id="S0ADMINS"),
        down,
        WebClient(token="xoxb-test", base_url="http://127.0.0.1:9/api/", timeout=1),
    )
    assert admins.is_admin(TEAM, "UADMIN1")
    assert not admins.is_admin(TEAM, "UGROUP1")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<@UBOT> plan a trip for <@U123> from Shanghai to Chengdu on 2026-12-10", "U123"),
        ("<@UBOT> please plan a trip to Chengdu for <@U123|alice> next week", "U123"),
        ("<@UBOT> book <@W42ABC>'s flights to Beijing", "W42ABC"),
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
    assert parse_plan_for(text, bot_user_id="UBOT") == expected


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
    admins = resolver(None, None, travel_admin_user_ids="UADMIN")

    def traveller(text: str, user: str = "UADMIN") -> str | None:
        found = delegate(text, team_id=TEAM, user_id=user, admins=admins, thread_subject="UALICE")
        return found.traveller if found is not None else None

    assert traveller("make it one day later please") == "UALICE"
    assert traveller("帮我改成晚一天") == "UALICE"
    assert traveller("now plan my own trip to Beijing") is None
    assert traveller("现在帮我订去北京的票") is None
    assert traveller("and book <@UBOB> a flight as well") == "UBOB"
    assert traveller("make it one day later please", user="UBOB") is None  # not an admin
