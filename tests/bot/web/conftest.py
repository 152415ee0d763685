"""Fixtures for the preferences page: a running bot with the page on, links, browsers.

`prefs_bot` is the real `serve` application (Slack and the page mounted on one server,
real Redis, the real memory engine on SQLite) with `PUBLIC_URL` pointing at itself, so a
link the bot makes is a link a test can open. `Browser` is an HTTP client that keeps
cookies like a browser does and sends them back.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from bot.compose.links import preferences_url
from bot.prefs.links import issue_token
from memory.lang import Lang
from tests.bot.conftest import BotFactory
from tests.support.slack_harness import BotHarness

SECRET = "prefs-test-secret-5d1c9b"
ALICE, BOB = "U0ALICE", "U0BOB"


class PrefsBot:
    def __init__(self, harness: BotHarness) -> None:
        self.harness = harness
        self.memory = harness.core.memory
        self.url = harness.server.url
        self._clients: list[httpx.Client] = []

    def namespace(self, user: str = ALICE) -> str:
        return self.harness.namespace(user)

    def link(self, user: str = ALICE, *, lang: Lang | None = None, ttl: int | None = None) -> str:
        url = preferences_url(
            self.harness.settings, self.namespace(user), lang=lang, ttl_minutes=ttl
        )
        assert url is not None
        return url

    def token(self, user: str = ALICE, **kwargs: Any) -> str:
        kwargs.setdefault("ttl_seconds", 900)
        return issue_token(SECRET, self.namespace(user), **kwargs)

    def client(self, **kwargs: Any) -> httpx.Client:
        """A fresh client with its own cookie jar (a browser of its own)."""
        client = httpx.Client(base_url=self.url, timeout=30, **kwargs)
        self._clients.append(client)
        return client

    def api(self, token: str) -> httpx.Client:
        """A client that sends `Authorization: Bearer token` and no cookies."""
        return self.client(headers={"Authorization": f"Bearer {token}"})

    def signed_in(self, user: str = ALICE, *, lang: Lang | None = None) -> httpx.Client:
        """A browser that opened the person's link (and so holds their session)."""
        browser = self.client()
        response = browser.get(self.link(user, lang=lang), follow_redirects=True)
        assert response.status_code == 200, response.text
        return browser

    def close(self) -> None:
        for client in self._clients:
            client.close()


def start_prefs_bot(make_bot: BotFactory, **overrides: Any) -> PrefsBot:
    """A bot with the page on (more settings in `overrides`) and PUBLIC_URL at itself."""
    overrides.setdefault("prefs_link_secret", SECRET)
    overrides.setdefault("public_url", "http://placeholder")
    harness = make_bot(**overrides)
    if overrides["public_url"] == "http://placeholder":
        # The server's port is known only once it runs: point PUBLIC_URL at it.
        harness.settings.public_url = harness.server.url
    return PrefsBot(harness)


@pytest.fixture
def prefs_bot(make_bot: BotFactory) -> Iterator[PrefsBot]:
    bot = start_prefs_bot(make_bot)
    yield bot
    bot.close()
