"""The Slack user group whose members are travel admins (`TRAVEL_ADMIN_USERGROUP_ID`).

`bot.planning.admins.AdminResolver` caches its membership in Redis; this only asks
Slack (`usergroups.users.list`). Any failure (`paid_teams_only`, a missing scope, Slack
down) means "cannot say", and the id list alone decides.
"""

from __future__ import annotations

import logging

from slack_sdk.web import WebClient

from bot.slack.api import slack_error

log = logging.getLogger(__name__)


class SlackUserGroup:
    """An `AdminGroup`: the members of one Slack user group."""

    def __init__(self, client: WebClient, group_id: str) -> None:
        self._client = client
        self.id = group_id

    def members(self) -> frozenset[str] | None:
        try:
            response = self._client.usergroups_users_list(usergroup=self.id)
            users = response.get("users")
        except Exception as exc:  # an error answer (e.g. paid_teams_only), the network
            log.warning(
                "admin user group unavailable (%s); using TRAVEL_ADMIN_USER_IDS only",
                slack_error(exc),
            )
            return None
        if not isinstance(users, list):
            return None
        return frozenset(str(u) for u in users)


def admin_group(client: WebClient, group_id: str) -> SlackUserGroup | None:
    """The configured admin group, or None when `TRAVEL_ADMIN_USERGROUP_ID` is empty."""
    group_id = group_id.strip()
    return SlackUserGroup(client, group_id) if group_id else None


__all__ = ["SlackUserGroup", "admin_group"]
