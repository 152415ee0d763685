"""Benchmark: recall latency, record throughput, store growth and resident memory.

Per backend (SQLite file, PostgreSQL schema), with the bundled local model:

- retrieve on a cache hit, over loopback Redis (p50/p99; target p99 <= 2 ms);
- retrieve on a miss with 200 facts in the namespace: a new request each time, nothing
  cached, so the request is embedded, the facts read, ranked, summarised and cached
  (p50; target <= 30 ms);
- retrieve for a warmed traveller (20, 200 and 500 facts, `Memory.warm` first): a new
  request each time, answered from the facts cached in Redis without the database;
  p50 end to end, and the part beyond embedding the request (target <= 1 ms), with the
  bytes the traveller's cache entry takes in Redis (`MEMORY USAGE`);
- record throughput: facts/s through `Memory.record`, 20 facts a call (embedding
  included, the model's time dominates);
- search latency as the store grows: synthetic facts (random unit vectors) are
  bulk-inserted with SQL in namespaces of 25 facts (1k, 10k, 100k and 500k facts = 20k
  namespaces; --quick stops at 100k), and `search` is timed in 25 fixed namespaces of
  that typical size at every step, in bursts alternating with a second store that stays
  at the smallest size (target: within 1.5x of it; alternating cancels out a machine
  that is busy with other work at the moment). The request's
  embedding is cached, so the figure is the store's part (read + rank); the model adds
  a constant ~15 ms (see the miss figure).

And once: the peak resident memory (RSS) of a fresh process that loads the model,
records 200 facts and answers searches and retrieves (target <= 400 MB).

    .venv/bin/python bench/latency.py                    # both backends, up to 500k facts
    .venv/bin/python bench/latency.py --backend sqlite --quick   # up to 100k facts
    .venv/bin/python bench/latency.py --backend bailian          # Bailian: our side only

`--backend bailian` measures something else: what the Bailian memory backend adds on our
side against a local double of the service, apart from the network (`bailian_latency.py`).

PostgreSQL: a fresh schema in database `test` on 127.0.0.1 (dropped afterwards);
SQLite: a file in a temporary directory; Redis: 127.0.0.1:6379 with a key prefix of
its own, whose keys are deleted afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scratch import scratch_database  # noqa: E402

from memory import open_memory  # noqa: E402
from memory.engine import Memory  # noqa: E402
from memory.lang import detect_lang  # noqa: E402
from memory.migrations import MEMORY_MIGRATIONS, migrate  # noqa: E402
from memory.store import Backend, utcnow  # noqa: E402
from memory.types import MemoryItem  # noqa: E402

REDIS_URL = "redis://127.0.0.1:6379/0"
NAMESPACE_FACTS = 200
WARMED_SIZES = (20, 30, 100, 200, 500)
TYPICAL_FACTS = 25
PROBES = 25  # namespaces timed at every store size
DIM = 384

_ACTIVITIES = [
    "quiet cafes",
    "street food markets",
    "art museums",
    "morning runs by the river",
    "jazz bars",
    "botanical gardens",
    "bookshops",
    "night markets",
    "hiking trails",
    "local breweries",
    "temples",
    "cooking classes",
    "bike tours",
    "hot springs",
    "live theatre",
    "vintage shops",
    "rooftop terraces",
    "seafood restaurants",
    "tea houses",
    "city parks",
]
_CITIES = [
    "Chengdu",
    "Lisbon",
    "Kyoto",
    "Berlin",
    "Hangzhou",
    "Oslo",
    "Seoul",
    "Xi'an",
    "Porto",
    "Vienna",
    "Taipei",
    "Prague",
]
_REQUESTS_EN = [
    "plan my trip to {}",
    "book a hotel in {} for next week",
    "what should I do on a free evening in {}",
    "find me a train to {}",
]
_REQUESTS_ZH = ["帮我规划去{}的行程", "在{}订个酒店", "去{}出差怎么安排", "帮我订去{}的机票"]
_CITIES_ZH = ["成都", "广州", "杭州", "西安", "重庆", "南京", "青岛", "厦门", "昆明", "长沙"]


def synthetic_facts(count: int) -> list[str]:
    """Distinct, harmless free-text preferences (no slots, numbers or amounts)."""
    out = [f"When I visit {city} I like {activity}" for city in _CITIES for activity in _ACTIVITIES]
    if count > len(out):
        raise ValueError(f"at most {len(out)} synthetic facts")
    return out[:count]


def requests(count: int, salt: str = "") -> list[str]:
    """Distinct recall requests in English and Chinese (each embedded once: cache misses);
    a different `salt` gives requests the process has not embedded yet."""
    out: list[str] = []
    for number in range(count):
        if number % 2:
            city = _CITIES_ZH[number % len(_CITIES_ZH)]
            text = _REQUESTS_ZH[(number // 2) % len(_REQUESTS_ZH)].format(city)
            out.append(f"{text}（{salt}第{number}次）")
        else:
            city = _CITIES[number % len(_CITIES)]
            text = _REQUESTS_EN[(number // 2) % len(_REQUESTS_EN)].format(city)
            out.append(f"{text} ({salt}request {number})")
    return out


def percentile(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q))


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    """Milliseconds per call."""
    out = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        out.append((time.perf_counter() - started) * 1000)
    return out


@dataclass
class BackendResult:
    backend: str
    hit_ms: list[float] = field(default_factory=list)
    miss_ms: list[float] = field(default_factory=list)
    model_ms: list[float] = field(default_factory=list)
    miss_beyond_ms: list[float] = field(default_factory=list)  # the miss minus its embedding
    record_facts_per_s: float = 0.0
    warmed: list[dict[str, Any]] = field(default_factory=list)
    growth: list[dict[str, Any]] = field(default_factory=list)


@contextmanager
def redis_prefix() -> Iterator[str]:
    import redis

    prefix = f"bench-latency-{uuid.uuid4().hex[:8]}:"
    try:
        yield prefix
    finally:
        client: Any = redis.Redis.from_url(REDIS_URL)
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            client.delete(*keys)
        client.close()


def measure_cache_and_model(memory: Memory, result: BackendResult, run_id: str) -> None:
    facts = synthetic_facts(NAMESPACE_FACTS)
    # Record throughput: fresh namespaces, 20 facts a call, embedding included.
    chunk = memory.settings.memory_max_facts_per_call
    started = time.perf_counter()
    for start in range(0, len(facts), chunk):
        outcomes = memory.record(f"{run_id}:record", facts[start : start + chunk], "import")
        assert all(o.status == "added" for o in outcomes), outcomes
    result.record_facts_per_s = len(facts) / (time.perf_counter() - started)

    namespace = f"{run_id}:recall"
    for start in range(0, len(facts), chunk):
        memory.record(namespace, facts[start : start + chunk], "import")
    warm = requests(3, result.backend[0] + " ")
    for text in warm:  # load the model's pages, the connection, the cache script
        memory.retrieve(namespace, text)
    # Miss: a new request each time, so the request is embedded, and nothing cached (any
    # recall caches the namespace's facts, so they are dropped first, untimed).
    timed_memory = Memory(
        store=memory.store,
        cache=memory.cache,
        embedder=TimedEmbedder(memory.embedder),
        schema=memory.schema,
        settings=memory.settings,
    )
    embedder = timed_memory.embedder
    assert isinstance(embedder, TimedEmbedder)
    for text in requests(60, result.backend[0] + " ")[3:]:
        memory.cache.invalidate(namespace)
        embedder.last_ms = 0.0
        started = time.perf_counter()
        recalled = timed_memory.recall(namespace, text)
        result.miss_ms.append((time.perf_counter() - started) * 1000)
        result.miss_beyond_ms.append(result.miss_ms[-1] - embedder.last_ms)
        assert recalled.summary and not recalled.cached
    # The model alone, for comparison: embedding a new request.
    for text in requests(120, result.backend[0] + " ")[60:]:
        started = time.perf_counter()
        memory.embedder.embed_query(text)
        result.model_ms.append((time.perf_counter() - started) * 1000)
    # Hit: the same request again; the summary comes from Redis.
    hit_query = warm[0]
    before = memory.cache.stats.hits
    result.hit_ms = timed(lambda: memory.retrieve(namespace, hit_query), 2000)
    if memory.cache.stats.hits - before < 2000:
        raise SystemExit("cache hits were not served from Redis; is Redis up?")


_ACTIVITIES_ZH = [
    "安静的咖啡馆",
    "夜市",
    "美术馆",
    "河边晨跑",
    "爵士酒吧",
    "植物园",
    "独立书店",
    "小吃街",
    "徒步小道",
    "精酿酒馆",
    "寺庙",
    "烹饪课",
    "骑行游",
    "温泉",
    "话剧",
    "古着店",
    "屋顶露台",
    "海鲜餐厅",
    "茶馆",
    "城市公园",
    "历史博物馆",
    "老街",
    "现场音乐",
    "菜市场",
    "湖边散步",
    "古镇",
]


def many_facts(count: int) -> list[str]:
    """Up to 500 distinct free-text preferences, English and Chinese."""
    chinese = [f"去{city}的时候喜欢逛{a}" for city in _CITIES_ZH for a in _ACTIVITIES_ZH]
    out = [x for pair in zip(synthetic_facts(240), chinese, strict=False) for x in pair]
    out += chinese[240:]
    if count > len(out):
        raise ValueError(f"at most {len(out)} facts")
    return out[:count]


class TimedEmbedder:
    """The engine's embedder, timing each request it embeds (`last_ms`)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name: str = inner.name
        self.dim: int = inner.dim
        self.last_ms = 0.0

    def embed_passages(self, texts: Sequence[str]) -> Any:
        return self.inner.embed_passages(texts)

    def embed_query(self, text: str) -> Any:
        started = time.perf_counter()
        vector = self.inner.embed_query(text)
        self.last_ms += (time.perf_counter() - started) * 1000
        return vector


def seed_facts(memory: Memory, namespace: str, texts: Sequence[str]) -> None:
    """`texts` as current facts of `namespace`, straight into the store (embedded with the
    engine's model): the synthetic facts are templated alike, so recorded one after the
    other the change-of-mind reader (issue 22) would take many for changes of others."""
    vectors = memory.embedder.embed_passages(list(texts))
    stamp = utcnow()

    def work(tx: Any) -> None:
        for number, (text, vector) in enumerate(zip(texts, vectors, strict=True)):
            item = MemoryItem(
                id=uuid.uuid4().hex,
                namespace=namespace,
                text=text,
                source="import",
                created_at=stamp + timedelta(microseconds=number),
                lang=detect_lang(text),
            )
            tx.insert(item, vector, memory.embedder.name)

    memory.items(namespace)  # the schema, migrated
    memory.store.write(namespace, work)


def measure_warmed(memory: Memory, result: BackendResult, run_id: str) -> None:
    """A warmed traveller's new requests: end to end, and beyond embedding the request."""
    import redis

    client: Any = redis.Redis.from_url(REDIS_URL)
    try:
        for size in WARMED_SIZES:
            namespace = f"{run_id}:warmed{size}"
            seed_facts(memory, namespace, many_facts(size))
            current = len(memory.items(namespace))
            assert current == size, (current, size)
            memory.cache.invalidate(namespace)
            assert memory.warm(namespace) == "warmed"
            entry_bytes = int(client.memory_usage(memory.cache.key(namespace), samples=0))
            salt = f"{result.backend[0]}w{size} "
            timed_memory = Memory(
                store=memory.store,
                cache=memory.cache,
                embedder=TimedEmbedder(memory.embedder),
                schema=memory.schema,
                settings=memory.settings,
            )
            embedder = timed_memory.embedder
            assert isinstance(embedder, TimedEmbedder)
            for text in requests(5, salt + "warm-up "):
                timed_memory.recall(namespace, text)
            # New requests, end to end; the model's part is timed inside the same call.
            fresh, model, beyond = [], [], []
            for text in requests(80, salt):
                embedder.last_ms = 0.0
                started = time.perf_counter()
                recalled = timed_memory.recall(namespace, text)
                fresh.append((time.perf_counter() - started) * 1000)
                assert recalled.cached and recalled.summary and embedder.last_ms > 0
                model.append(embedder.last_ms)
                beyond.append(fresh[-1] - embedder.last_ms)
                memory.cache.settle()  # its summary, cached in the background: not timed
            after = int(client.memory_usage(memory.cache.key(namespace), samples=0))
            result.warmed.append(
                {
                    "facts": size,
                    "redis_bytes": entry_bytes,
                    "redis_bytes_after_requests": after,
                    "p50_ms": percentile(fresh, 50),
                    "model_p50_ms": percentile(model, 50),
                    "beyond_embedding_p50_ms": percentile(beyond, 50),
                    "beyond_embedding_p99_ms": percentile(beyond, 99),
                }
            )
            w = result.warmed[-1]
            print(
                f"  [{result.backend}] warmed, {size} facts ({current} current; "
                f"{entry_bytes} bytes in Redis): "
                f"new request p50 {w['p50_ms']:.1f} ms (model alone {w['model_p50_ms']:.1f}), "
                f"beyond embedding p50 {w['beyond_embedding_p50_ms']:.2f} ms "
                f"p99 {w['beyond_embedding_p99_ms']:.2f} ms; {after} bytes after 85 requests "
                f"({(after - entry_bytes) / 85:.0f} per request's summary)",
                flush=True,
            )
    finally:
        client.close()


def bulk_insert(backend: Backend, model: str, first_ns: int, namespaces: int) -> None:
    """`namespaces` namespaces of TYPICAL_FACTS synthetic facts each, straight into SQL."""
    rng = np.random.default_rng(first_ns + 1)
    base = utcnow() - timedelta(days=30)
    batch = 500  # namespaces per transaction
    for start in range(first_ns, first_ns + namespaces, batch):
        stop = min(start + batch, first_ns + namespaces)
        count = (stop - start) * TYPICAL_FACTS
        vectors = rng.standard_normal((count, DIM)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        rows = []
        for offset in range(count):
            number = start + offset // TYPICAL_FACTS
            rows.append(
                (
                    uuid.uuid4().hex,
                    f"TBENCH:U{number:06d}",
                    f"synthetic preference {offset % TYPICAL_FACTS} of traveller {number}",
                    "en",
                    "bench",
                    backend.to_db_time(base + timedelta(seconds=offset)),
                    backend.blob(vectors[offset].tobytes()),
                    model,
                )
            )
        with backend.transaction() as cur:
            raw: Any = cur
            if backend.name == "postgresql":
                with raw.copy(
                    "COPY memory_items (id, namespace, text, lang, source, created_at, "
                    "embedding, embedding_model) FROM STDIN"
                ) as copy:
                    for row in rows:
                        copy.write_row(row)
            else:
                raw.executemany(
                    "INSERT INTO memory_items (id, namespace, text, lang, source, created_at, "
                    "embedding, embedding_model) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    rows,
                )
    if backend.name == "postgresql":
        with backend.transaction() as cur:
            cur.execute("ANALYZE memory_items")


def search_burst(memory: Memory, probes: Sequence[str], query: str) -> list[float]:
    """Milliseconds per `search`, 8 rounds over the probe namespaces."""
    times: list[float] = []
    for _ in range(8):
        for namespace in probes:
            started = time.perf_counter()
            memory.search(namespace, query)
            times.append((time.perf_counter() - started) * 1000)
    return times


def measure_growth(
    memory: Memory, reference: Memory, result: BackendResult, sizes: Sequence[int]
) -> None:
    """Grow `memory`'s store step by step; at each step time `search` in alternating bursts
    against `reference`, a store that keeps the smallest size, so a busy machine slows
    both alike and the ratio shows what the store's growth costs."""
    backend = memory.store.backend
    for mem in (memory, reference):
        migrate(mem.store.backend, "memory", MEMORY_MIGRATIONS)
    bulk_insert(reference.store.backend, reference.embedder.name, 0, sizes[0] // TYPICAL_FACTS)
    query = "plan my trip to Chengdu"
    memory.embedder.embed_query(query)  # cached from here on: the store's part is timed
    probes = [f"TBENCH:U{number:06d}" for number in range(PROBES)]
    inserted = 0
    for size in sizes:
        target = size // TYPICAL_FACTS
        started = time.perf_counter()
        bulk_insert(backend, memory.embedder.name, inserted, target - inserted)
        insert_s = time.perf_counter() - started
        inserted = target
        for _ in range(3):  # first touches: connections, pages, plans
            search_burst(memory, probes, query)
            search_burst(reference, probes, query)
        samples: list[float] = []
        medians: list[float] = []
        small: list[float] = []
        for burst in range(6):  # spread over a few seconds, alternating with the reference
            if burst:
                time.sleep(0.2)
            small.append(percentile(search_burst(reference, probes, query), 50))
            times = search_burst(memory, probes, query)
            medians.append(percentile(times, 50))
            samples.extend(times)
        fresh: list[float] = []  # end to end: a new request, embedded by the model
        salt = f"{result.backend[0]}{size // 1000}k "
        for number, text in enumerate(requests(20, salt)):
            started = time.perf_counter()
            memory.search(probes[number % PROBES], text)
            fresh.append((time.perf_counter() - started) * 1000)
        hits = memory.search(probes[0], query)
        assert len(hits) == 5 and all(h.namespace == probes[0] for h in hits)
        p50, small_p50 = percentile(medians, 50), percentile(small, 50)
        result.growth.append(
            {
                "facts": inserted * TYPICAL_FACTS,
                "namespaces": inserted,
                "insert_s": insert_s,
                "p50_ms": p50,  # the median burst's median
                "p99_ms": percentile(samples, 99),
                "reference_p50_ms": small_p50,
                "ratio": p50 / small_p50,
                "with_model_p50_ms": percentile(fresh, 50),
            }
        )
        print(
            f"  [{result.backend}] {inserted * TYPICAL_FACTS:>7} facts: search p50 {p50:.2f} ms"
            f" ({sizes[0]}-fact store meanwhile {small_p50:.2f} ms; inserted in "
            f"{insert_s:.1f} s)",
            flush=True,
        )


def run_backend(backend: str, sizes: Sequence[int]) -> BackendResult:
    result = BackendResult(backend)
    run_id = f"bench-{uuid.uuid4().hex[:8]}"
    with (
        scratch_database(backend, "latency") as dsn,
        scratch_database(backend, "latency") as ref_dsn,
        redis_prefix() as prefix,
    ):
        memory = open_memory(dsn=dsn, redis_url=REDIS_URL, redis_key_prefix=prefix)
        reference = open_memory(dsn=ref_dsn, redis_url="")
        try:
            measure_cache_and_model(memory, result, run_id)
            measure_warmed(memory, result, run_id)
            print(
                f"  [{backend}] hit p50 {percentile(result.hit_ms, 50):.3f} ms, miss p50 "
                f"{percentile(result.miss_ms, 50):.1f} ms (embedding the request alone "
                f"{percentile(result.model_ms, 50):.1f} ms; the miss beyond its embedding p50 "
                f"{percentile(result.miss_beyond_ms, 50):.2f} ms, p99 "
                f"{percentile(result.miss_beyond_ms, 99):.2f} ms; hit p99 "
                f"{percentile(result.hit_ms, 99):.3f} ms), record "
                f"{result.record_facts_per_s:.0f} facts/s",
                flush=True,
            )
            if sizes:
                measure_growth(memory, reference, result, sizes)
        finally:
            memory.close()
            reference.close()
    return result


def rss_child() -> None:
    """In a fresh process: load the model, record, search, retrieve; print peak RSS."""
    folder = tempfile.mkdtemp(prefix="latency-rss-")
    try:
        memory = open_memory(dsn=f"sqlite:///{folder}/memory.db", redis_url="")
        facts = synthetic_facts(NAMESPACE_FACTS)
        for start in range(0, len(facts), 20):
            memory.record("rss:ns", facts[start : start + 20])
        for text in requests(20):
            memory.search("rss:ns", text)
            memory.retrieve("rss:ns", text)
        memory.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"peak_rss_mb": peak_kib / 1024}))


def measure_rss() -> float:
    out = subprocess.run(
        [sys.executable, __file__, "--rss-child"],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    return float(json.loads(out.stdout.strip().splitlines()[-1])["peak_rss_mb"])


def report(results: Sequence[BackendResult], rss_mb: float) -> None:
    print()
    print(
        "backend     retrieve hit p50/p99 ms   retrieve miss p50/p99 ms   "
        "(model alone p50)   record facts/s"
    )
    for r in results:
        print(
            f"{r.backend:<11} {percentile(r.hit_ms, 50):>8.3f} / {percentile(r.hit_ms, 99):<8.3f}"
            f"   {percentile(r.miss_ms, 50):>9.1f} / {percentile(r.miss_ms, 99):<9.1f}"
            f"   ({percentile(r.model_ms, 50):>6.1f} ms)      {r.record_facts_per_s:>10.0f}"
        )
    print()
    print(
        "backend     warmed facts   Redis bytes   new request p50 ms   (model alone p50)"
        "   beyond embedding p50 / p99 ms"
    )
    for r in results:
        for w in r.warmed:
            print(
                f"{r.backend:<11} {w['facts']:>12}   {w['redis_bytes']:>11}   {w['p50_ms']:>18.1f}"
                f"   ({w['model_p50_ms']:>6.1f} ms)       {w['beyond_embedding_p50_ms']:>8.2f} / "
                f"{w['beyond_embedding_p99_ms']:.2f}"
            )
    print()
    print(
        "backend     facts     namespaces  search p50 ms  p99 ms   smallest store p50 ms  ratio"
        "   new request p50 ms"
    )
    for r in results:
        for g in r.growth:
            print(
                f"{r.backend:<11} {g['facts']:>8}  {g['namespaces']:>10}  {g['p50_ms']:>13.2f}"
                f"  {g['p99_ms']:>6.2f}   {g['reference_p50_ms']:>21.2f}  {g['ratio']:>4.2f}x"
                f"   {g['with_model_p50_ms']:>18.1f}"
            )
    print()
    print(f"peak RSS of a process with the model loaded: {rss_mb:.0f} MB")
    print(
        f"(retrieve miss: {NAMESPACE_FACTS} facts, a new request each time; search: "
        f"namespaces of {TYPICAL_FACTS} facts, request embedding cached)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--backend", choices=["sqlite", "postgresql", "both", "bailian"], default="both"
    )
    parser.add_argument(
        "--sizes",
        default="1000,10000,100000,500000",
        help="store sizes in facts, comma-separated (default 1000,10000,100000,500000)",
    )
    parser.add_argument("--quick", action="store_true", help="stop the store at 100000 facts")
    parser.add_argument(
        "--cache-only",
        action="store_true",
        help="only the cache: hit, miss and warmed recalls (no growth, no RSS)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--rss-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rss_child:
        rss_child()
        return 0
    if args.backend == "bailian":
        from bailian_latency import run

        return run(args.json)
    sizes = sorted({int(s) for s in args.sizes.split(",") if s.strip()})
    if args.quick:
        sizes = [size for size in sizes if size <= 100_000]
    if any(size < TYPICAL_FACTS * PROBES for size in sizes):
        raise SystemExit(f"every size must be at least {TYPICAL_FACTS * PROBES} facts")
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    if args.cache_only:
        sizes = []
    started = time.perf_counter()
    rss_mb = 0.0 if args.cache_only else measure_rss()
    print(f"peak RSS with the model loaded: {rss_mb:.0f} MB", flush=True)
    results = [run_backend(backend, sizes) for backend in backends]
    report(results, rss_mb)
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    print(
        f"total {time.perf_counter() - started:.0f} s; load average {load} on {os.cpu_count()} CPUs"
    )
    if args.json:
        payload = {
            "rss_mb": rss_mb,
            "backends": {
                r.backend: {
                    "hit_p50_ms": percentile(r.hit_ms, 50),
                    "hit_p99_ms": percentile(r.hit_ms, 99),
                    "miss_p50_ms": percentile(r.miss_ms, 50),
                    "miss_p99_ms": percentile(r.miss_ms, 99),
                    "model_p50_ms": percentile(r.model_ms, 50),
                    "record_facts_per_s": r.record_facts_per_s,
                    "warmed": r.warmed,
                    "growth": r.growth,
                }
                for r in results
            },
        }
        args.json.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
