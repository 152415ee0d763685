"""Benchmark: one cache-warming pass over N travellers whose caches are all cold.

Seeds N travellers (a few facts each, embedded with the bundled local model, and a trip
starting tomorrow) straight into a fresh database, then runs `travel-bot warm --once`
as a child process, the way the clock and operators run it, and reports the pass time
it prints, the child's wall time, its peak RSS and the mean Redis bytes of a warmed
traveller's entry (facts, embeddings and summary; `MEMORY USAGE`). A second run shows
the all-cached pass. Target: 10 000 cold travellers in under 60 s.

    .venv/bin/python bench/warm.py                       # PostgreSQL and SQLite, 1k and 10k
    .venv/bin/python bench/warm.py --backend postgresql --sizes 10000 --concurrency 8

PostgreSQL: a fresh schema in database `test` on 127.0.0.1 (dropped afterwards);
SQLite: a file in a temporary directory. Redis: 127.0.0.1:6379, own key prefix.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scratch import scratch_database  # noqa: E402

from bot.planning.trips import TripStore  # noqa: E402
from memory import open_memory  # noqa: E402
from memory.backends import backend_from_dsn  # noqa: E402
from memory.cache import PreferenceCache  # noqa: E402
from memory.engine import Memory  # noqa: E402
from memory.lang import detect_lang  # noqa: E402
from memory.store import Tx, utcnow  # noqa: E402
from memory.types import MemoryItem  # noqa: E402

REDIS_URL = "redis://127.0.0.1:6379/0"
TRAVEL_BOT = Path(sys.executable).with_name("travel-bot")
CHUNK = 500  # travellers per seeding transaction

FACTS = [
    "I never take red-eye flights",
    "I prefer aisle seats",
    "I prefer window seats on long flights",
    "Hotel breakfast must be included",
    "I like Marriott hotels",
    "Avoid connections shorter than 90 minutes",
    "I prefer China Eastern",
    "I avoid Hainan Airlines",
    "Economy is fine for flights under three hours",
    "I am budget-conscious on business trips",
    "I need a quiet room away from the elevator",
    "I prefer trains for trips under five hours",
    "I like hotels within walking distance of the office",
    "Vegetarian meals on flights, please",
    "I prefer morning departures",
    "出差只坐高铁一等座",
    "不坐红眼航班",
    "酒店要含早餐",
    "偏好东航",
    "靠过道的座位",
    "预算敏感，尽量选经济型酒店",
    "不喜欢转机，最多转一次",
    "喜欢离地铁站近的酒店",
    "高铁优先于飞机，五小时以内都坐高铁",
    "航班尽量选上午出发的",
]


@dataclass
class Run:
    backend: str
    travellers: int
    seed_seconds: float
    cold: dict[str, Any]
    cold_wall: float
    cold_rss_mb: float
    warm: dict[str, Any]
    keys: int
    ttl: int
    entry_bytes: float


def seed(memory: Memory, trips: TripStore, count: int, facts_each: int) -> None:
    """`count` travellers, `facts_each` facts each (real embeddings), a trip tomorrow."""
    memory.items("bench:migrate")  # bring both schemas up to date
    trips.list(limit=1)
    vectors = memory.embedder.embed_passages(FACTS)
    kinds = [(memory.schema.detect(text), detect_lang(text)) for text in FACTS]
    store, backend = memory.store, memory.store.backend
    tomorrow = trips._date_param(datetime.now(trips.timezone).date() + timedelta(days=1))
    created = backend.to_db_time(utcnow())
    rng = np.random.default_rng(7)
    for first in range(0, count, CHUNK):
        with backend.transaction() as cur:
            for number in range(first, min(first + CHUNK, count)):
                namespace = f"TBENCH:U{number:06d}"
                for index in rng.choice(len(FACTS), size=facts_each, replace=False):
                    match, lang = kinds[int(index)]
                    item = MemoryItem(
                        id=uuid.uuid4().hex,
                        namespace=namespace,
                        text=FACTS[int(index)],
                        source="bench",
                        created_at=utcnow(),
                        slot=match.slot if match else None,
                        value=match.value if match else None,
                        polarity=match.polarity if match else None,
                        lang=lang,
                    )
                    Tx(store, cur, namespace).insert(
                        item, vectors[int(index)], memory.embedder.name
                    )
                cur.execute(
                    backend.sql(
                        "INSERT INTO trips (id, namespace, origin, destination, start_date, "
                        "end_date, created_by, created_at) "
                        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
                    ),
                    (
                        uuid.uuid4().hex,
                        namespace,
                        None,
                        "Chengdu",
                        tomorrow,
                        None,
                        "bench",
                        created,
                    ),
                )


def warm_once(env: dict[str, str], workdir: Path) -> tuple[dict[str, Any], float, float]:
    """Run `travel-bot warm --once`; its JSON, its wall time and its own peak RSS in MB."""
    out, err = workdir / "stdout", workdir / "stderr"
    started = time.monotonic()
    with out.open("w") as stdout, err.open("w") as stderr:
        child = subprocess.Popen(
            [str(TRAVEL_BOT), "--log-level", "WARNING", "warm", "--once"],
            env=env,
            cwd=workdir,
            stdout=stdout,
            stderr=stderr,
        )
        _, status, usage = os.wait4(child.pid, 0)  # this child's resource usage alone
        child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - started
    if child.returncode != 0:
        raise SystemExit(f"warm --once failed ({child.returncode}): {err.read_text()[-2000:]}")
    printed = json.loads(out.read_text().strip().splitlines()[-1])
    return printed, wall, usage.ru_maxrss / 1024  # ru_maxrss is in KiB on Linux


def bench(backend: str, count: int, facts_each: int, concurrency: int) -> Run:
    import redis

    workdir = Path(tempfile.mkdtemp(prefix="warm-bench-"))
    prefix = f"bench-{uuid.uuid4().hex[:8]}:"
    client: Any = redis.Redis.from_url(REDIS_URL)
    try:
        with scratch_database(backend, "warm") as dsn:
            memory = open_memory(dsn=dsn, redis_url=REDIS_URL, redis_key_prefix=prefix)
            trips = TripStore(backend_from_dsn(dsn), timezone=UTC)
            started = time.monotonic()
            seed(memory, trips, count, facts_each)
            seed_seconds = time.monotonic() - started
            trips.close()
            memory.close()
            env = {
                **os.environ,
                "MEMORY_DSN": dsn,
                "REDIS_URL": REDIS_URL,
                "REDIS_KEY_PREFIX": prefix,
                "TRAVEL_TIMEZONE": "UTC",
                "WARM_CONCURRENCY": str(concurrency),
            }
            cold, cold_wall, cold_rss = warm_once(env, workdir)
            keys = sum(1 for _ in client.scan_iter(match=f"{prefix}ltm:travel-pref:*", count=1000))
            cache = PreferenceCache(client=None, key_prefix=prefix)
            ttl = int(client.ttl(cache.key("TBENCH:U000000")))
            sample = [cache.key(f"TBENCH:U{n:06d}") for n in range(min(count, 200))]
            sizes = [int(client.memory_usage(key, samples=0) or 0) for key in sample]
            warm, _, _ = warm_once(env, workdir)
        return Run(
            backend,
            count,
            seed_seconds,
            cold,
            cold_wall,
            cold_rss,
            warm,
            keys,
            ttl,
            sum(sizes) / len(sizes),
        )
    finally:
        doomed = list(client.scan_iter(match=f"{prefix}*", count=1000))
        for first in range(0, len(doomed), 1000):
            client.delete(*doomed[first : first + 1000])
        client.close()
        shutil.rmtree(workdir, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--backend", choices=["postgresql", "sqlite", "both"], default="both")
    parser.add_argument("--sizes", default="1000,10000", help="traveller counts, comma-separated")
    parser.add_argument("--facts", type=int, default=3, help="facts per traveller")
    parser.add_argument("--concurrency", type=int, default=4, help="WARM_CONCURRENCY")
    args = parser.parse_args()
    backends = ["postgresql", "sqlite"] if args.backend == "both" else [args.backend]
    sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    print(
        f"cpus={os.cpu_count()} concurrency={args.concurrency} facts/traveller={args.facts} "
        f"at {datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    )
    print(
        f"{'backend':<11}{'travellers':>11}{'seed s':>8}{'pass s':>8}{'wall s':>8}"
        f"{'peak MB':>9}{'warmed':>8}{'failed':>7}{'keys':>7}{'ttl':>6}{'bytes/key':>10}"
        f"{'cached pass s':>15}"
    )
    for backend in backends:
        for size in sizes:
            r = bench(backend, size, args.facts, args.concurrency)
            print(
                f"{r.backend:<11}{r.travellers:>11}{r.seed_seconds:>8.1f}"
                f"{r.cold['seconds']:>8.1f}{r.cold_wall:>8.1f}{r.cold_rss_mb:>9.0f}"
                f"{r.cold['warmed']:>8}{r.cold['failed']:>7}{r.keys:>7}{r.ttl:>6}"
                f"{r.entry_bytes:>10.0f}{r.warm['seconds']:>15.1f}",
                flush=True,
            )
            assert r.cold["due"] == size and r.cold["warmed"] == size, r.cold
            assert r.warm["already_cached"] == size, r.warm
    return 0


if __name__ == "__main__":
    sys.exit(main())
