"""Fixtures for the bot's tests: the scripted model server, an offline memory, the fake
Slack Web API and a running bot.

`make_bot(**settings)` starts the real Bolt app behind the real HTTP server with real
Redis (a key prefix of its own, removed afterwards) and the real memory engine on a
SQLite file in the test's tmp dir.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.settings import Settings
from memory import open_memory
from memory.engine import Memory
from tests.support.harness import settings_for, started
from tests.support.llm_server import ScriptedModel
from tests.support.services import delete_keys
from tests.support.slack_api import FakeSlackAPI
from tests.support.slack_harness import BOT_TOKEN, SIGNING_SECRET, BotHarness
from tests.support.taker import closed_url, taker  # noqa: F401 (fixtures for every channel)


@pytest.fixture
def scripted_model() -> Iterator[ScriptedModel]:
    """A started scripted OpenAI-compatible server; `.script(...)`, `.requests`, `.base_url`."""
    with ScriptedModel() as model:
        yield model


@pytest.fixture
def sqlite_memory(tmp_path: Path) -> Iterator[Memory]:
    """The real memory engine on a fresh SQLite file, without the Redis cache."""
    mem = open_memory(dsn=f"sqlite:///{tmp_path}/m.db", redis_url="")
    yield mem
    mem.close()


@pytest.fixture
def slack() -> Iterator[FakeSlackAPI]:
    """The fake Slack Web API (expects the test bot token)."""
    with FakeSlackAPI(token=BOT_TOKEN) as fake:
        yield fake


@pytest.fixture
def bot_prefix(redis_prefix: str) -> Iterator[str]:
    """A Redis key prefix of this test's own; its keys are deleted afterwards."""
    prefix = f"{redis_prefix}bot-{uuid.uuid4().hex[:8]}:"
    yield prefix
    delete_keys(prefix)


SettingsFactory = Callable[..., Settings]


@pytest.fixture
def make_settings(
    tmp_path: Path, bot_prefix: str, slack: FakeSlackAPI, scripted_model: ScriptedModel
) -> SettingsFactory:
    """Settings for a bot wired to this test's fakes, Redis prefix and SQLite file."""

    def factory(**overrides: Any) -> Settings:
        values: dict[str, Any] = {
            "slack_bot_token": BOT_TOKEN,
            "slack_signing_secret": SIGNING_SECRET,
            "slack_api_url": slack.base_url,
        }
        return settings_for(
            tmp_path,
            prefix=bot_prefix,
            model_url=scripted_model.base_url,
            database="bot-memory",
            **(values | overrides),
        )

    return factory


BotFactory = Callable[..., BotHarness]


@pytest.fixture
def make_bot(make_settings: SettingsFactory, slack: FakeSlackAPI) -> Iterator[BotFactory]:
    """Start bots (real app, real server) with settings overrides; closed afterwards."""

    def factory(**overrides: Any) -> BotHarness:
        return BotHarness(settings=make_settings(**overrides), slack=slack)

    with started(factory) as start:
        yield start


@pytest.fixture
def bot(make_bot: BotFactory) -> BotHarness:
    return make_bot()
