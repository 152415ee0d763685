"""Redis clients: the one place they are made, for memory and the bot alike, a single
server or a Redis Cluster, from a URL.

    open_redis("redis://127.0.0.1:6379/0", timeout=CACHE_TIMEOUT)
    open_redis("redis+cluster://10.0.0.1:7000,10.0.0.2:7000")

`redis://`, `rediss://` and `unix://` URLs give a `redis.Redis`; `redis+cluster://` (or
`rediss+cluster://` for TLS) gives a Redis Cluster client that finds the other nodes
from the seed node(s) named. Keys that one Lua script or transaction touches together
must share a hash tag (`memory/cache.py` does); everything else uses one key per call.

A client connects on first use and fails fast: a Redis that is down degrades a request
(no cache, dedupe within one process only, no thread history), it never holds one up or
stops the process. (redis-py's cluster client connects in its constructor; `LazyCluster`
defers that to the first command and retries on every later command until it works.)
The socket timeout differs only with how much work one round trip carries:

- `CACHE_TIMEOUT` (0.5 s): the preference cache, on the path of every recall;
- `DEFAULT_TIMEOUT` (1 s): the bot's claims, thread history and admin-group cache;
- `BATCH_TIMEOUT` (2 s): cache warming, whose pipelines carry a few hundred commands.

Connecting never waits longer than a second, and a connection idle for
`HEALTH_CHECK_SECONDS` is pinged before it is used again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}
CACHE_TIMEOUT = 0.5
DEFAULT_TIMEOUT = 1.0
BATCH_TIMEOUT = 2.0
HEALTH_CHECK_SECONDS = 30


def is_cluster_url(url: str) -> bool:
    return urlsplit(url).scheme.lower() in CLUSTER_SCHEMES


def open_redis(url: str, *, timeout: float = DEFAULT_TIMEOUT) -> Any | None:
    """A client for `url` (`REDIS_URL`), or None when it is empty (no Redis configured)."""
    if not url:
        return None
    options: dict[str, Any] = {
        "socket_timeout": timeout,
        "socket_connect_timeout": min(timeout, 1.0),
        "health_check_interval": HEALTH_CHECK_SECONDS,
    }
    if is_cluster_url(url):
        return LazyCluster(url, options)
    import redis

    return redis.Redis.from_url(url, **options)


def _cluster_factory(url: str, options: dict[str, Any]) -> Callable[[], Any]:
    """A function that connects to the cluster named by a `redis+cluster://` URL."""
    parts = urlsplit(url)
    scheme = CLUSTER_SCHEMES[parts.scheme.lower()]
    userinfo, _, hosts = parts.netloc.rpartition("@")
    seeds = [seed.strip() for seed in hosts.split(",") if seed.strip()]
    if not seeds:
        raise ValueError("REDIS_URL: a redis+cluster:// URL needs at least one host:port")

    def seed_url(seed: str) -> str:
        netloc = f"{userinfo}@{seed}" if userinfo else seed
        return urlunsplit((scheme, netloc, "", parts.query, ""))

    def connect() -> Any:
        from redis import cluster

        node: Any = cluster.ClusterNode
        others = [urlsplit(f"//{seed}") for seed in seeds[1:]]
        nodes = [node(s.hostname or "127.0.0.1", s.port or 6379) for s in others]
        connect_to: Any = cluster.RedisCluster.from_url
        return connect_to(seed_url(seeds[0]), startup_nodes=nodes, **options)

    return connect


class LazyCluster:
    """A Redis Cluster client that connects on first use (and again after a failed try).

    Commands go to `redis.cluster.RedisCluster`; a cluster that cannot be reached raises
    `redis.exceptions.ConnectionError`, like a single server that is down, and every
    other failure a `redis.exceptions.RedisError`, so callers handle both kinds alike.
    """

    def __init__(self, url: str, options: dict[str, Any]) -> None:
        self._connect = _cluster_factory(url, options)
        self._client: Any | None = None
        self._lock = threading.Lock()

    def client(self) -> Any:
        """The connected cluster client (connecting now if need be)."""
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import RedisClusterException

        client = self._client
        if client is not None:
            return client
        with self._lock:
            if self._client is None:
                try:
                    self._client = self._connect()
                except RedisClusterException as exc:
                    raise RedisConnectionError(str(exc)) from exc
            return self._client

    def register_script(self, script: str) -> Any:
        """A script bound to this client; nothing is sent until it is first called."""
        from redis.commands.core import Script

        return Script(self, script)  # type: ignore[arg-type]

    def get_encoder(self) -> Any:
        """How `Script` turns its text into bytes (the cluster's default encoding)."""
        from redis._parsers import encoders

        encoder: Any = encoders.Encoder
        return encoder(encoding="utf-8", encoding_errors="strict", decode_responses=False)

    def close(self) -> None:
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            client.close()

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self.client(), name)
        if not callable(attribute):
            return attribute
        return _translated(attribute)


def _translated(method: Callable[..., Any]) -> Callable[..., Any]:
    """`method`, raising redis-py's client-side cluster failures (not `RedisError`s:
    e.g. no reachable node, keys of one call in different slots) as `ClusterError`."""

    def call(*args: Any, **kwargs: Any) -> Any:
        from redis.exceptions import ClusterError, RedisClusterException

        try:
            return method(*args, **kwargs)
        except RedisClusterException as exc:
            raise ClusterError(str(exc)) from exc

    return call


__all__ = [
    "BATCH_TIMEOUT",
    "CACHE_TIMEOUT",
    "DEFAULT_TIMEOUT",
    "LazyCluster",
    "is_cluster_url",
    "open_redis",
]
