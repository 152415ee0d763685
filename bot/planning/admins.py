"""Travel admins: who may plan a trip for a colleague.

Admin status comes only from configuration: `TRAVEL_ADMIN_USER_IDS` (comma-separated
Slack user ids) and/or an admin group of the chat platform (on Slack the user group
`TRAVEL_ADMIN_USERGROUP_ID`, see `bot.slack.admins`; on Feishu and DingTalk their own
id lists), whose members are cached in Redis for `TRAVEL_ADMIN_CACHE_SECONDS`. Ids are
only ever compared within their platform: a Feishu open_id or DingTalk staff id that
happens to equal a Slack admin's id makes nobody an admin. Where the group is
unavailable (a plan without user groups, a missing scope, the platform down) the id list
alone decides. Nothing a user
writes and nothing in memory ever makes someone an admin. Which colleague a message
plans for is `bot.planning.delegation`.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any, Protocol

from bot.conversation.incoming import SLACK, qualified

if TYPE_CHECKING:
    from bot.settings import Settings

log = logging.getLogger(__name__)

UNAVAILABLE = "!unavailable"
UNAVAILABLE_TTL_SECONDS = 60  # how long to trust the id list alone before asking again


class AdminGroup(Protocol):
    """A group of the chat platform whose members are travel admins (e.g. a Slack user
    group named by `TRAVEL_ADMIN_USERGROUP_ID`); its channel provides it."""

    @property
    def id(self) -> str: ...

    def members(self) -> frozenset[str] | None:
        """The members' user ids, asked of the platform; None when it cannot say."""
        ...


class AdminResolver:
    """Answers "is this person a travel admin?" from configuration only."""

    def __init__(self, settings: Settings, redis: Any | None) -> None:
        self._ids = settings.admin_user_ids
        self._ttl = settings.travel_admin_cache_seconds
        self._prefix = settings.redis_key_prefix
        self._redis = redis

    def is_admin(
        self,
        team_id: str,
        user_id: str,
        group: AdminGroup | None = None,
        *,
        platform: str = SLACK,
    ) -> bool:
        """On Slack, in `TRAVEL_ADMIN_USER_IDS`; on any platform, a member of the channel's
        admin `group`."""
        if not user_id:
            return False
        if platform == SLACK and user_id in self._ids:
            return True
        if group is None:
            return False
        members = self.group_members(team_id, group, platform=platform)
        return members is not None and user_id in members

    def group_members(
        self, team_id: str, group: AdminGroup, *, platform: str = SLACK
    ) -> frozenset[str] | None:
        """The admin group's members (cached), or None when the platform cannot say."""
        key = self._key(qualified(platform, team_id), group.id)
        cached = self._cache_get(key)
        if cached == UNAVAILABLE:
            return None
        if cached is not None:
            try:
                return frozenset(str(u) for u in json.loads(cached))
            except (ValueError, TypeError):
                pass  # unreadable: ask the platform again
        members = group.members()
        if members is None:
            self._cache_set(key, UNAVAILABLE, min(UNAVAILABLE_TTL_SECONDS, self._ttl))
            return None
        self._cache_set(key, json.dumps(sorted(members)), self._ttl)
        return members

    def forget(self, team_id: str, group_id: str) -> None:
        """Drop the cached membership (e.g. after the group changed)."""
        if self._redis is None:
            return
        try:
            self._redis.delete(self._key(team_id, group_id))
        except Exception as exc:
            log.warning("admin cache unavailable (%s)", type(exc).__name__)

    def _key(self, team_id: str, group_id: str) -> str:
        return f"{self._prefix}travel-admins:{team_id}:{group_id}"

    def _cache_get(self, key: str) -> str | None:
        if self._redis is None:
            return None
        try:
            value = self._redis.get(key)
        except Exception as exc:
            log.warning("admin cache unavailable (%s)", type(exc).__name__)
            return None
        if value is None:
            return None
        return value.decode() if isinstance(value, bytes) else str(value)

    def _cache_set(self, key: str, value: str, ttl: int) -> None:
        if self._redis is None:
            return
        try:
            self._redis.set(key, value, ex=max(1, ttl))
        except Exception as exc:
            log.warning("admin cache unavailable (%s)", type(exc).__name__)


__all__ = ["AdminGroup", "AdminResolver"]
