"""One naming rule for every platform's keys: Slack's as they always were, others prefixed."""

from __future__ import annotations

import pytest

from bot.conversation.incoming import IncomingMessage
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
