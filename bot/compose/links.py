"""`PREFS_LINK_SECRET` and `PUBLIC_URL` read for the preferences page: whether it can be
served, whether links can be made, and fresh links (`bot.prefs.links` makes and checks
the tokens and takes these values as arguments). Part of the composition root: it gives
the channels `page_links(settings)`; `travel-bot prefs link` calls `preferences_url`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.prefs.links import (
    MIN_SECRET_CHARS,
    LinkProvider,
    link_url,
    public_base_of,
    public_url_problem,
)
from memory.lang import Lang

if TYPE_CHECKING:
    from bot.settings import Settings


def link_secret(settings: Settings) -> str | None:
    """`PREFS_LINK_SECRET` when it is set and long enough, else None."""
    secret = settings.prefs_link_secret
    value = secret.get_secret_value() if secret is not None else ""
    return value if len(value) >= MIN_SECRET_CHARS else None


def page_problem(settings: Settings) -> str | None:
    """Why the page cannot be served (None: it can): the secret is missing or too short."""
    secret = settings.prefs_link_secret
    if secret is None or not secret.get_secret_value():
        return "PREFS_LINK_SECRET is not set"
    if link_secret(settings) is None:
        return f"PREFS_LINK_SECRET is shorter than {MIN_SECRET_CHARS} characters"
    return None


def links_problem(settings: Settings) -> str | None:
    """Why no link can be made (None: links can be made): the page is off or no PUBLIC_URL."""
    problem = page_problem(settings)
    if problem is None and not public_base(settings):
        problem = public_url_problem(settings.public_url)
    return problem


def public_base(settings: Settings) -> str:
    """`PUBLIC_URL` without a trailing slash ("" when unset or not an http(s) URL)."""
    return public_base_of(settings.public_url)


def preferences_url(
    settings: Settings,
    namespace: str,
    *,
    lang: Lang | None = None,
    ttl_minutes: int | None = None,
) -> str | None:
    """A fresh link to `namespace`'s preferences page, or None when links are not configured.

    Valid for `ttl_minutes` (default `PREFS_LINK_TTL_MINUTES`), once; opens in `lang`
    when given (else the browser's language).
    """
    secret, base = link_secret(settings), public_base(settings)
    if secret is None or not base:
        return None
    minutes = settings.prefs_link_ttl_minutes if ttl_minutes is None else ttl_minutes
    return link_url(base, secret, namespace, ttl_minutes=minutes, lang=lang)


def page_links(settings: Settings) -> LinkProvider:
    """Fresh links to the web preferences page, for a channel's *Edit* button (None while
    the page is not configured)."""

    def link(namespace: str, lang: str) -> str | None:
        return preferences_url(settings, namespace, lang="zh" if lang == "zh" else "en")

    return link


__all__ = [
    "link_secret",
    "links_problem",
    "page_links",
    "page_problem",
    "preferences_url",
    "public_base",
]
