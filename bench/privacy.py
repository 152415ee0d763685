"""Benchmark: the privacy guard's catch and false-refusal rates, and its speed.

Runs `memory.privacy.scan` over the project's privacy corpus (tests/memory/privacy_corpus/:
a development half the guard is tuned on, a held-out half written before tuning and never
tuned on, the fresh probes `probe_*.json`, each written and measured before the rules were
changed for it, and `untuned_*.json`, fresh probes only ever measured), per set and per
language, and prints each figure with what was missed or wrongly refused (never for the
held-out half or the untuned probes, so they cannot be tuned on by eye).
Optionally also over outside text that must all be kept: PrefEval preferences
(`--prefeval DIR`, English), `bench/bilingual_travel.json` and the facts of
`bench/travel_people.json` (both languages).
Targets: catch >= 95% of the sensitive sentences, refuse <= 1 in 40 benign ones.

    .venv/bin/python bench/privacy.py
    .venv/bin/python bench/privacy.py --prefeval ../shared/data/prefeval_dev --json out.json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memory.privacy import scan  # noqa: E402

CORPUS = ROOT / "tests" / "memory" / "privacy_corpus"
_CJK = re.compile(r"[\u4e00-\u9fff]")


def _rates(cases: list[dict[str, Any]], benign: list[dict[str, Any]]) -> dict[str, Any]:
    missed = [c["text"] for c in cases if scan(c["text"]) is None]
    wrong = [
        f"{c['text']} ({c['category']} -> {found})"
        for c in cases
        if (found := scan(c["text"])) is not None and found != c["category"]
    ]
    refused = [f"{c['text']} ({scan(c['text'])})" for c in benign if scan(c["text"])]
    return {
        "sensitive": len(cases),
        "caught": len(cases) - len(missed),
        "benign": len(benign),
        "refused": len(refused),
        "missed": missed,
        "wrong_category": wrong,
        "wrongly_refused": refused,
    }


def _outside(prefeval: Path | None) -> dict[str, Any]:
    texts: dict[str, list[str]] = {}
    if prefeval is not None:
        texts["prefeval (en)"] = [
            case["preference"]
            for path in sorted(prefeval.glob("*.json"))
            for case in json.loads(path.read_text(encoding="utf-8"))
        ]
    travel = json.loads((ROOT / "bench" / "bilingual_travel.json").read_text(encoding="utf-8"))
    texts["bilingual_travel (en)"] = [c[k] for c in travel for k in ("en", "request_en")]
    texts["bilingual_travel (zh)"] = [c[k] for c in travel for k in ("zh", "request_zh")]
    people = json.loads((ROOT / "bench" / "travel_people.json").read_text(encoding="utf-8"))
    # The facts (what would be recorded); two requests quote a fare ("$49 fare"), which is
    # an exact amount and rightly refused, but requests are never recorded.
    said = [fact["fact"] for person in people["people"] for fact in person["facts"]]
    texts["travel_people (en)"] = [t for t in said if not _CJK.search(t)]
    texts["travel_people (zh)"] = [t for t in said if _CJK.search(t)]
    return {
        name: {"kept": sum(scan(t) is None for t in items), "total": len(items)}
        for name, items in texts.items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--prefeval", type=Path, help="folder of PrefEval topic files")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    args = parser.parse_args(argv)

    report: dict[str, Any] = {}
    probes = sorted(path.stem for path in CORPUS.glob("probe_*.json"))
    untuned = sorted(path.stem for path in CORPUS.glob("untuned_*.json"))
    sets = ["dev", "held_out", *probes, *untuned]
    for half in sets:
        doc = json.loads((CORPUS / f"{half}.json").read_text(encoding="utf-8"))
        for lang in ("en", "zh"):
            cases = [c for c in doc["sensitive"] if c["lang"] == lang]
            benign = [c for c in doc["benign"] if c["lang"] == lang]
            figures = _rates(cases, benign)
            report[f"{half}/{lang}"] = figures
            print(
                f"{half:11} {lang}: caught {figures['caught']}/{figures['sensitive']} "
                f"({figures['caught'] / figures['sensitive']:.1%}), wrongly refused "
                f"{figures['refused']}/{figures['benign']} "
                f"({figures['refused'] / figures['benign']:.1%}), "
                f"wrong category {len(figures['wrong_category'])}"
            )
            for key in ("missed", "wrong_category", "wrongly_refused"):
                for text in figures[key] if half in ("dev", *probes) else ():
                    print(f"    {key}: {text}")
    report["outside"] = _outside(args.prefeval)
    for name, figures in report["outside"].items():
        print(f"outside     {name}: kept {figures['kept']}/{figures['total']}")

    texts = [
        c["text"]
        for half in sets
        for kind in ("sensitive", "benign")
        for c in json.loads((CORPUS / f"{half}.json").read_text(encoding="utf-8"))[kind]
    ]
    started = time.perf_counter()
    for text in texts * 5:
        scan(text)
    per_fact = (time.perf_counter() - started) / (len(texts) * 5) * 1000
    report["ms_per_fact"] = round(per_fact, 3)
    print(f"speed: {per_fact:.2f} ms per fact ({len(texts)} facts x 5)")
    if args.json:
        args.json.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
