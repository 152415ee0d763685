"""A recall that must embed its request, beyond the embedding: on a miss (200 facts,
nothing cached) and for a warmed traveller (facts cached, a new request), each beside
the model's own time for a new request in the same loop. Wall-clock medians, so only
an A/B alternating with another commit means anything on a busy machine:

    git archive <commit> | tar -x -C /tmp/base
    PYTHONPATH=/tmp/base .venv/bin/python bench/miss_micro.py 30   # that commit
    .venv/bin/python bench/miss_micro.py 30                         # this tree

SQLite in a temporary directory; Redis 127.0.0.1:6379 under a key prefix of its own.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

TREE = Path(os.environ.get("PYTHONPATH", "").split(os.pathsep)[0] or Path(__file__).parents[1])
sys.path.insert(0, str(TREE))
sys.path.insert(0, str(Path(__file__).parent))

from latency import REDIS_URL, many_facts, redis_prefix, requests, seed_facts  # noqa: E402

from memory import open_memory  # noqa: E402


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    with tempfile.TemporaryDirectory() as tmp, redis_prefix() as prefix:
        memory = open_memory(
            dsn=f"sqlite:///{tmp}/m.db", redis_url=REDIS_URL, redis_key_prefix=prefix
        )
        try:
            missed, warmed = "micro:miss", "micro:warm"
            seed_facts(memory, missed, many_facts(200))
            seed_facts(memory, warmed, many_facts(200))
            memory.retrieve(missed, "warm up the model")
            memory.warm(warmed)
            memory.cache.settle()
            fresh = iter(requests(3 * count, f"miss {os.getpid()} "))
            embed, miss, warm = [], [], []
            for _ in range(count):
                start = time.perf_counter()
                memory.embedder.embed_query(next(fresh))
                embed.append(time.perf_counter() - start)
                memory.cache.invalidate(missed)
                memory.cache.settle()
                start = time.perf_counter()
                recalled = memory.recall(missed, next(fresh))
                miss.append(time.perf_counter() - start)
                assert not recalled.cached and recalled.summary
                memory.cache.settle()
                start = time.perf_counter()
                recalled = memory.recall(warmed, next(fresh))
                warm.append(time.perf_counter() - start)
                assert recalled.cached and recalled.summary
                memory.cache.settle()
        finally:
            memory.close()

    def ms(values: list[float]) -> float:
        return round(float(np.median(values)) * 1e3, 2)

    print(
        json.dumps(
            {
                "tree": str(TREE),
                "load": round(os.getloadavg()[0], 2),
                "embed_ms": ms(embed),
                "miss_beyond_embed_ms": round(ms(miss) - ms(embed), 2),
                "warmed_beyond_embed_ms": round(ms(warm) - ms(embed), 2),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
