"""A named approver's namespace is built the way the channels build every namespace."""

from __future__ import annotations

from bot.channels import PLATFORMS
from bot.policy.orgs import member, org_of, user_of


def test_an_approver_id_with_a_colon_is_the_person_the_channel_keys() -> None:
    feishu = next(p for p in PLATFORMS if p.prefix == "feishu")
    assert member("feishu:T1", "a:b") == feishu.key("T1", "a:b") == "feishu:T1:a%3Ab"
    assert org_of(member("feishu:T1", "a:b")) == "feishu:T1"
    assert user_of(member("T1", "U 1")) == "U%201"
    assert member("T1", "U0APPROVER") == "T1:U0APPROVER"  # ordinary ids are unchanged
