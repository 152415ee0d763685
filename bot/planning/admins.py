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
_NOT_POSSESSIVE = r"(?!\s*['’]s\b)"

# English: a plan/book/arrange verb whose object is the mention.
_EN_VERB = (
    r"\b(?:plan\w*|book\w*|arrang\w*|organi[sz]\w*|schedul\w*|reserv\w*|prepar\w*|"
    r"find|get|sort\s+out|set\s+up|look\s+(?:at|into|up)|check|review|change|update)"
)
_EN_TRIP = (
    r"(?:trips?|travel\w*|itinerar\w*|flights?|hotels?|trains?|journeys?|bookings?|"
    r"tickets?|plans?|visits?)\b"
)
_EN_FILLER = r"(?:(?!(?:my|me|our|us|myself)\b)[\w-]+\s+){0,3}?"  # "a", "the next business"
_EN_ROUTE = r"(?:\s+(?:to|from|in)\s+[^\s,.;:!?]+){0,2}"  # " to Chengdu", " from X to Y"
_EN_STRONG_PATTERNS = [
    # "book <@U> a flight", "plan <@U> a trip"
    _EN_VERB + r"\s+" + _MENTION + _NOT_POSSESSIVE + r"\s+" + _EN_FILLER + _EN_TRIP,
    # "plan <@U>'s trip", "book <@U>'s flights", "plan for <@U>'s trip"
    _EN_VERB + r"\s+(?:for\s+)?" + _MENTION + r"\s*['’]s\s+" + _EN_FILLER + _EN_TRIP,
    # "plan a trip for <@U>", "book a flight to Chengdu for <@U>", "plan for <@U>"
    _EN_VERB
    + r"\s+(?:(?:it|something|everything)\s+|"
    + _EN_FILLER
    + _EN_TRIP
    + _EN_ROUTE
    + r"\s+)?for\s+"
    + _MENTION
    + _NOT_POSSESSIVE,
]
_EN_STRONG = [re.compile(p, re.IGNORECASE) for p in _EN_STRONG_PATTERNS]
# "plan ... for <@U>" with a longer phrase in between (no clause break): the mention is
# probably the traveller, unless the writer also speaks of their own trip.
_EN_WEAK = re.compile(
    _EN_VERB + r"(?:\s+[^\s,.;:!?]+){0,8}?\s+for\s+" + _MENTION + _NOT_POSSESSIVE,
    re.IGNORECASE,
)

# Chinese: 给/帮/为/替 <@U> + a planning verb, a verb + <@U>的行程, 把<@U>的行程….
_ZH_TRIP = r"(?:行程|出差|旅行|旅程|差旅|机票|酒店|住宿|高铁|火车|航班|车票|票)"
_ZH_VERB = r"(?:规划|安排|预订|预定|订|计划|准备|买)"
_ZH_LOOK = r"(?:查|找|做|定|看看|看一下|弄|搞)"
_ZH_STRONG = [
    re.compile(r"(?:给|帮|为|替)\s*" + _MENTION + r"\s*" + _ZH_VERB),
    re.compile(
        r"(?:给|帮|为|替)\s*"
        + _MENTION
        + r"\s*"
        + _ZH_LOOK
        + r"[^，。,.;；!?！？]{0,8}?"
        + _ZH_TRIP
    ),
    re.compile(
        r"(?:"
        + _ZH_VERB
        + r"|"
        + _ZH_LOOK
        + r"|查一下|查查)(?:一下|下)?\s*"
        + _MENTION
        + r"\s*的\s*[^，。,.;；!?！？]{0,6}?"
        + _ZH_TRIP
    ),
    re.compile(r"把\s*" + _MENTION + r"\s*的\s*[^，。,.;；!?！？]{0,6}?" + _ZH_TRIP),
]
# "<@U> 的行程规划一下": the mention opens a clause that then asks for a plan.
_ZH_WEAK = re.compile(
    r"(?:^|[\s，。,.;；:：!?！？>])"
    + _MENTION
    + r"\s*的\s*[^，。,.;；!?！？]{0,6}?"
    + _ZH_TRIP
    + r"[^，。,.;；!?！？]{0,10}?(?:"
    + _ZH_VERB
    + r"|"
    + _ZH_LOOK
    + r")"
)

# The writer speaks of their own trip.
_FIRST_PERSON = re.compile(
    r"\bmy\s+(?:[\w-]+\s+){0,2}?"
    + _EN_TRIP
    + r"|\b(?:for|with|book|get|find|plan|arrange|reserve)\s+(?:me|myself|us)\b"
    + r"|\bI(?:['’]m|\s+am|['’]ll|\s+will)\s+(?:be\s+)?(?:going|travell?ing|flying|heading)\b"
    + r"|我的[^，。,.;；!?！？]{0,6}?"
    + _ZH_TRIP
    + r"|(?:帮|给|为|替)我(?:\s*"
    + _ZH_VERB
    + r"|[^，。,.;；!?！？]{0,8}?"
    + _ZH_TRIP
    + r")"
    + r"|我自己",
    re.IGNORECASE,
)


def _mentions(patterns: list[re.Pattern[str]], text: str) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for pattern in patterns:
        for match in pattern.finditer(text):
            user = next(g for g in match.groups() if g)
            found.append((match.start(), user))
    return sorted(found)


def about_self(text: str) -> bool:
    """True when the writer clearly speaks of their own trip ("my trip", "for me", "帮我订")."""
    return bool(text) and _FIRST_PERSON.search(text) is not None


def parse_plan_for(text: str, *, bot_user_id: str | None = None) -> str | None:
    """The Slack user id of the colleague a trip is to be planned for, or None.

    The mention must be the traveller: the object of a plan/book/arrange verb ("plan a
    trip for <@U123>", "plan <@U123>'s trip", "book <@U123> a flight", "给<@U123>规划…",
    "帮 <@U123> 订…", "为<@U123>安排…", "看看<@U123>的行程"; mentions may carry a name:
    `<@U123|alice>`). A mention that is merely nearby ("same flight as <@U>'s", "for
    <@U>'s offsite", "我和<@U>的行程一样") never counts, and a looser "plan ... for <@U>"
    does not count when the writer speaks of their own trip ("my trip", "for me", "我的行程",
    "帮我订"). The bot's own mention never counts. Comparing the result with the requester
    is the caller's business.
    """
    if not text:
        return None
    found = _mentions([*_EN_STRONG, *_ZH_STRONG], text)
    if not about_self(text):
        found += _mentions([_EN_WEAK, _ZH_WEAK], text)
    for _, user in found:
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
