"""Each person's language, from their Slack locale: `lang_of_locale` maps a locale to one
of our two languages, and `LocaleCache` keeps what `users.info` said for a few minutes.
"""

from __future__ import annotations

import logging
import threading
import time

from slack_sdk.web import WebClient

from bot.slack.listeners.home import SLACK_ERRORS, slack_error
from memory.lang import Lang

log = logging.getLogger(__name__)

LOCALE_TTL_SECONDS = 600.0
_LOCALE_CACHE_SIZE = 10_000


def lang_of_locale(locale: object, default: Lang = "en") -> Lang:
    """Slack's locale ("zh-CN", "zh-TW", "en-US", ...) as one of our two languages."""
    if not isinstance(locale, str) or not locale:
        return default
    return "zh" if locale.lower().startswith("zh") else "en"


class LocaleCache:
    """Each person's language from `users.info`, kept for a few minutes."""

    def __init__(self, ttl_seconds: float = LOCALE_TTL_SECONDS, default: Lang = "en") -> None:
        self._ttl = ttl_seconds
        self.default: Lang = default
        self._known: dict[str, tuple[float, Lang]] = {}
        self._lock = threading.Lock()

    def cached(self, team: str, user: str) -> Lang | None:
        with self._lock:
            entry = self._known.get(f"{team}:{user}")
        return entry[1] if entry and entry[0] > time.monotonic() else None

    def lang(self, client: WebClient, team: str, user: str) -> Lang:
        """The person's language; the workspace default when Slack won't say."""
        known = self.cached(team, user)
        if known is not None:
            return known
        try:
            info = client.users_info(user=user, include_locale=True)
            lang = lang_of_locale((info.get("user") or {}).get("locale"), self.default)
        except SLACK_ERRORS as exc:
            log.info("users.info failed (%s); using the default language", slack_error(exc))
            lang = self.default
        with self._lock:
            if len(self._known) >= _LOCALE_CACHE_SIZE:
                self._known.clear()
            self._known[f"{team}:{user}"] = (time.monotonic() + self._ttl, lang)
        return lang


__all__ = ["LOCALE_TTL_SECONDS", "LocaleCache", "lang_of_locale"]
