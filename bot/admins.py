"""Travel admins, and recognising a request to plan a trip for a colleague.

Admin status comes only from configuration: `TRAVEL_ADMIN_USER_IDS` (comma-separated
Slack user ids) and/or `TRAVEL_ADMIN_USERGROUP_ID` (a Slack user group, whose members
are cached in Redis for `TRAVEL_ADMIN_CACHE_SECONDS`). Where user groups are unavailable
(a plan without them, a missing scope, Slack down) the id list alone decides. Nothing a
user writes and nothing in memory ever makes someone an admin.
"""

from __future__ import annotations

import json
import logging
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.settings import Settings

log = logging.getLogger(__name__)

UNAVAILABLE = "!unavailable"
UNAVAILABLE_TTL_SECONDS = 60  # how long to trust the id list alone before asking Slack again

_MENTION = r"<@([UW][A-Z0-9]+)(?:\|[^>]*)?>"
_PLAN_WORDS = re.compile(
    r"\b(?:plan\w*|trips?|itinerar\w*|book\w*|travel\w*|flights?|hotels?|arrange\w*|"
    r"organi[sz]e\w*|schedule\w*)\b",
    re.IGNORECASE,
)
_FOR_MENTION = re.compile(r"\bfor\s+" + _MENTION, re.IGNORECASE)
_POSSESSIVE = re.compile(
    _MENTION + r"\s*['’]s\s+(?:\w+\s+){0,2}?(?:trip|travel|itinerary|flight|hotel)",
    re.IGNORECASE,
)
_ZH = re.compile(
    r"(?:给|帮|为|替)\s*" + _MENTION + r"\s*(?:规划|安排|订|预订|预定|计划|查|找|做|定|准备|看看)"
    r"|" + _MENTION + r"\s*的\s*(?:行程|出差|旅行|差旅|机票|酒店|高铁)"
)


def parse_plan_for(text: str, *, bot_user_id: str | None = None) -> str | None:
    """The Slack user id of the colleague a trip is to be planned for, or None.

    Recognises "plan a trip for <@U123> ...", "book <@U123>'s flights", "给<@U123>规划…",
    "帮 <@U123> 订…" and "<@U123> 的行程…" (mentions may carry a name: `<@U123|alice>`).
    The bot's own mention never counts. Comparing the result with the requester is the
    caller's business.
    """
    if not text:
        return None
    found: list[tuple[int, str]] = []
    for match in _ZH.finditer(text):
        user = match.group(1) or match.group(2)
        found.append((match.start(), user))
    for match in _POSSESSIVE.finditer(text):
        found.append((match.start(), match.group(1)))
    if _PLAN_WORDS.search(text):
        for match in _FOR_MENTION.finditer(text):
            found.append((match.start(), match.group(1)))
    for _, user in sorted(found):
        if user != bot_user_id:
            return user
    return None


class AdminResolver:
    """Answers "is this Slack user a travel admin?" from configuration only."""

    def __init__(self, settings: Settings, redis: Any | None, slack_client: Any | None) -> None:
        self._ids = settings.admin_user_ids
        self._group = settings.travel_admin_usergroup_id.strip()
        self._ttl = settings.travel_admin_cache_seconds
        self._prefix = settings.redis_key_prefix
        self._redis = redis
        self._slack = slack_client

    @property
    def configured(self) -> bool:
        return bool(self._ids or self._group)

    def is_admin(self, team_id: str, user_id: str) -> bool:
        if not user_id:
            return False
        if user_id in self._ids:
            return True
        if not self._group:
            return False
        members = self.group_members(team_id)
        return members is not None and user_id in members

    def group_members(self, team_id: str) -> frozenset[str] | None:
        """The admin group's members (cached), or None when Slack cannot say."""
        key = f"{self._prefix}travel-admins:{team_id}:{self._group}"
        cached = self._cache_get(key)
        if cached == UNAVAILABLE:
            return None
        if cached is not None:
            try:
                return frozenset(str(u) for u in json.loads(cached))
            except (ValueError, TypeError):
                pass  # unreadable: ask Slack again
        members = self._fetch()
        if members is None:
            self._cache_set(key, UNAVAILABLE, min(UNAVAILABLE_TTL_SECONDS, self._ttl))
            return None
        self._cache_set(key, json.dumps(sorted(members)), self._ttl)
        return members

    def forget(self, team_id: str) -> None:
        """Drop the cached membership (e.g. after the group changed)."""
        if self._redis is None:
            return
        try:
            self._redis.delete(f"{self._prefix}travel-admins:{team_id}:{self._group}")
        except Exception as exc:
            log.warning("admin cache unavailable (%s)", type(exc).__name__)

    def _fetch(self) -> frozenset[str] | None:
        if self._slack is None:
            return None
        try:
            response = self._slack.usergroups_users_list(usergroup=self._group)
            users = response.get("users")
        except Exception as exc:  # SlackApiError (e.g. paid_teams_only), network errors
            error = getattr(getattr(exc, "response", None), "get", lambda _k: None)("error")
            log.warning(
                "admin user group unavailable (%s); using TRAVEL_ADMIN_USER_IDS only",
                error or type(exc).__name__,
            )
            return None
        if not isinstance(users, list):
            return None
        return frozenset(str(u) for u in users)

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
