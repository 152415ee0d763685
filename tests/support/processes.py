"""`travel-bot` run as its own process by a test: its environment, and waiting for it."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from tests.conftest import REDIS_URL

_KEEP = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "HF_HOME", "XDG_CACHE_HOME")


def bot_env(tmp_path: Path, prefix: str, **extra: str) -> dict[str, str]:
    """A clean environment: this run's SQLite file and Redis key prefix, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if k in _KEEP}
    env.update(
        MEMORY_DSN=f"sqlite:///{tmp_path}/serve.db",
        REDIS_URL=REDIS_URL,
        REDIS_KEY_PREFIX=prefix,
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def wait_until_healthy(
    process: subprocess.Popen[bytes],
    base: str,
    output: Callable[[], str],
    *,
    seconds: float = 60,
    poll: float = 0.1,
) -> None:
    """Until `base`/healthz answers 200; fails with the process's `output` if it exits."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert process.poll() is None, output()
        assert time.monotonic() < deadline, "travel-bot serve did not come up"
        time.sleep(poll)
