"""Capture what ranking reads for every request of the development sets, once, so that
changes to the scoring formula can be compared in seconds (issue 22, "Ranking").

    .venv/bin/python bench/ranking_replay.py capture --out /tmp/replay-dev.pkl
    .venv/bin/python bench/ranking_replay.py replay --out /tmp/replay-dev.pkl

Every request is searched through the real engine (`Memory.search`, SQLite, no cache)
exactly as `bench/recall.py` and `bench/summary_recall.py` do; what `memory.ranking._score`
was given (the cosine of the request with every current fact, the request's language and
subjects, the facts' features, the language gap) is kept with the position of the
request's own fact (None when that fact is not current) and plain e5's rank. `replay`
scores them again with `memory.ranking._score` and `memory.features.FactFeatures` as they
are now (change a weight, replay in seconds). The facts' texts and slots are kept too, so
that a changed vocabulary (or another one, `--vocabulary FILE`, e.g. the one before a
change) is read again from them without a new capture. Only the dev split is for tuning:
the check halves are measured by the benches.

    .venv/bin/python bench/ranking_replay.py blind --split fresh3

`blind` runs the travellers of one split (any of `travel_people.json`, e.g. a blind one)
through the real engine and prints counts only, never a request or a fact: R@1/3/5 of the
engine, of the engine's own embedding view alone (cosine and language lift, no subject
boost) and of plain e5, per language pair, and how many requests the subject boost moved
the needed fact up or down. It tells whether a shortfall against e5 comes from the
embedding view or from the rules without reading a single miss.
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from recall import (
    BILINGUAL,
    BILINGUAL_TRIALS,
    PEOPLE,
    SEED,
    Baseline,
    CachingEmbedder,
    draw_cases,
    load_topics,
)

import memory.engine as engine_module
import memory.ranking as ranking
from memory import open_memory
from memory.embedding import shared_local_embedder
from memory.lang import detect_lang

SUMMARY_PEOPLE = Path(__file__).resolve().parent / "summary_people.json"

_last: dict[str, Any] = {}
_original_score = ranking._score
_original_prepared_scores = ranking._prepared_scores
_original_rank_facts = engine_module.rank_facts


def _capturing_scores(cosine, prepared):  # type: ignore[no-untyped-def]
    _last.update(
        cosine=cosine.copy(),
        lang=prepared.lang,
        asked=prepared.asked,
        features=prepared.features,
        gap=prepared.gap,
        implied=prepared.implied,
    )
    return _original_prepared_scores(cosine, prepared)


def _capturing_rank_facts(facts, query, embedder, schema, limit=None):  # type: ignore[no-untyped-def]
    out = _original_rank_facts(facts, query, embedder, schema, limit)
    _last["ids"] = [item.id for item in facts.items]
    _last["texts"] = list(facts.texts)
    _last["slots"] = list(facts.slots)
    _last["matrix"] = facts.matrix.copy()
    _last["query"] = embedder.embed_query(query)
    return out


ranking._prepared_scores = _capturing_scores  # type: ignore[assignment]
engine_module.rank_facts = _capturing_rank_facts  # type: ignore[assignment]


def _case(
    memory: Any, namespace: str, request: str, target: Any, base: int | None, **kw: Any
) -> dict[str, Any]:
    _last.clear()
    memory.search(namespace, request, limit=5)
    ids = _last["ids"]
    f = _last["features"]
    return {
        "request": request,
        "cosine": _last["cosine"],
        "lang": _last["lang"],
        "asked": _last["asked"],
        "names": f.names,
        "zh": f.zh,
        "about": f.about,
        "counts": f.counts,
        "near": f.near,
        "texts": _last["texts"],
        "slots": _last["slots"],
        "matrix": _last["matrix"],
        "query": _last["query"],
        "gap": _last["gap"],
        "target": ids.index(target) if target in ids else None,
        "baseline": base,
        **kw,
    }


def _record(memory: Any, namespace: str, texts: list[str]) -> list[Any]:
    chunk = memory.settings.memory_max_facts_per_call
    out: list[Any] = []
    for start in range(0, len(texts), chunk):
        out.extend(memory.record(namespace, texts[start : start + chunk], "import"))
    return out


def _travellers(
    memory: Any, split: str, prefix: str
) -> Iterator[tuple[str, list[str], int, str, str]]:
    """Every request of the split's travellers (`bench/travel_people.json`), each person's
    facts recorded first in a namespace of their own: (namespace, that person's facts, the
    needed fact's index among them, the request, the needed fact's id)."""
    data = json.loads(PEOPLE.read_text(encoding="utf-8"))
    for person in [p for p in data["people"] if p["split"] == split]:
        ns = f"{prefix}-{person['person']}"
        texts = [f["fact"] for f in person["facts"]]
        outcomes = _record(memory, ns, texts)
        for index, fact in enumerate(person["facts"]):
            for request in fact["requests"]:
                yield ns, texts, index, request, outcomes[index].item_id


def capture(split: str, prefeval: Path | None, out: Path) -> None:
    tmp = tempfile.mkdtemp(prefix="ranking-replay-")
    embedder = CachingEmbedder(shared_local_embedder())
    memory = open_memory(dsn=f"sqlite:///{tmp}/memory.db", redis_url="", embedder=embedder)
    baseline = Baseline()
    run = uuid.uuid4().hex[:8]
    cases: list[dict[str, Any]] = []

    for ns, texts, index, request, target in _travellers(memory, split, f"replay-{run}-people"):
        cell = f"T {detect_lang(request)}·{detect_lang(texts[index])}"
        base = baseline.rank(request, texts, index)
        cases.append(_case(memory, ns, request, target, base, set=cell))
    print("travellers", len(cases), flush=True)

    rows = [r for r in json.loads(BILINGUAL.read_text(encoding="utf-8")) if r["split"] == split]
    rng = random.Random(SEED)
    for trial in range(BILINGUAL_TRIALS):
        chinese = [rng.random() < 0.5 for _ in rows]
        texts = [r["zh"] if zh else r["en"] for r, zh in zip(rows, chinese, strict=True)]
        ns = f"replay-{run}-bilingual-{trial}"
        outcomes = _record(memory, ns, texts)
        for index, row in enumerate(rows):
            for lang in ("en", "zh"):
                request = row[f"request_{lang}"]
                cell = f"B {lang}·{'zh' if chinese[index] else 'en'}"
                base = baseline.rank(request, texts, index)
                cases.append(_case(memory, ns, request, outcomes[index].item_id, base, set=cell))
    print("bilingual", len(cases), flush=True)

    data = json.loads(SUMMARY_PEOPLE.read_text(encoding="utf-8"))
    for person in [p for p in data["people"] if p["split"] == split]:
        size = 30 if len(person["facts"]) < 60 else 100
        ns = f"replay-{run}-summary-{person['name']}"
        texts = [f["text"] for f in person["facts"]]
        outcomes = _record(memory, ns, texts)
        for index, fact in enumerate(person["facts"]):
            asked = [(f"S {person['lang']} {size}", r) for r in fact["requests"]]
            asked += [(f"S {person['lang']} {size} more", r) for r in fact.get("more_requests", [])]
            for cell, request in asked:
                base = baseline.rank(request, texts, index)
                cases.append(_case(memory, ns, request, outcomes[index].item_id, base, set=cell))
    print("summary", len(cases), flush=True)

    if prefeval is not None:
        topics = load_topics(prefeval)
        names = list(topics)
        evaluated = names[0::2] if split == "dev" else names[1::2]
        for mode in ("cross", "same"):
            for case, (target, distractors) in enumerate(draw_cases(topics, evaluated, mode)):
                ns = f"replay-{run}-{mode}-{case}"
                texts = [d.text for d in distractors] + [target.text]
                outcomes = _record(memory, ns, texts)
                base = baseline.rank(target.question, texts, len(texts) - 1)
                cases.append(
                    _case(memory, ns, target.question, outcomes[-1].item_id, base, set=f"P {mode}")
                )
            print("prefeval", mode, len(cases), flush=True)
    memory.close()
    out.write_bytes(pickle.dumps(cases))


def replay(path: Path, vocabulary_path: Path | None = None) -> None:
    """R@1 / R@3 / R@5 per set and language pair (counts of requests), the engine's
    formula as it is now beside plain e5."""
    from collections import defaultdict

    import numpy as np

    from memory.features import FactFeatures
    from memory.subjects import load_subjects

    vocabulary = load_subjects(vocabulary_path)
    cases = pickle.loads(path.read_bytes())
    tally: dict[str, list[int]] = defaultdict(lambda: [0] * 7)
    for c in cases:
        row = tally[c["set"]]
        row[0] += 1
        base = c["baseline"]
        for i, k in enumerate((1, 3, 5)):
            row[4 + i] += base is not None and base < k
        if c["target"] is None:
            continue
        names, about, asked = c["names"], c["about"], c["asked"]
        if "texts" in c:  # the vocabulary as it is now (its words may have changed)
            names = vocabulary.names
            pairs = zip(c["texts"], c["slots"], strict=True)
            about = np.array(
                [[n in vocabulary.of(t, s) for n in names] for t, s in pairs], dtype=bool
            ).reshape(len(c["texts"]), len(names))
            asked = tuple(vocabulary.asked(c["request"]))
        facts = FactFeatures.of("replay", names, c["zh"], about, c["near"])
        implied = vocabulary.implied(asked) if vocabulary.names == names else ()  # old capture
        scores = ranking._score(c["cosine"], c["lang"], asked, facts, c["gap"], implied)
        place = int(np.argsort(-scores, kind="stable").tolist().index(c["target"]))
        for i, k in enumerate((1, 3, 5)):
            row[1 + i] += place < k
    print(f"{'set':<16} {'n':>4}  engine R@1 R@3 R@5   e5 R@1 R@3 R@5")
    for name in sorted(tally):
        n, a, b, d, x, y, z = tally[name]
        print(f"{name:<16} {n:4d}  {a:10d} {b:3d} {d:3d}   {x:6d} {y:3d} {z:3d}")


def blind(split: str) -> None:
    """Counts only (module docstring): the split's travellers, engine · embedding view ·
    plain e5, and how often the subject boost moved the needed fact up or down."""
    from collections import defaultdict

    import numpy as np

    tmp = tempfile.mkdtemp(prefix="ranking-blind-")
    embedder = CachingEmbedder(shared_local_embedder())
    memory = open_memory(dsn=f"sqlite:///{tmp}/memory.db", redis_url="", embedder=embedder)
    baseline = Baseline()
    run = uuid.uuid4().hex[:8]
    # per language pair: cases, engine R@1/3/5, embedding view R@1/3/5, e5 R@1/3/5,
    # boost lifted the fact (to a better place), boost pushed it down
    tally: dict[str, list[int]] = defaultdict(lambda: [0] * 12)
    for ns, texts, index, request, target in _travellers(memory, split, f"blind-{run}"):
        row = tally[f"{detect_lang(request)}·{detect_lang(texts[index])}"]
        row[0] += 1
        base = baseline.rank(request, texts, index)
        c = _case(memory, ns, request, target, base)
        for i, k in enumerate((1, 3, 5)):
            row[7 + i] += base is not None and base < k
        if c["target"] is None:
            continue
        facts, implied = _last["features"], _last["implied"]
        full = _original_score(c["cosine"], c["lang"], c["asked"], facts, c["gap"], implied)
        view = _original_score(c["cosine"], c["lang"], (), facts, c["gap"], ())
        place = int(np.argsort(-full, kind="stable").tolist().index(c["target"]))
        plain = int(np.argsort(-view, kind="stable").tolist().index(c["target"]))
        for i, k in enumerate((1, 3, 5)):
            row[1 + i] += place < k
            row[4 + i] += plain < k
        row[10] += place < plain
        row[11] += place > plain
    memory.close()
    print(
        f"{'pair':<6} {'n':>3}  engine R@1 R@3 R@5   view R@1 R@3 R@5   e5 R@1 R@3 R@5"
        "   boost lifted / pushed down"
    )
    for name in sorted(tally):
        n, a, b, d, e, g, h, x, y, z, up, down = tally[name]
        print(
            f"{name:<6} {n:3d}  {a:10d} {b:3d} {d:3d}   {e:8d} {g:3d} {h:3d}   "
            f"{x:6d} {y:3d} {z:3d}   {up:5d} / {down}"
        )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["capture", "replay", "blind"])
    parser.add_argument("--split", default="dev")
    parser.add_argument("--prefeval", type=Path, default=None)
    parser.add_argument("--out", type=Path)
    parser.add_argument(
        "--vocabulary", type=Path, default=None, help="replay: another subjects.json"
    )
    args = parser.parse_args()
    if args.command == "blind":
        blind(args.split)
    elif args.command == "capture":
        if args.split not in ("dev", "check"):
            raise SystemExit("capture: --split dev or check")
        capture(args.split, args.prefeval, args.out)
    else:
        replay(args.out, args.vocabulary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
