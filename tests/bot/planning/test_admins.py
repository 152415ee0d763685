"""Travel admins from configuration and a Slack user group, cached in real Redis.

Slack's admins are `TRAVEL_ADMIN_USER_IDS` and `TRAVEL_ADMIN_USERGROUP_ID` (the channel
builds its `Admins` from them); the resolver knows no platform."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
import redis
from slack_sdk import WebClient

from bot.planning.admins import AdminResolver, Admins
from bot.settings import Settings
from bot.slack.admins import SlackUserGroup, admin_group
from tests.support.platforms import DINGTALK, FEISHU
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


def resolver(client: redis.Redis | None, prefix: str = "") -> AdminResolver:
    return AdminResolver(redis=client, key_prefix=prefix)


def named(ids: str, group: SlackUserGroup | None = None) -> Admins:
    """Slack's admins as its channel builds them from `TRAVEL_ADMIN_USER_IDS`."""
    config = Settings(_env_file=None, travel_admin_user_ids=ids)  # type: ignore[call-arg]
    return Admins(named=config.admin_user_ids, group=group)


def group(slack: FakeSlackAPI, group_id: str = "S0ADMINS") -> SlackUserGroup:
    return SlackUserGroup(WebClient(token="xoxb-test", base_url=slack.base_url), group_id)


def test_admins_from_the_id_list(redis_client: redis.Redis, prefix: str) -> None:
    admins, slack_admins = resolver(redis_client, prefix), named(" UADMIN1, UADMIN2 ,")
    assert admins.is_admin(TEAM, "UADMIN1", slack_admins)
    assert admins.is_admin(TEAM, "UADMIN2", slack_admins)
    assert not admins.is_admin(TEAM, "UALICE", slack_admins)
    assert not admins.is_admin(TEAM, "", slack_admins)
    assert not resolver(None).is_admin(TEAM, "UADMIN1")  # nobody configured
    # The list names Slack users: the same id on another platform is someone else (each
    # channel has admins of its own; Feishu's and DingTalk's name none here).
    assert not admins.is_admin(DINGTALK.key(TEAM), "UADMIN1")
    assert not admins.is_admin(FEISHU.key(TEAM), "UADMIN1")


def test_admins_from_a_user_group_are_cached(
    slack: FakeSlackAPI, redis_client: redis.Redis, prefix: str
) -> None:
    slack.add_usergroup("S0ADMINS", ["UGROUP1", "UGROUP2"], handle="travel-admins")
    admins, admin_group = resolver(redis_client, prefix), named("UADMIN1", group(slack))
    assert admins.is_admin(TEAM, "UGROUP1", admin_group)
    assert admins.is_admin(TEAM, "UGROUP2", admin_group)
    assert admins.is_admin(TEAM, "UADMIN1", admin_group)  # the id list still counts
    assert not admins.is_admin(TEAM, "UALICE", admin_group)
    assert len(slack.calls_to("usergroups.users.list")) == 1  # membership came from Redis
    assert redis_client.ttl(f"{prefix}travel-admins:{TEAM}:S0ADMINS") <= 300

    # A new member shows up once the cache is dropped (or expires).
    slack.add_usergroup("S0ADMINS", ["UGROUP1", "UGROUP2", "UNEW"])
    assert not admins.is_admin(TEAM, "UNEW", admin_group)
    admins.forget(TEAM, "S0ADMINS")
    assert admins.is_admin(TEAM, "UNEW", admin_group)


@pytest.mark.parametrize("error", ["paid_teams_only", "missing_scope", "no_such_subteam"])
def test_without_user_groups_the_id_list_decides(
    slack: FakeSlackAPI, redis_client: redis.Redis, prefix: str, error: str
) -> None:
    slack.add_usergroup("S0ADMINS", ["UGROUP1"])
    slack.fail("usergroups.users.list", error, times=5)
    admins, admin_group = resolver(redis_client, prefix), named("UADMIN1", group(slack))
    assert admins.is_admin(TEAM, "UADMIN1", admin_group)
    assert not admins.is_admin(TEAM, "UGROUP1", admin_group)
    assert not admins.is_admin(TEAM, "UGROUP1", admin_group)
    # The failure is remembered briefly instead of asking Slack on every message.
    assert len(slack.calls_to("usergroups.users.list")) == 1


def test_slack_unreachable_and_redis_down_fall_back_to_the_id_list() -> None:
    down = redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2)
    admins = AdminResolver(redis=down)
    unreachable = WebClient(token="xoxb-test", base_url="http://127.0.0.1:9/api/", timeout=1)
    admin_group = named("UADMIN1", SlackUserGroup(unreachable, "S0ADMINS"))
    assert admins.is_admin(TEAM, "UADMIN1", admin_group)
    assert not admins.is_admin(TEAM, "UGROUP1", admin_group)


def test_the_user_group_comes_only_from_configuration(slack: FakeSlackAPI) -> None:
    client = WebClient(token="xoxb-test", base_url=slack.base_url)
    assert admin_group(client, "  ") is None
    configured = admin_group(client, " S0ADMINS ")
    assert configured is not None and configured.id == "S0ADMINS"
