"""Fixtures for the bot's tests: the scripted model server and an offline memory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memory import open_memory
from memory.engine import Memory
from tests.fakes.llm_server import ScriptedModel


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
