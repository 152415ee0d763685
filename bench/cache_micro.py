"""Tight-loop micro-measures of the cache's hot paths, for comparing two versions of the
code on a machine too busy for end-to-end latency figures.

- `unpack`: reading a warmed traveller's cached facts (`memory.facts.unpack`);
- `warmed step`: what a warmed recall does in this process besides the Redis read and
  the model: unpack, prepare, rank with the request's vector already made, summary;
- `warmed recall, vector ready`: `Memory.recall` of a warmed traveller's new request
  (real Redis) whose vector is already made (an embedder that knows every request):
  the Redis lookup, unpacking, preparing, ranking and the summary all on the calling
  thread, one after the other. That is the part beyond the embedding when the lookup
  returns after the model has finished (on a busy machine), and its worst case;
- `hit`: `Memory.retrieve` of a request whose summary is cached (real Redis), and one
  bare EVALSHA of the same lookup script by the same client, the floor under it;
- `unseen hit`: `Memory.retrieve` of requests whose summaries another process cached
  (filled here straight into the cache), so this process has not embedded them; its
  process CPU per call counts any embedding the hit starts on another thread.

Each figure is the best of `--rounds` rounds (the minimum resists other processes'
load; CPU time per call counts this process's threads only), in microseconds. To
compare with another commit, export it and run this file against it, alternating:

    git archive <commit> | tar -x -C /tmp/base
    PYTHONPATH=/tmp/base .venv/bin/python bench/cache_micro.py      # that commit
    .venv/bin/python bench/cache_micro.py                            # this tree

The facts are `bench/latency.py`'s (English and Chinese, embedded by the bundled model);
Redis: 127.0.0.1:6379 under a key prefix of its own, deleted afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Future
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

# The code measured: PYTHONPATH's tree when given (an export of another commit), else
# this one; its own bench/latency.py supplies the facts and requests.
TREE = Path(os.environ.get("PYTHONPATH", "").split(os.pathsep)[0] or Path(__file__).parents[1])
sys.path.insert(0, str(TREE))
sys.path.insert(0, str(TREE / "bench"))

from latency import REDIS_URL, many_facts, redis_prefix, requests, seed_facts  # noqa: E402

from memory import open_memory  # noqa: E402
from memory.cache import query_field  # noqa: E402
from memory.embedding import shared_local_embedder  # noqa: E402
from memory.facts import Facts, pack, unpack  # noqa: E402
from memory.lang import detect_lang  # noqa: E402
from memory.profile import load_schema  # noqa: E402
from memory.recall_steps import prepare, summarize  # noqa: E402
from memory.settings import MemorySettings  # noqa: E402
from memory.subjects import load_subjects  # noqa: E402
from memory.types import MemoryItem  # noqa: E402

STAMP = datetime(2026, 12, 1, tzinfo=UTC)


def best(
    fn: Callable[[], object],
    calls: int,
    rounds: int,
    settle: Callable[[], object] = lambda: None,
    setup: Callable[[], object] = lambda: None,
) -> dict[str, float]:
    """CPU and wall time per call, microseconds: the minimum and median of the rounds
    (process CPU counts every thread of this process; `setup` runs untimed before a
    round, `settle` ends a round's background work, e.g. embeddings still running)."""
    cpu, wall, process = [], [], []
    for _ in range(rounds):
        setup()
        c0, w0, p0 = time.thread_time(), time.perf_counter(), time.process_time()
        for _ in range(calls):
            fn()
        cpu.append((time.thread_time() - c0) / calls * 1e6)
        wall.append((time.perf_counter() - w0) / calls * 1e6)
        settle()
        process.append((time.process_time() - p0) / calls * 1e6)
    return {
        "cpu_min_us": round(min(cpu), 1),
        "cpu_median_us": round(float(np.median(cpu)), 1),
        "wall_min_us": round(min(wall), 1),
        "wall_median_us": round(float(np.median(wall)), 1),
        "process_cpu_median_us": round(float(np.median(process)), 1),
    }


def codec(sizes: list[int], rounds: int) -> dict[str, Any]:
    embedder = shared_local_embedder()
    out: dict[str, Any] = {}
    for size in sizes:
        texts = many_facts(size)
        items = [
            MemoryItem(
                id=f"{n:032x}",
                namespace="micro",
                text=text,
                source="import",
                created_at=STAMP + timedelta(microseconds=n),
                lang=detect_lang(text),
            )
            for n, text in enumerate(texts)
        ]
        facts = Facts(items, embedder.embed_passages(texts))
        out[str(size)] = measure_value(facts, rounds)
        print(size, json.dumps(out[str(size)]), file=sys.stderr, flush=True)
    return out


def measure_value(facts: Facts, rounds: int) -> dict[str, Any]:
    embedder = shared_local_embedder()
    schema, settings = load_schema(), MemorySettings()
    value = pack(facts, embedder.name, load_subjects(schema=schema))
    asked = requests(8, "micro ")
    vectors = [embedder.embed_query(q) for q in asked]
    turn = [0]

    def step() -> object:
        i = turn[0] = (turn[0] + 1) % len(asked)
        cached = unpack(value, "micro", embedder.name)
        assert cached is not None
        embedding: Future[Any] = Future()  # still being made while preparing
        prepared = prepare(cached, asked[i], embedder, schema, embedding)
        embedding.set_result(vectors[i])
        return summarize(
            cached,
            asked[i],
            embedder=embedder,
            schema=schema,
            settings=settings,
            embedding=embedding,
            prepared=prepared,
        )

    size = len(facts)
    return {
        "value_bytes": len(value),
        "unpack": best(lambda: unpack(value, "micro", embedder.name), 20_000 // size, rounds),
        "warmed_step": best(step, max(10, 4_000 // size), rounds),
    }


class ReadyEmbedder:
    """The bundled model, but every request's vector is already made (`known`): that of
    one of a few real requests, so ranking and summaries are those of real vectors."""

    def __init__(self, inner: Any, vectors: list[Any]) -> None:
        self.inner, self.vectors = inner, vectors
        self.name: str = inner.name
        self.dim: int = inner.dim

    def embed_passages(self, texts: Any) -> Any:
        return self.inner.embed_passages(texts)

    def embed_query(self, text: str) -> Any:
        return self.vectors[hash(text) % len(self.vectors)]

    known = embed_query


def warmed(sizes: list[int], rounds: int) -> dict[str, Any]:
    inner = shared_local_embedder()
    vectors = [inner.embed_query(q) for q in requests(8, "micro ")]
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp, redis_prefix() as prefix:
        memory = open_memory(
            dsn=f"sqlite:///{tmp}/m.db",
            redis_url=REDIS_URL,
            redis_key_prefix=prefix,
            embedder=ReadyEmbedder(inner, vectors),
        )
        try:
            for size in sizes:
                namespace = f"micro:warmed{size}"
                seed_facts(memory, namespace, many_facts(size))
                assert memory.warm(namespace) == "warmed"
                fresh = iter(requests(100_000, f"micro w{size} "))

                def recall(namespace: str = namespace, fresh: Any = fresh) -> object:
                    recalled = memory.recall(namespace, next(fresh))
                    assert recalled.cached and recalled.summary
                    return recalled

                out[str(size)] = best(recall, max(10, 4_000 // size), rounds)
                memory.cache.settle()
                print(size, "warmed recall", out[str(size)], file=sys.stderr, flush=True)
        finally:
            memory.close()
    return out


def hit(rounds: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp, redis_prefix() as prefix:
        memory = open_memory(
            dsn=f"sqlite:///{tmp}/m.db", redis_url=REDIS_URL, redis_key_prefix=prefix
        )
        try:
            namespace, request = "micro:hit", requests(1, "micro hit ")[0]
            seed_facts(memory, namespace, many_facts(20))
            memory.retrieve(namespace, request)
            memory.cache.settle()
            before = memory.cache.stats.hits
            memory.retrieve(namespace, request)
            assert memory.cache.stats.hits == before + 1, "not a cache hit"
            cache = memory.cache
            keys = [cache.key(namespace), cache.generation_key(namespace)]
            args = [cache.inline_facts_bytes, query_field(request)]
            script: Any = cache._lookup
            # Summaries another process cached: requests this process never embedded.
            # (the entry keeps 33 fields: each round's are cached just before it)
            unseen = iter(requests(24 * rounds, "micro unseen "))
            fresh: list[str] = []
            done: list[str] = [request]

            def fill_round() -> None:
                client: Any = cache._client  # the last round's summaries make room
                client.hdel(cache.key(namespace), *[query_field(q) for q in done])
                fresh[:] = done[:] = [next(unseen) for _ in range(24)]
                summaries = {query_field(q): f"summary {n}".encode() for n, q in enumerate(fresh)}
                assert cache.fill(namespace, summaries, cache.generation(namespace))
                fresh.reverse()

            def unseen_hit() -> object:
                recalled = memory.retrieve(namespace, fresh.pop())
                assert recalled.startswith("summary")
                return recalled

            def drain() -> None:  # embeddings a hit started finish before the next round
                memory._filler().submit(lambda: None).result()
                if memory._filler_pool is not None:
                    memory._filler_pool.shutdown(wait=True)
                    memory._filler_pool = None

            return {
                "retrieve": best(lambda: memory.retrieve(namespace, request), 2000, rounds),
                "bare_evalsha": best(lambda: script(keys=keys, args=args), 2000, rounds),
                "unseen_retrieve": best(unseen_hit, 24, rounds, drain, fill_round),
            }
        finally:
            memory.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="30,100,500")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--hit-only", action="store_true", help="only the hit measures")
    options = parser.parse_args()
    sizes = [int(s) for s in options.sizes.split(",")]
    result: dict[str, Any] = {"tree": str(TREE), "load_before": os.getloadavg()}
    if not options.hit_only:
        result["codec"] = codec(sizes, options.rounds)
        result["warmed_recall_vector_ready"] = warmed(sizes, options.rounds)
    result["hit"] = hit(options.rounds)
    result["load_after"] = os.getloadavg()
    print(json.dumps(result))
    if options.json:
        options.json.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
