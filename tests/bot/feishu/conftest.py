"""Fixtures for the Feishu channel's tests: the fake open API and a running bot.

`feishu_api` is the bot's client for the fake (it never sleeps: a rate limit's wait
only counts against the call's patience), `notices` a notice pool, and
`incoming(fake, ...)` / `reply_sink(api, msg, notices, ...)` one person's message and
the sink that answers it, for the tests that drive a sink directly.

`make_feishu(**settings)` starts the real Feishu route (lark-oapi's dispatcher behind the
real HTTP server) with real Redis (a key prefix of its own), the real memory engine on
a SQLite file and the scripted model. Each test has an app id of its own, so the SDK's
process-wide token cache never hands one test's token to another's fake.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bot.conversation.incoming import IncomingMessage
from bot.feishu.api import FeishuAPI
from bot.feishu.incoming import PLATFORM
from bot.feishu.sink import FeishuReplySink
from bot.settings import Settings
from tests.support.feishu_api import FakeFeishuAPI
from tests.support.feishu_harness import ENCRYPT_KEY, VERIFICATION_TOKEN, FeishuHarness
from tests.support.harness import settings_for, started
from tests.support.llm_server import ScriptedModel


@pytest.fixture
def fake_feishu() -> Iterator[FakeFeishuAPI]:
    with FakeFeishuAPI(app_id=f"cli_{uuid.uuid4().hex[:12]}") as fake:
        fake.add_user("ou_alice", name="Alice")
        yield fake


@pytest.fixture
def feishu_api(fake_feishu: FakeFeishuAPI) -> FeishuAPI:
    return FeishuAPI(
        app_id=fake_feishu.app_id,
        app_secret=fake_feishu.app_secret,
        base_url=fake_feishu.base_url,
        timeout=5,
        sleep=lambda seconds: None,
    )


@pytest.fixture
def notices() -> Iterator[ThreadPoolExecutor]:
    pool = ThreadPoolExecutor(max_workers=2)
    yield pool
    pool.shutdown(wait=True)


def incoming(
    fake: FakeFeishuAPI, *, chat_id: str = "oc_1", chat_type: str = "p2p", **extra: Any
) -> IncomingMessage:
    """A person's message in `chat_id`, known to the fake (`extra`: `add_message`'s)."""
    message_id = f"om_{uuid.uuid4().hex[:10]}"
    fake.add_message(message_id, chat_id=chat_id, sender="ou_alice", text="plan my trip", **extra)
    return IncomingMessage(
        platform=PLATFORM,
        tenant="tk_1",
        user="ou_alice",
        conversation=chat_id,
        thread=message_id,
        message_id=message_id,
        text="plan my trip",
        kind="dm" if chat_type == "p2p" else "mention",
    )


def reply_sink(
    api: FeishuAPI, msg: IncomingMessage, notices: ThreadPoolExecutor, **extra: Any
) -> FeishuReplySink:
    """The sink answering `msg`: no reaction, no throttle, unless `extra` says otherwise."""
    values: dict[str, Any] = {"chat_type": "p2p", "reaction": "", "stream_interval": 0.0}
    values.update(extra)
    return FeishuReplySink(api=api, msg=msg, notices=notices, **values)


FeishuSettings = Callable[..., Settings]


@pytest.fixture
def make_feishu_settings(
    tmp_path: Path, bot_prefix: str, fake_feishu: FakeFeishuAPI, scripted_model: ScriptedModel
) -> FeishuSettings:
    def factory(**overrides: Any) -> Settings:
        values: dict[str, Any] = {
            "feishu_app_id": fake_feishu.app_id,
            "feishu_app_secret": fake_feishu.app_secret,
            "feishu_verification_token": VERIFICATION_TOKEN,
            "feishu_encrypt_key": ENCRYPT_KEY,
            "feishu_api_url": fake_feishu.base_url,
        }
        return settings_for(
            tmp_path,
            prefix=bot_prefix,
            model_url=scripted_model.base_url,
            database="feishu-memory",
            **(values | overrides),
        )

    return factory


FeishuFactory = Callable[..., FeishuHarness]


@pytest.fixture
def make_feishu(
    make_feishu_settings: FeishuSettings, fake_feishu: FakeFeishuAPI
) -> Iterator[FeishuFactory]:
    def factory(*, prefs_link: Any = None, **overrides: Any) -> FeishuHarness:
        settings = make_feishu_settings(**overrides)
        return FeishuHarness(settings=settings, fake=fake_feishu, prefs_link=prefs_link)

    with started(factory) as start:
        yield start


@pytest.fixture
def feishu(make_feishu: FeishuFactory) -> FeishuHarness:
    return make_feishu()
