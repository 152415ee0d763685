"""Travel admins: who may plan a trip for a colleague, or save a colleague's trip.

Admin status comes only from configuration. Each channel says who its platform's admins
are (`Admins`): ids named in its settings, and/or a group the platform keeps (a user
group: `AdminGroup`), whose members are cached in Redis for `cache_seconds`. Ids are
only ever compared within their platform and workspace: each channel has `Admins` of
its own, and the cache is keyed by the workspace's scope (`Platform.key(tenant)`), so the
same id on another platform makes nobody an admin. Where the group is unavailable (a
plan without user groups, a missing scope, the platform down) the named ids alone
decide. Nothing a user writes and nothing in memory ever makes someone an admin. Which
colleague a message plans for is `bot.planning.delegation`.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any, Protocol

log = logging.getLogger(__name__)

UNAVAILABLE = "!unavailable"
UNAVAILABLE_TTL_SECONDS = 60  # how long to trust the named ids alone before asking again
CACHE_SECONDS = 300


class AdminGroup(Protocol):
    """A group of the chat platform whose members are travel admins; its channel
    provides it."""

    @property
    def id(self) -> str: ...

    def members(self) -> frozenset[str] | None:
        """The members' user ids, asked of the platform; None when it cannot say."""
        ...


@dataclass(frozen=True)
class Admins:
    """The travel admins of one channel: ids named in configuration, and a group."""

    named: frozenset[str] = frozenset()
    group: AdminGroup | None = None

    def __bool__(self) -> bool:
        return bool(self.named) or self.group is not None


NOBODY = Admins()


class AdminResolver:
    """Answers "is this person a travel admin?" from configuration only."""

    def __init__(
        self, *, redis: Any | None, key_prefix: str = "", cache_seconds: int = CACHE_SECONDS
    ) -> None:
        self._ttl = cache_seconds
        self._prefix = key_prefix
        self._redis = redis

    def is_admin(self, scope: str, user_id: str, admins: Admins = NOBODY) -> bool:
        """Whether `user_id` of the workspace `scope` is one of `admins`."""
        if not user_id:
            return False
        if user_id in admins.named:
            return True
        if admins.group is None:
            return False
        members = self.group_members(scope, admins.group)
        return members is not None and user_id in members

    def group_members(self, scope: str, group: AdminGroup) -> frozenset[str] | None:
        """The admin group's members (cached), or None when the platform cannot say."""
        key = self._key(scope, group.id)
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

    def forget(self, scope: str, group_id: str) -> None:
        """Drop the cached membership (e.g. after the group changed)."""
        if self._redis is None:
            return
        try:
            self._redis.delete(self._key(scope, group_id))
        except Exception as exc:
            log.warning("admin cache unavailable (%s)", type(exc).__name__)

    def _key(self, scope: str, group_id: str) -> str:
        return f"{self._prefix}travel-admins:{scope}:{group_id}"

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


__all__ = ["NOBODY", "AdminGroup", "AdminResolver", "Admins"]
