"""Organisations: whose travel policy applies to a person, read from their namespace.

A namespace is the organisation's key plus the person's id on the chat platform, joined
by the last ":" (`bot.conversation.incoming.qualified`): the organisation is the
workspace, tenant or corp the person belongs to, as the channel keys it (with the
platform's name first for every platform but the first one; the terminal console's
people, `local:NAME`, belong to `local`). A platform id never carries a bare ":" (a
separator in an id is escaped or refused where namespaces are built), so the last one
always separates the person. These functions are the only place that rule is written:
everything about policies, grades and approvals asks them.
"""

from __future__ import annotations

from bot.platform import platform_id


def org_of(namespace: str) -> str:
    """The organisation of the person `namespace` names ("" when it names none)."""
    org, separator, user = namespace.strip().rpartition(":")
    return org if separator and org and user else ""


def member(org: str, user_id: str) -> str:
    """The namespace of the platform user `user_id` of `org` (e.g. a named approver): the
    id made safe the way every namespace's parts are (`bot.platform.platform_id`), so an
    approver named `a:b` in the policy is the person the channel keys `…:a%3Ab`."""
    return f"{org}:{platform_id(user_id)}"


def user_of(namespace: str) -> str:
    """The person's id on their platform: the namespace without its organisation."""
    return namespace.rpartition(":")[2]


__all__ = ["member", "org_of", "user_of"]
