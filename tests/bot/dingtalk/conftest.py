"""Fixtures for the DingTalk robot's tests: the fake OpenAPI (with its stream gateway),
settings wired to it, and running robots in HTTP and Stream mode; `parts` and
`make_sink(...)` for the tests that drive a reply sink on its own."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bot.dingtalk.api import OpenAPI
from bot.dingtalk.delivery import Delivery, Destination
from bot.dingtalk.sink import DingTalkReplySink
from bot.dingtalk.timers import Timers
from bot.metrics import Metrics
from bot.settings import Settings
from tests.support.dingtalk_api import CLIENT_ID, CLIENT_SECRET, FakeDingTalkAPI
from tests.support.dingtalk_harness import GROUP, HTTPRobot, StreamRobot
from tests.support.harness import settings_for, started
from tests.support.llm_server import ScriptedModel


@pytest.fixture
def dingtalk() -> Iterator[FakeDingTalkAPI]:
    """DingTalk's OpenAPI, session webhooks and stream gateway, played locally."""
    with FakeDingTalkAPI() as fake:
        yield fake


CONVERSATION = "cidDM-staff-alice=="


@pytest.fixture
def parts(dingtalk: FakeDingTalkAPI) -> Iterator[tuple[OpenAPI, ThreadPoolExecutor, Timers]]:
    api = OpenAPI(client_id=CLIENT_ID, client_secret=CLIENT_SECRET, base_url=dingtalk.base_url)
    pool = ThreadPoolExecutor(max_workers=2)
    timers = Timers(pool)
    yield api, pool, timers
    timers.close()
    pool.shutdown(wait=True)
    api.close()


def make_sink(
    dingtalk: FakeDingTalkAPI,
    parts: tuple[OpenAPI, ThreadPoolExecutor, Timers],
    *,
    group: bool = False,
    **options: Any,
) -> DingTalkReplySink:
    """A sink answering alice one-to-one (or in `GROUP`); `options`: the sink's own."""
    api, pool, timers = parts
    conversation = GROUP if group else CONVERSATION
    webhook, expires_ms = dingtalk.new_session(conversation)
    destination = Destination(
        "2" if group else "1", conversation, "staff-alice", webhook, expires_ms / 1000
    )
    return DingTalkReplySink(
        delivery=Delivery(api, destination),
        notices=pool,
        timers=timers,
        metrics=Metrics(),
        **options,
    )


SettingsFactory = Callable[..., Settings]


@pytest.fixture
def dingtalk_settings(
    tmp_path: Path, bot_prefix: str, dingtalk: FakeDingTalkAPI, scripted_model: ScriptedModel
) -> SettingsFactory:
    """Settings for a DingTalk-only robot wired to this test's fakes, Redis and SQLite."""

    def factory(**overrides: Any) -> Settings:
        values: dict[str, Any] = {
            "dingtalk_client_id": CLIENT_ID,
            "dingtalk_client_secret": CLIENT_SECRET,
            "dingtalk_api_url": dingtalk.base_url,
            "dingtalk_progress_seconds": 0,
        }
        return settings_for(
            tmp_path,
            prefix=bot_prefix,
            model_url=scripted_model.base_url,
            database="dingtalk-memory",
            **(values | overrides),
        )

    return factory


@pytest.fixture
def make_robot(
    dingtalk_settings: SettingsFactory, dingtalk: FakeDingTalkAPI
) -> Iterator[Callable[..., HTTPRobot]]:
    """Start robots in HTTP mode behind the real server; closed afterwards."""

    def factory(preferences_url: Any = None, **overrides: Any) -> HTTPRobot:
        settings = dingtalk_settings(**overrides)
        return HTTPRobot(settings=settings, fake=dingtalk, preferences_url=preferences_url)

    with started(factory) as start:
        yield start


@pytest.fixture
def robot(make_robot: Callable[..., HTTPRobot]) -> HTTPRobot:
    return make_robot()


@pytest.fixture
def make_stream_robot(
    dingtalk_settings: SettingsFactory, dingtalk: FakeDingTalkAPI
) -> Iterator[Callable[..., StreamRobot]]:
    """Start robots in Stream mode on a thread; stopped afterwards."""

    def factory(ping_seconds: float = 0.5, **overrides: Any) -> StreamRobot:
        settings = dingtalk_settings(**overrides)
        return StreamRobot(settings=settings, fake=dingtalk, ping_seconds=ping_seconds)

    with started(factory) as start:
        yield start
