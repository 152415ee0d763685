"""Redis clients: the one place they are made, for memory and the bot alike.

A client connects on first use and fails fast: a Redis that is down degrades a request
(no cache, dedupe within one process only, no thread history), it never holds one up.
The socket timeout differs only with how much work one round trip carries:

- `CACHE_TIMEOUT` (0.5 s): the preference cache, on the path of every recall;
- `DEFAULT_TIMEOUT` (1 s): the bot's claims, thread history and admin-group cache;
- `BATCH_TIMEOUT` (2 s): cache warming, whose pipelines carry a few hundred commands.

Connecting never waits longer than a second, and a connection idle for
`HEALTH_CHECK_SECONDS` is pinged before it is used again.
"""

from __future__ import annotations

from typing import Any

CACHE_TIMEOUT = 0.5
DEFAULT_TIMEOUT = 1.0
BATCH_TIMEOUT = 2.0
HEALTH_CHECK_SECONDS = 30


def open_redis(url: str, *, timeout: float = DEFAULT_TIMEOUT) -> Any | None:
    """A `redis.Redis` for `url` (`REDIS_URL`), or None when it is empty (no Redis)."""
    if not url:
        return None
    import redis

    return redis.Redis.from_url(
        url,
        socket_timeout=timeout,
        socket_connect_timeout=min(timeout, 1.0),
        health_check_interval=HEALTH_CHECK_SECONDS,
    )


__all__ = ["BATCH_TIMEOUT", "CACHE_TIMEOUT", "DEFAULT_TIMEOUT", "open_redis"]
