"""Benchmark: what the Bailian backend costs on our side, apart from the network.

Run through `bench/latency.py --backend bailian`. A local double of Bailian's memory API
(`doubles.BailianDouble`, loopback, answering at once) plays the service; Redis is the
real one on 127.0.0.1:6379 (its own key prefix, deleted afterwards). Every HTTP request
is timed at the transport (from sending to the last byte of the answer), so for each
recall the time some request was in flight ("network", the double's own work included)
is told apart from the rest ("ours": the privacy redaction, JSON encoding and decoding,
filtering by user, slot detection, the summary, the Redis round trips).

Per traveller size (20 and 200 facts, the double's search answering 10 of them):

- recall on a cache hit (the same request again): p50/p99;
- recall on a miss (a new request, nothing cached: search and profile at once): end to
  end, network, ours;
- a warmed traveller's new request (`warm` first: the snapshot of every node and the
  profile is cached, so one search call remains when the facts exceed the budget);
- record (one fact, add-async accepted): end to end, network, ours (the privacy guard
  and the checks included);
- ours on a miss taken apart, on the answers the double sent: decoding the JSON,
  reading and filtering the nodes, building the summary.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from doubles import BailianDouble
from latency import REDIS_URL, many_facts, percentile, redis_prefix, requests

from memory.bailian import BailianMemory, open_bailian_memory
from memory.bailian.nodes import read_nodes, read_profile
from memory.cache import PreferenceCache, query_field
from memory.privacy.guard import PrivacyGuard
from memory.profile import load_schema
from memory.redis_client import CACHE_TIMEOUT, open_redis
from memory.settings import MemorySettings

SIZES = (20, 200)
PROFILE = {"座位": "过道", "舱位": "经济舱", "红眼航班": "避开红眼航班"}


class TimedTransport(httpx.BaseTransport):
    """The real transport, remembering when each request was in flight (per thread)."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self._lock = threading.Lock()
        self.spans: list[tuple[float, float]] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        started = time.perf_counter()
        response = self.inner.handle_request(request)
        response.read()
        with self._lock:
            self.spans.append((started, time.perf_counter()))
        return response

    def in_flight(self) -> float:
        """Seconds during which at least one request was in flight; clears the spans."""
        with self._lock:
            spans, self.spans = sorted(self.spans), []
        total, end = 0.0, float("-inf")
        for start, stop in spans:
            if stop > end:
                total += stop - max(start, end)
                end = stop
        return total

    def close(self) -> None:
        self.inner.close()


@contextmanager
def bailian_memory(size: int) -> Iterator[tuple[BailianMemory, TimedTransport, BailianDouble]]:
    double = BailianDouble(many_facts(size), PROFILE)
    transport = TimedTransport()
    with redis_prefix() as prefix:
        settings = MemorySettings(
            memory_dsn="bailian://default",
            dashscope_api_key="bench",  # type: ignore[arg-type]
            bailian_base_url=double.base_url,
            bailian_profile_schema_id="bench-schema",
            redis_url=REDIS_URL,
            redis_key_prefix=prefix,
            # The service's quota is not our overhead: the limiter must never wait here
            # (at the default limits, 200 searches in a few seconds would queue).
            bailian_qpm=10**7,
            bailian_add_qpm=10**7,
            bailian_search_qpm=10**7,
        )
        cache = PreferenceCache(
            client=open_redis(REDIS_URL, timeout=CACHE_TIMEOUT),
            ttl_seconds=settings.memory_cache_ttl_seconds,
            key_prefix=prefix,
        )
        memory = open_bailian_memory(
            settings, cache=cache, schema=load_schema(), guard=PrivacyGuard(), transport=transport
        )
        try:
            yield memory, transport, double
        finally:
            memory.close()
            double.close()


def split(transport: TimedTransport, call: Callable[[], object], count: int) -> dict[str, float]:
    """p50 of end to end, network (in flight) and ours, over `count` calls (ms)."""
    total, network, ours = [], [], []
    for _ in range(count):
        transport.in_flight()
        started = time.perf_counter()
        call()
        elapsed = time.perf_counter() - started
        flying = transport.in_flight()
        total.append(elapsed * 1000)
        network.append(flying * 1000)
        ours.append((elapsed - flying) * 1000)
    return {
        "p50_ms": percentile(total, 50),
        "network_p50_ms": percentile(network, 50),
        "ours_p50_ms": percentile(ours, 50),
        "ours_p99_ms": percentile(ours, 99),
    }


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        out.append((time.perf_counter() - started) * 1000)
    return out


def measure(size: int) -> dict[str, Any]:
    result: dict[str, Any] = {"facts": size}
    with bailian_memory(size) as (memory, transport, double):
        namespace = f"bench-{uuid.uuid4().hex[:8]}:U1"
        asks = iter(requests(2000, f"b{size} "))
        for _ in range(5):  # connections, scripts, the slot detector's first texts
            memory.recall(namespace, next(asks))
        first = next(asks)
        memory.recall(namespace, first)
        hits = timed(lambda: memory.recall(namespace, first), 2000)
        result["hit_p50_ms"], result["hit_p99_ms"] = percentile(hits, 50), percentile(hits, 99)
        result["miss"] = _misses(memory, transport, namespace, asks)
        memory.cache.invalidate(namespace)
        assert memory.warm(namespace) == "warmed"
        result["warmed"] = split(transport, lambda: memory.recall(namespace, next(asks)), 200)
        memory.cache.settle()
        result["record"] = split(
            transport, lambda: memory.record(namespace, ["I prefer aisle seats"]), 100
        )
        memory.follower.settle()
        result["ours_parts"] = _parts(memory, double, namespace)
        assert memory.store.client.limiter.waited_seconds == 0
    return result


def _misses(
    memory: BailianMemory, transport: TimedTransport, namespace: str, asks: Iterator[str]
) -> dict[str, float]:
    total, network, ours = [], [], []
    for _ in range(200):
        memory.cache.invalidate(namespace)
        transport.in_flight()
        started = time.perf_counter()
        recalled = memory.recall(namespace, next(asks))
        elapsed = time.perf_counter() - started
        flying = transport.in_flight()
        assert recalled.summary and not recalled.cached
        total.append(elapsed * 1000)
        network.append(flying * 1000)
        ours.append((elapsed - flying) * 1000)
    return {
        "p50_ms": percentile(total, 50),
        "network_p50_ms": percentile(network, 50),
        "ours_p50_ms": percentile(ours, 50),
        "ours_p99_ms": percentile(ours, 99),
    }


def _parts(memory: BailianMemory, double: BailianDouble, namespace: str) -> dict[str, float]:
    """Ours on a miss, piece by piece, on the answers the double sends."""
    search = json.dumps(double.answer("POST", "memory_nodes/search", {}, {"top_k": 10})).encode()
    profile = json.dumps(double.answer("GET", "x/user_profile", {}, {})).encode()
    request = {"user_id": namespace, "messages": [{"role": "user", "content": "plan my trip"}]}
    nodes = read_nodes(json.loads(search), namespace)
    attributes = read_profile(json.loads(profile))
    reader = memory.reader
    field = query_field("a request never asked")
    parts = {
        "encode_ms": timed(lambda: json.dumps(request).encode(), 2000),
        "decode_ms": timed(lambda: (json.loads(search), json.loads(profile)), 2000),
        "read_filter_ms": timed(lambda: read_nodes(json.loads(search), namespace), 2000),
        "summary_ms": timed(
            lambda: reader.summary(namespace, nodes, attributes, "plan my trip", complete=False),
            2000,
        ),
        # The two Redis round trips of a miss: the lookup, and the fill of its summary.
        "redis_lookup_ms": timed(lambda: memory.cache.lookup(namespace, [field]), 2000),
    }
    return {name: percentile(values, 50) for name, values in parts.items()}


def run(json_out: Any = None) -> int:
    started = time.perf_counter()
    results = []
    for size in SIZES:
        r = measure(size)
        results.append(r)
        print(
            f"  [bailian] {size} facts: hit p50 {r['hit_p50_ms']:.3f} ms; miss p50 "
            f"{r['miss']['p50_ms']:.2f} ms (network {r['miss']['network_p50_ms']:.2f}, ours "
            f"{r['miss']['ours_p50_ms']:.2f})",
            flush=True,
        )
    print()
    print("facts  call                  p50 ms  network p50  ours p50  ours p99")
    for r in results:
        hit = f"{r['hit_p50_ms']:>6.3f}  (p99 {r['hit_p99_ms']:.3f})"
        print(f"{r['facts']:>5}  recall, cache hit     {hit}")
        for name, label in (
            ("miss", "recall, miss"),
            ("warmed", "recall, warmed"),
            ("record", "record (accepted)"),
        ):
            m = r[name]
            print(
                f"{r['facts']:>5}  {label:<20}  {m['p50_ms']:>6.2f}  {m['network_p50_ms']:>11.2f}"
                f"  {m['ours_p50_ms']:>8.2f}  {m['ours_p99_ms']:>8.2f}"
            )
    print()
    print(
        "ours on a miss, taken apart (p50 ms): "
        + ", ".join(f"{k.removesuffix('_ms')} {v:.3f}" for k, v in results[0]["ours_parts"].items())
    )
    print(f"total {time.perf_counter() - started:.0f} s")
    if json_out is not None:
        json_out.write_text(json.dumps({"bailian": results}, indent=2) + "\n", encoding="utf-8")
    return 0


__all__ = ["run"]
