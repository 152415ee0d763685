"""Benchmark: does ranking from the cache (int8 embeddings) recall what the store recalls?

A warmed recall ranks the facts cached in Redis, whose embeddings `memory/facts.py`
quantises to int8. This ranks the same facts for the same requests twice through
`Memory._rank` (the one ranking path of both): with the float32 embeddings the store
keeps, and with the same facts after `pack`/`unpack`. It reports recall@1/3/5 of each,
how often the top 5 are identical, and the largest score difference.

Sets:
- `bench/bilingual_travel.json`, per half (dev, check): 20 namespaces per half, each of
  its 24 facts stored in English or Chinese by a coin flip of `Random(7)`, each fact
  requested in English and in Chinese (960 rankings per half), as in `bench/recall.py`;
- with `--data`, PrefEval explicit preferences: each preference with 49 distractors
  drawn by `Random(7)` from the other topics, queried with its question ("cross").

Facts are embedded once with the bundled model and ranked directly (not recorded through
`Memory.record`), so only quantisation differs between the two columns.

    .venv/bin/python bench/cache_recall.py
    .venv/bin/python bench/cache_recall.py --data ../shared/data/prefeval_dev
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memory import open_memory  # noqa: E402
from memory.embedding import Vector  # noqa: E402
from memory.engine import Memory  # noqa: E402
from memory.facts import Facts, pack, unpack  # noqa: E402
from memory.lang import detect_lang  # noqa: E402
from memory.types import MemoryItem  # noqa: E402

BILINGUAL = Path(__file__).resolve().parent / "bilingual_travel.json"
SEED = 7
TRIALS = 20
KS = (1, 3, 5)
NOW = datetime(2026, 1, 1, tzinfo=UTC)


@dataclass
class Tally:
    """Ranks of the wanted fact (None: not in the top 5), store and cache side by side."""

    store: list[int | None] = field(default_factory=list)
    cache: list[int | None] = field(default_factory=list)
    same_top: int = 0
    max_delta: float = 0.0

    def recall(self, ranks: Sequence[int | None], k: int) -> float:
        return sum(1 for r in ranks if r is not None and r < k) / max(1, len(ranks))


class Ranker:
    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self.embedder = memory.embedder
        self._vectors: dict[str, Vector] = {}

    def embed(self, texts: Sequence[str]) -> None:
        """Embed (once) the facts of the set, as the store keeps them."""
        todo = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        for start in range(0, len(todo), 64):
            chunk = todo[start : start + 64]
            for text, vector in zip(chunk, self.embedder.embed_passages(chunk), strict=True):
                self._vectors[text] = vector

    def facts(self, texts: Sequence[str]) -> Facts:
        items = tuple(
            MemoryItem(
                id=str(i),
                namespace="bench",
                text=t,
                source="bench",
                created_at=NOW,
                lang=detect_lang(t),
            )
            for i, t in enumerate(texts)
        )
        return Facts(items, np.stack([self._vectors[t] for t in texts]))

    def compare(self, facts: Facts, request: str, wanted: int, tally: Tally) -> None:
        cached = unpack(pack(facts, self.embedder.name), "bench", self.embedder.name)
        assert cached is not None
        store = self.memory._rank(facts, request, 5)
        cache = self.memory._rank(cached, request, 5)
        ids = [int(item.id) for item in store], [int(item.id) for item in cache]
        tally.store.append(ids[0].index(wanted) if wanted in ids[0] else None)
        tally.cache.append(ids[1].index(wanted) if wanted in ids[1] else None)
        tally.same_top += ids[0] == ids[1]
        by_id = {item.id: item.score for item in self.memory._rank(cached, request)}
        delta = max(abs(item.score - by_id[item.id]) for item in store)
        tally.max_delta = max(tally.max_delta, delta)


def bilingual(ranker: Ranker, split: str) -> dict[str, Tally]:
    rows = [r for r in json.loads(BILINGUAL.read_text(encoding="utf-8")) if r["split"] == split]
    ranker.embed([r["en"] for r in rows] + [r["zh"] for r in rows])
    rng = random.Random(SEED)
    out = {"all": Tally(), "same language": Tally(), "other language": Tally()}
    for _ in range(TRIALS):
        chinese = [rng.random() < 0.5 for _ in rows]
        facts = ranker.facts(
            [r["zh"] if zh else r["en"] for r, zh in zip(rows, chinese, strict=True)]
        )
        for index, row in enumerate(rows):
            for lang in ("en", "zh"):
                same = (lang == "zh") == chinese[index]
                for name in ("all", "same language" if same else "other language"):
                    ranker.compare(facts, row[f"request_{lang}"], index, out[name])
    return out


def prefeval(ranker: Ranker, data: Path) -> Tally:
    topics: dict[str, list[tuple[str, str]]] = {}
    for path in sorted(data.glob("*.json")):
        rows = json.loads(path.read_text(encoding="utf-8"))
        topics[path.stem] = [(r["preference"], r["question"]) for r in rows]
    if not topics:
        raise SystemExit(f"no topic files (*.json) in {data}")
    ranker.embed([p for prefs in topics.values() for p, _ in prefs])
    rng = random.Random(SEED)
    tally = Tally()
    for topic, prefs in topics.items():
        others = [p for name, rows in topics.items() if name != topic for p, _ in rows]
        for preference, question in prefs:
            texts = [*rng.sample(others, 49), preference]
            ranker.compare(ranker.facts(texts), question, len(texts) - 1, tally)
    return tally


def line(label: str, tally: Tally) -> str:
    store = " / ".join(f"{tally.recall(tally.store, k):.3f}" for k in KS)
    cache = " / ".join(f"{tally.recall(tally.cache, k):.3f}" for k in KS)
    same = tally.same_top / max(1, len(tally.store))
    return (
        f"{label:<40}{len(tally.store):>6}   {store}   {cache}   {same:>6.1%}"
        f"   {tally.max_delta:.4f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--data", type=Path, help="a folder of PrefEval topic files")
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        memory = open_memory(dsn=f"sqlite:///{folder}/m.db", redis_url="")
        ranker = Ranker(memory)
        print(
            f"{'set':<40}{'cases':>6}   store R@1 / R@3 / R@5   cache R@1 / R@3 / R@5"
            "   same top 5   max |Δscore|"
        )
        for split in ("dev", "check"):
            for name, tally in bilingual(ranker, split).items():
                print(line(f"bilingual {split}, {name}", tally), flush=True)
        if args.data:
            print(line("PrefEval cross (49 distractors)", prefeval(ranker, args.data)))
        memory.close()
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
