"""Each person's language and time zone, from one `users.info` call kept for a few minutes.

The preferences form and the Home tab speak the person's Slack locale (`lang_of_locale`
maps it to one of our two languages); a chat turn dates "next Monday" in their time
zone. Both come from the same answer, so one cache serves both. When Slack will not say
(an error, a missing scope, Slack down), the workspace default language and UTC are
used and remembered just as long, so a failing Slack is not asked on every message.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

from slack_sdk.web import WebClient

from bot.slack.api import slack_error
from memory.lang import Lang

log = logging.getLogger(__name__)

TTL_SECONDS = 600.0
_CACHE_SIZE = 10_000


def lang_of_locale(locale: object, default: Lang = "en") -> Lang:
    """Slack's locale ("zh-CN", "zh-TW", "en-US", ...) as one of our two languages."""
    if not isinstance(locale, str) or not locale:
        return default
    return "zh" if locale.lower().startswith("zh") else "en"


@dataclass(frozen=True, slots=True)
class Person:
    lang: Lang
    tz: str  # an IANA time zone name, e.g. "Asia/Shanghai"


class People:
    """What `users.info` says of each person, kept for `ttl_seconds`; thread-safe."""

    def __init__(self, ttl_seconds: float = TTL_SECONDS, default: Lang = "en") -> None:
        self._ttl = ttl_seconds
        self.default: Lang = default
        self._known: dict[str, tuple[float, Person]] = {}
        self._lock = threading.Lock()

    def cached(self, team: str, user: str) -> Person | None:
        """What is known without asking Slack (None: not looked up lately)."""
        with self._lock:
            entry = self._known.get(f"{team}:{user}")
        return entry[1] if entry and entry[0] > time.monotonic() else None

    def cached_lang(self, team: str, user: str) -> Lang | None:
        person = self.cached(team, user)
        return person.lang if person else None

    def get(self, client: WebClient, team: str, user: str) -> Person:
        """The person's language and time zone; asks Slack unless known (it may block)."""
        known = self.cached(team, user)
        if known is not None:
            return known
        lang, tz = self.default, "UTC"
        try:
            info = client.users_info(user=user, include_locale=True).get("user") or {}
            lang = lang_of_locale(info.get("locale"), self.default)
            if isinstance(info.get("tz"), str) and info["tz"]:
                tz = info["tz"]
        except Exception as exc:  # an error answer, a missing scope, Slack unreachable
            log.info("users.info failed (%s); using the defaults", slack_error(exc))
        person = Person(lang=lang, tz=tz)
        with self._lock:
            if len(self._known) >= _CACHE_SIZE:
                self._known.clear()
            self._known[f"{team}:{user}"] = (time.monotonic() + self._ttl, person)
        return person

    def lang(self, client: WebClient, team: str, user: str) -> Lang:
        """The person's language; the workspace default when Slack won't say."""
        return self.get(client, team, user).lang


__all__ = ["TTL_SECONDS", "People", "Person", "lang_of_locale"]
