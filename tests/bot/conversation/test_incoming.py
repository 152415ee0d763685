"""One naming rule for every platform's keys: Slack's as they always were, others prefixed."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.channels import PLATFORMS
from bot.conversation.incoming import IncomingMessage
from bot.conversation.namespaces import namespace_problem, platform_id
from tests.support.platforms import BY_NAME


def message(platform: str, tenant: str, user: str) -> IncomingMessage:
    return IncomingMessage(
        platform=BY_NAME[platform],
        tenant=tenant,
        user=user,
        conversation="C1",
        thread="1.0",
        message_id="1.5",
        text="hi",
        kind="thread",
        delivery_id="Ev1",
    )


@pytest.mark.parametrize(
    ("platform", "tenant", "user", "namespace"),
    [
        ("slack", "T024BE7LD", "U01ABC", "T024BE7LD:U01ABC"),  # memory kept before stays
        ("feishu", "tenant_key", "ou_7d8a", "feishu:tenant_key:ou_7d8a"),
        ("dingtalk", "ding_corp", "manager4421", "dingtalk:ding_corp:manager4421"),
    ],
)
def test_namespaces_follow_the_platform(
    platform: str, tenant: str, user: str, namespace: str
) -> None:
    msg = message(platform, tenant, user)
    assert msg.namespace == namespace
    assert msg.namespace_of("colleague") == BY_NAME[platform].key(tenant, "colleague")


def test_threads_messages_and_deliveries_never_collide_across_platforms() -> None:
    slack, feishu = message("slack", "T1", "U1"), message("feishu", "T1", "U1")
    assert (slack.thread_key, slack.message_key, slack.delivery_key) == (
        "T1:C1:1.0",
        "T1:C1:1.5",
        "Ev1",
    )
    assert feishu.thread_key != slack.thread_key
    assert feishu.message_key != slack.message_key
    assert feishu.delivery_key != slack.delivery_key
    assert not slack.starts_thread


# -- one rule for ids in keys: NFC, separators escaped ----------------------------------------

ORDINARY_IDS = [
    "T024BE7LD",
    "U01ABC",
    "ou_7d8a6e6df7621556ce0d21922b676706",
    "2ed263bf32cf1651",
    "ding9f50b15bccd16741",
    "manager4421",
    "cidDM+3q/AbC==",
    "1712345678.123456",
    "om_dc13264520392913993dd051dba21dcf",
    "张伟",
]


@pytest.mark.parametrize("raw", ORDINARY_IDS)
def test_ordinary_ids_are_kept_as_they_are(raw: str) -> None:
    assert platform_id(raw) == raw
    assert BY_NAME["dingtalk"].key("corp", raw) == f"dingtalk:corp:{raw}"


def test_a_colon_in_an_id_cannot_move_a_person_into_another_namespace() -> None:
    one, other = BY_NAME["dingtalk"].key("X", "a:b"), BY_NAME["dingtalk"].key("X:a", "b")
    assert (one, other) == ("dingtalk:X:a%3Ab", "dingtalk:X%3Aa:b")
    assert BY_NAME["feishu"].key("t:k", "ou_1") == "feishu:t%3Ak:ou_1"
    assert namespace_problem(BY_NAME["feishu"].key("t:k", "ou_1"), PLATFORMS) is None
    # A `%` of the id itself is escaped too, so no id can spell another's escape.
    assert BY_NAME["dingtalk"].key("X", "a%3Ab") == "dingtalk:X:a%253Ab"


def test_ids_are_normalised_to_nfc() -> None:
    composed, decomposed = "Jos\u00e9", "Jose\u0301"
    assert BY_NAME["feishu"].key("t", composed) == BY_NAME["feishu"].key("t", decomposed)


def test_a_very_long_id_is_shortened_and_stays_distinct() -> None:
    long_a, long_b = "a" * 300, "a" * 299 + "b"
    ns_a, ns_b = BY_NAME["dingtalk"].key("X", long_a), BY_NAME["dingtalk"].key("X", long_b)
    assert ns_a != ns_b
    assert namespace_problem(ns_a, PLATFORMS) is None and namespace_problem(ns_b, PLATFORMS) is None


_IDS = st.text(min_size=1, max_size=200)


@given(st.sampled_from(["feishu", "dingtalk"]), _IDS, _IDS, _IDS, _IDS)
@settings(max_examples=400, deadline=None)
def test_every_namespace_the_bot_builds_is_one_the_cli_accepts_and_they_never_collide(
    platform: str, tenant: str, user: str, other_tenant: str, other_user: str
) -> None:
    namespace = BY_NAME[platform].key(tenant, user)
    assert namespace_problem(namespace, PLATFORMS) is None
    same = (unicodedata.normalize("NFC", tenant), unicodedata.normalize("NFC", user)) == (
        unicodedata.normalize("NFC", other_tenant),
        unicodedata.normalize("NFC", other_user),
    )
    assert (BY_NAME[platform].key(other_tenant, other_user) == namespace) == same


@given(
    st.from_regex(r"[TE][A-Z0-9]{1,12}", fullmatch=True),
    st.from_regex(r"[UW][A-Z0-9]{1,12}", fullmatch=True),
)
def test_slack_namespaces_are_unchanged_and_accepted(team: str, user: str) -> None:
    assert BY_NAME["slack"].key(team, user) == f"{team}:{user}"
    assert namespace_problem(f"{team}:{user}", PLATFORMS) is None
