"""What every channel's test harness shares: a bot built by the composition root, running.

`Running(settings)` opens the core as `travel-bot` does (`bot.compose.open_core`: real
Redis under the test's key prefix, the real memory engine on the test's SQLite file, the
real agent talking to the scripted model) and the one HTTP application. A channel's
harness mounts its channel on `web` and calls `serve()`: the real server on 127.0.0.1
(a free port) and an `httpx` client for it. `drain()` waits until every accepted event
has been handled, `close()` stops everything, once.

`settings_for(...)` is the settings every channel's tests start from: this test's
database, Redis prefix and scripted model, no chat platform configured; a channel's
conftest adds its own platform's.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import httpx

from bot import compose
from bot.http.server import Server
from bot.settings import Settings
from tests.support.services import REDIS_URL

# /metrics needs it (METRICS_TOKEN); the settings factories set it.
METRICS_TOKEN = "test-metrics-token-5b1c"
METRICS_AUTH = {"Authorization": f"Bearer {METRICS_TOKEN}"}


def settings_for(
    tmp_path: Path, *, prefix: str, model_url: str, database: str, **values: Any
) -> Settings:
    """Settings wired to this test's fakes: `values` are the platform's and the test's."""
    base: dict[str, Any] = {
        "memory_dsn": f"sqlite:///{tmp_path}/{database}.db",
        "redis_url": REDIS_URL,
        "redis_key_prefix": prefix,
        "slack_bot_token": None,
        "slack_signing_secret": None,
        "slack_app_token": None,
        "openai_base_url": model_url,
        "openai_api_key": "test-key",
        "llm_model": "scripted-model",
        "llm_fast_model": "",
        "llm_timeout_seconds": 10.0,
        "embedding_provider": "local",
        "agent_workers": 4,
        "metrics_token": METRICS_TOKEN,
    }
    return Settings(_env_file=None, **(base | values))  # type: ignore[call-arg]


class Running:
    """A bot's core and HTTP application, for one test (see the module docstring)."""

    drain_on_close = False  # whether `close` still answers what is queued

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.core = compose.open_core(settings)
        self.web = compose.web_app(settings, self.core)
        self._server: Server | None = None
        self._http: httpx.Client | None = None
        self._closers: list[Callable[[], None]] = []
        self._closed = False

    def serve(self) -> None:
        """Start the real HTTP server on a free port, and a client for it."""
        self._server = compose.server(self.web, self.settings).start()
        self._http = httpx.Client(base_url=self._server.url, timeout=30)

    @property
    def server(self) -> Server:
        assert self._server is not None, "serve() first"
        return self._server

    @property
    def http(self) -> httpx.Client:
        assert self._http is not None, "serve() first"
        return self._http

    def on_close(self, closer: Callable[[], None]) -> None:
        """Run `closer` once the core is closed (a channel's own clients)."""
        self._closers.append(closer)

    def drain(self) -> None:
        """Wait until every accepted event has been fully handled: the pools that take
        events in stop in the order work flows through them (an acknowledged event may
        still be on its way to its channel on the dispatch pool), so nothing can arrive
        afterwards; then the task and notice pools finish what they were given (they
        keep serving: the preferences page runs on the task pool)."""
        pools = self.core.pools
        for pool in (pools.dispatch, pools.listeners, pools.turns):
            pool.shutdown(wait=True)
        for pool in (pools.tasks, pools.notices):
            _quiesce(pool)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._http is not None:
            self._http.close()
        if self._server is not None:
            self._server.stop()
        self.web.close()
        self.core.close(drain=self.drain_on_close)
        for closer in self._closers:
            closer()


def _quiesce(pool: ThreadPoolExecutor, timeout: float = 30.0) -> None:
    """Wait until every job given to `pool` so far has finished: one job per worker, each
    holding its worker until all are held, can only all run once the earlier jobs are
    done (the queue is first in, first out)."""
    workers = pool._max_workers
    barrier = threading.Barrier(workers + 1, timeout=timeout)
    try:
        for _ in range(workers):
            pool.submit(barrier.wait)
    except RuntimeError:  # shut down: it finished what it had
        return
    barrier.wait()


R = TypeVar("R", bound=Running)


@contextmanager
def started(factory: Callable[..., R]) -> Iterator[Callable[..., R]]:
    """`factory`, whose every harness is closed when the test is over."""
    made: list[R] = []

    def start(*args: Any, **kwargs: Any) -> R:
        harness = factory(*args, **kwargs)
        made.append(harness)
        return harness

    try:
        yield start
    finally:
        for harness in made:
            harness.close()


__all__ = ["METRICS_AUTH", "METRICS_TOKEN", "Running", "settings_for", "started"]
