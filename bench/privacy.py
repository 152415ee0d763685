"""Benchmark: the privacy guard's catch and false-refusal rates, and its speed.

Runs `memory.privacy.scan` over the project's privacy corpus (tests/memory/privacy_corpus/:
a development half the guard is tuned on, a held-out half written before tuning and never
tuned on, the fresh probes `probe_*.json`, each written and measured before the rules were
changed for it, and `untuned_*.json`, fresh probes only ever measured), per set and per
language, and prints each figure with what was missed or wrongly refused (never for the
held-out half or the untuned probes, so they cannot be tuned on by eye).

Round 8 (`r8_dev`, tuned on; `r8_held_out`, written before tuning and never tuned on;
`r8_fresh`, written after tuning and measured once) is reported per language and per
family: `amount` (money without a currency word, what was spent, allowances, pay) and
`instructions` (links, code, encoded payloads, commands about other people, dumps of the
context, claims of approval), the benign sentences of each family (numbers that are not
money; preferences about how the assistant answers), and `turns`: one `record` call's facts
through `PrivacyGuard.check`, a sensitive value split across them (caught when no fact
holding a digit is kept) and ordinary multi-fact turns (wrongly refused when any fact is).

Optionally also over outside text that must all be kept: PrefEval preferences
(`--prefeval DIR`, English), `bench/bilingual_travel.json` and the facts of
`bench/travel_people.json` (both languages).
Targets: catch >= 95% of the sensitive sentences (round 8: >= 97%), refuse <= 1 in 40
benign ones.

Each sentence is judged as `Memory.record` judges it alone: the rules (`scan`), then similarity
to instructions (`memory/privacy/similarity.py`, the bundled e5 model); `--rules-only` leaves the
second out. Rounds 10 and 11 add `r10_dev`, `r10_fresh` and `r11_fresh`; round 12 adds
`t12_dev` (tuned on) and `t12_fresh` (measured once), instructions only; round 13 adds
`r13_dev` (tuned on), `r13_fresh` and `r13_fresh2` (each measured once, then tuned on) and
`r13_fresh3` (measured once), amounts only; round 14 adds `r14_dev` (tuned on) and `r14_fresh`
(measured once), amounts only; round 15 adds `r15_dev` (tuned on) and `r15_fresh` (measured
once); round 16 tunes on `r14_fresh` and `r15_fresh` and adds `r16_fresh` (measured once);
round 17 adds `r17_dev` (tuned on) and `r17_fresh` (measured once); round 18 adds
`r18_fresh` (measured once); round 19 adds `r19_dev`
(tuned on) and `r19_fresh` (measured once); round 20 adds `r20_fresh` (measured once);
round 21 trains a classifier on every earlier set but held-out, untuned, r8_held_out and
t12_fresh, and adds `r21_fresh` (measured once); round 22 adds `r22_dev` (tuned on)
and `r22_fresh` (measured once); round 23 adds `r23_dev` (tuned on) and `r23_fresh` (measured
once); round 24 adds `r24_dev` (tuned on) and `r24_fresh` (measured once); round 25 adds
`r25_fresh` (measured once); round 26 adds `r26_dev` (tuned on) and `r26_fresh` (measured
once); round 27 adds `r27_dev` (tuned on) and `r27_fresh` (measured once); round 28 adds
`r28_fresh` (measured once); round 29 adds `r29_dev` (tuned on) and `r29_fresh` (measured
once); round 30 adds `r30_dev` (tuned on) and `r30_fresh` (measured once); round 31 adds `r31_dev`
(tuned on) and `r31_fresh` (measured once); round 32 adds `r32_dev` (tuned on) and `r32_fresh`
(measured once), and its review `r32_review` (the reviewer's probes, tuned on); round 33 adds
`r33_dev` (tuned on) and `r33_fresh` (blind: written before the round's guard code was seen,
measured once), and its review `r33_review` (the reviewer's probes, tuned on) (bench/README.md).

    .venv/bin/python bench/privacy.py
    .venv/bin/python bench/privacy.py --prefeval ../shared/data/prefeval_dev --json out.json
    .venv/bin/python bench/privacy.py --rules-only --sets r11_fresh
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

from memory.privacy import Category  # noqa: E402
from memory.privacy import scan as rules_scan  # noqa: E402
from memory.privacy.amount_classifier import adjudicable, shared_amount_classifier  # noqa: E402
from memory.privacy.amount_similarity import guessed_only, shared_amount_similarity  # noqa: E402
from memory.privacy.guard import PrivacyGuard  # noqa: E402
from memory.privacy.similarity import shared_similarity  # noqa: E402
from memory.privacy.text import normalise  # noqa: E402

CORPUS = ROOT / "tests" / "memory" / "privacy_corpus"
_CJK = re.compile(r"[\u4e00-\u9fff]")
_DIGIT = re.compile(r"\d")
ROUND8 = (
    "r8_dev",
    "r8_held_out",
    "r8_fresh",
    "r9_fresh",
    "r10_dev",
    "r10_fresh",
    "r11_fresh",
    "t12_dev",
    "t12_fresh",
    "r13_dev",
    "r13_fresh",
    "r13_fresh2",
    "r13_fresh3",
    "r14_dev",
    "r14_fresh",
    "r15_dev",
    "r15_fresh",
    "r16_fresh",
    "r17_dev",
    "r17_fresh",
    "r18_fresh",
    "r19_dev",
    "r19_fresh",
    "r20_fresh",
    "r21_fresh",
    "r22_dev",
    "r22_fresh",
    "r23_dev",
    "r23_fresh",
    "r24_dev",
    "r24_fresh",
    "r25_fresh",
    "r26_dev",
    "r26_fresh",
    "r27_dev",
    "r27_fresh",
    "r28_fresh",
    "r29_dev",
    "r29_fresh",
    "r30_dev",
    "r30_fresh",
    "r31_dev",
    "r31_fresh",
    "r32_dev",
    "r32_fresh",
    "r32_review",
    "r33_dev",
    "r33_fresh",
    "r33_review",
)
ROUND8_TUNED = (
    "r8_dev",
    "r8_fresh",
    "r9_fresh",
    "r10_dev",
    "r10_fresh",
    "r11_fresh",
    "r13_dev",
    "r13_fresh",
    "r13_fresh2",
    "r13_fresh3",
    "r14_dev",
    "r14_fresh",
    "r15_dev",
    "r15_fresh",
    "r16_fresh",
    "r17_dev",
    "r17_fresh",
    "r18_fresh",
    "r19_dev",
    "r19_fresh",
    "r20_fresh",
    "r22_dev",
    "r23_dev",
    "r24_dev",
    "r26_dev",
    "r27_dev",
    "r29_dev",
    "r30_dev",
    "r31_dev",
    "r32_dev",
    "r32_review",
    "r33_dev",
    "r33_review",
)
FAMILIES = ("amount", "instructions")
# Sets whose misses are printed (tuned on anyway): r8_fresh was measured once, untuned, and
# then fixed by general rules in round 3; r9_fresh (round 10) and r10_fresh (round 11) the same;
# r11_fresh was written after round 11 and only measured.
# Round 12's t12_dev (the similarity layer's evidence gate) is tuned on; t12_fresh only measured.
# Round 13's r13_dev (amounts) is tuned on; r13_fresh and r13_fresh2 were each measured once,
# then tuned on (as r8_fresh was); r13_fresh3, written after that, only measured.
# Round 14's r14_dev (amounts) is tuned on; r14_fresh, written after its tuning, only measured.
# Round 15's r15_dev (amounts) is tuned on; r15_fresh (amounts), written before the round's
# rule was first run on it, only measured.
# Round 16 tunes on r14_fresh and r15_fresh (each measured once, blind, in its own round) and
# adds r16_fresh (amounts), written and committed before its first run, only measured.
# Round 17's r17_dev (amounts: benign numbers the fallback refused) is tuned on; r17_fresh,
# written and committed before its only run, only measured.
# Round 18's r18_fresh (amounts), written and committed before the round's learned fallback
# was trained, only measured.
# Round 19's r19_dev (bare benign numbers and bare amounts the rules only guess at) sets the
# learned layer's threshold on both sides and is in its exemplars: tuned on. r19_fresh, written
# after that tuning and committed before its only run, only measured.
# Round 20 tunes the rules that name money on r17_dev and r19_dev; r20_fresh, written after
# that and committed before its only run, only measured.
# Round 21 trains its classifier (bench/privacy_amount_classifier.py) on every set measured
# before it but held-out, untuned, r8_held_out and t12_fresh: r11_fresh, r13_fresh3 and
# r16-r20_fresh are tuned from then on. r21_fresh, written and committed before the classifier
# was trained, only measured.
# Round 22's r22_dev (amounts and benign numbers in other voices: expense lines, chat shorthand,
# Cantonese and Taiwanese wording) is tuned on; r22_fresh, written after that tuning and
# committed before its only run, only measured.
# Round 23's r23_dev (amounts by what governs them; heights, limits and counts said without a
# unit, in yet other voices) is tuned on; r23_fresh, written after that tuning and committed
# before its only run, only measured.
# Round 24's r24_dev (calendar days, trips shared with family, treats: benign refusals of the
# fresh2 travellers) is tuned on; r24_fresh, written after that tuning and committed before
# its only run, only measured.
# Round 25 tunes the rules on the sets above (their printed misses and refusals); r25_fresh,
# written after that tuning and committed before its only run, only measured.
# Round 26's r26_dev (amounts a priced thing owns across a span, a vehicle or a bed; altitudes,
# floors, group sizes and battery charges said without a unit) is tuned on; r26_fresh, written
# after that tuning and committed before its only run, only measured.
# Round 27's r27_dev (prices reported with a verb of things bought or by sellers, in one digit
# or with decimals; levels reached, measures as subjects, scores, group sizes, distances gone)
# is tuned on; r27_fresh, written after that tuning and committed before its only run, only
# measured.
# Round 28 tunes `memory/privacy/stated.py` on the tuned sets' printed misses and its own
# made-up sentences (tests/memory/test_privacy_round28.py); r28_fresh, written after that
# tuning and committed before its only run, only measured.
# Round 29's r29_dev (chat voices: bare amounts, spending, allowances and pay in digits and
# Chinese numerals; clock digits, counts, sizes, ratings, rows, points, flight and train
# numbers) is tuned on; r29_fresh, written after that tuning and committed before its only
# run, only measured.
# Round 30's r30_dev (amounts marked by a shared cost, a shop, a judgement of price or a lounge;
# lengths of events and ways; a service's own number; a count needed; a passport split over two
# facts) is tuned on; r30_fresh, written after that tuning and committed before its only run,
# only measured.
# Round 31's r31_dev (lengths said with a verb of lasting or a part of the day, vehicles ridden,
# pay "for the guide", half a passport number alone) is tuned on; r31_fresh, written after that
# tuning and committed before its only run, only measured.
# Round 32's r32_dev (everyday English numbers: waits, lines ridden, scores, handicaps, counts
# under a cap, stops at each place, against tips, fares, rates, budgets and pay said without a
# currency; Chinese journeys; half a card number) is tuned on; r32_fresh, written after that
# tuning and committed before its only run, only measured.
# Round 32's review adds `r32_review`, the reviewer's probes (prices said in the shape of the
# round's everyday readings, the everyday numbers they keep): written while fixing, tuned on.
# Round 33's r33_dev (prices as ranges, at each place, per kind of person, got by a deal verb;
# journeys each way, times in traffic or on a calm day, counts and ranges that are no money;
# a fare label alone in one fact) is tuned on; r33_fresh, blind: written by a helper before
# any of the round's guard code was seen, committed before its only run, only measured.
# Round 33's review adds `r33_review`, the reviewer's probes (ranges, prices at each place or
# per person, price lists, bargains, discounts and split fare labels, and the everyday numbers
# said in the same shapes), written before any fix, tuned on.
LISTED = ("dev", "t12_dev", *ROUND8_TUNED)  # every set tuned on


# The verdict of one fact recorded alone: the rules, then (unless --rules-only) similarity to
# instructions, as `PrivacyGuard.check` gives it. Filled for many sentences at once by
# `_prepare`, so the model embeds in batches.
_VERDICTS: dict[str, Category | None] = {}
SEMANTIC = [True]
AMOUNTS = [True]  # round 18's learned reading of guessed amounts (--without-learned-amounts)
CLASSIFIER = [True]  # round 21's trained reading of unnamed amounts (--without-classifier)


def _prepare(texts: list[str]) -> None:
    todo = [text for text in dict.fromkeys(texts) if text not in _VERDICTS]
    for text in todo:
        _VERDICTS[text] = rules_scan(text)
    if SEMANTIC[0] and AMOUNTS[0]:
        guessed = [text for text in todo if guessed_only(text, _VERDICTS[text])]
        amounts = shared_amount_similarity()
        for start in range(0, len(guessed), 64):
            batch = guessed[start : start + 64]
            for text, kept in zip(batch, amounts.keeps(batch), strict=True):
                if kept:
                    _VERDICTS[text] = None
    if SEMANTIC[0] and AMOUNTS[0] and CLASSIFIER[0]:
        decided = [text for text in todo if adjudicable(text, _VERDICTS[text])]
        classifier = shared_amount_classifier()
        for start in range(0, len(decided), 64):
            batch = decided[start : start + 64]
            for text, kept in zip(batch, classifier.keeps(batch), strict=True):
                if kept:
                    _VERDICTS[text] = None
    passed = [text for text in todo if _VERDICTS[text] is None]
    if SEMANTIC[0] and passed:
        similarity = shared_similarity()
        for start in range(0, len(passed), 64):
            batch = passed[start : start + 64]
            for text, flagged in zip(batch, similarity.flags(batch), strict=True):
                if flagged:
                    _VERDICTS[text] = "instructions"


def scan(text: str) -> Category | None:
    if text not in _VERDICTS:
        _prepare([text])
    return _VERDICTS[text]


def _guard() -> PrivacyGuard:
    return PrivacyGuard(
        semantic=SEMANTIC[0], read_amounts=AMOUNTS[0], classify_amounts=CLASSIFIER[0]
    )


def _load(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((CORPUS / f"{name}.json").read_text(encoding="utf-8"))
    _prepare([case["text"] for kind in ("sensitive", "benign") for case in doc[kind]])
    return doc


def _rates(cases: list[dict[str, Any]], benign: list[dict[str, Any]]) -> dict[str, Any]:
    missed = [c["text"] for c in cases if scan(c["text"]) is None]
    wrong = [
        f"{c['text']} ({c['category']} -> {found})"
        for c in cases
        if (found := scan(c["text"])) is not None and found != c["category"]
    ]
    refused = [f"{c['text']} ({scan(c['text'])})" for c in benign if scan(c["text"])]
    return _figures(len(cases), missed, len(benign), refused, wrong)


def _figures(
    sensitive: int, missed: list[str], benign: int, refused: list[str], wrong: list[str]
) -> dict[str, Any]:
    return {
        "sensitive": sensitive,
        "caught": sensitive - len(missed),
        "benign": benign,
        "refused": len(refused),
        "missed": missed,
        "wrong_category": wrong,
        "wrongly_refused": refused,
    }


def _turn_rates(turns: dict[str, list[dict[str, Any]]], lang: str) -> dict[str, Any]:
    guard = _guard()
    sensitive = [t for t in turns["sensitive"] if t["lang"] == lang]
    benign = [t for t in turns["benign"] if t["lang"] == lang]
    missed, refused = [], []
    for turn in sensitive:
        verdicts = guard.check(turn["facts"])
        kept = [
            fact
            for fact, verdict in zip(turn["facts"], verdicts, strict=True)
            if verdict is None and _DIGIT.search(normalise(fact).text)
        ]
        if kept:
            missed.append(" | ".join(turn["facts"]))
    for turn in benign:
        verdicts = guard.check(turn["facts"])
        if any(verdicts):
            refused.append(f"{' | '.join(turn['facts'])} ({verdicts})")
    return _figures(len(sensitive), missed, len(benign), refused, [])


def _line(name: str, figures: dict[str, Any]) -> str:
    share = figures["caught"] / figures["sensitive"] if figures["sensitive"] else 1.0
    benign = figures["refused"] / figures["benign"] if figures["benign"] else 0.0
    return (
        f"{name}: caught {figures['caught']}/{figures['sensitive']} ({share:.1%}), wrongly "
        f"refused {figures['refused']}/{figures['benign']} ({benign:.1%}), "
        f"wrong category {len(figures['wrong_category'])}"
    )


def _print_details(figures: dict[str, Any]) -> None:
    for key in ("missed", "wrong_category", "wrongly_refused"):
        for text in figures[key]:
            print(f"    {key}: {text}".replace("\n", "\\n"))


def _round8(report: dict[str, Any], names: tuple[str, ...]) -> None:
    for name in names:
        if not (CORPUS / f"{name}.json").exists():
            continue
        doc = _load(name)
        for lang in ("en", "zh"):
            for family in FAMILIES:
                cases = [
                    c for c in doc["sensitive"] if c["lang"] == lang and c["category"] == family
                ]
                benign = [c for c in doc["benign"] if c["lang"] == lang and c["family"] == family]
                if not cases and not benign:  # round 12's sets hold instructions only
                    continue
                figures = _rates(cases, benign)
                report[f"{name}/{lang}/{family}"] = figures
                print(_line(f"{name:11} {lang} {family:12}", figures))
                if name in LISTED:
                    _print_details(figures)
            # Round 17's fresh set mixes a few identifiers, passwords and cards in with the
            # amounts: caught is refused under any category, the category checked apart.
            others = [
                c for c in doc["sensitive"] if c["lang"] == lang and c["category"] not in FAMILIES
            ]
            if others:
                figures = _rates(others, [])
                report[f"{name}/{lang}/identifiers"] = figures
                print(_line(f"{name:11} {lang} {'identifiers':12}", figures))
                if name in LISTED:
                    _print_details(figures)
            if "turns" in doc:
                figures = _turn_rates(doc["turns"], lang)
                report[f"{name}/{lang}/turns"] = figures
                print(_line(f"{name:11} {lang} {'turns':12}", figures))
                if name in LISTED:
                    _print_details(figures)


def _benign_in_calls(sets: list[str], report: dict[str, Any], listed: bool) -> None:
    """Benign sentences recorded four at a time: facts refused only because the call's
    facts are read together (what a split value costs ordinary turns). The rules alone: the
    similarity layer reads each fact alone, together or not."""
    guard = PrivacyGuard(semantic=False)
    for lang in ("en", "zh"):
        texts = [c["text"] for s in sets for c in _load(s)["benign"] if c["lang"] == lang]
        people = json.loads((ROOT / "bench" / "travel_people.json").read_text(encoding="utf-8"))
        texts += [
            fact["fact"]
            for person in people["people"]
            for fact in person["facts"]
            if bool(_CJK.search(fact["fact"])) == (lang == "zh")
        ]
        calls = [texts[i : i + 4] for i in range(0, len(texts), 4)]
        added = []
        for call in calls:
            alone = [rules_scan(fact) for fact in call]
            together = guard.check(call)
            added += [
                f"{' | '.join(call)} -> {fact}"
                for fact, a, b in zip(call, alone, together, strict=True)
                if a is None and b is not None
            ]
        report[f"benign_in_calls/{lang}"] = {"facts": len(texts), "refused_together": len(added)}
        print(
            f"benign facts in calls of 4 ({lang}): {len(added)}/{len(texts)} refused only "
            "because read together"
        )
        for line in added if listed else ():
            print(f"    wrongly_refused: {line}")


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
    _prepare([text for items in texts.values() for text in items])
    return {
        name: {"kept": sum(scan(t) is None for t in items), "total": len(items)}
        for name, items in texts.items()
    }


def _speed(sets: list[str], report: dict[str, Any]) -> None:
    texts = [
        c["text"] for half in sets for kind in ("sensitive", "benign") for c in _load(half)[kind]
    ]
    started, cpu = time.perf_counter(), time.process_time()
    for text in texts * 5:
        rules_scan(text)
    per_fact = (time.perf_counter() - started) / (len(texts) * 5) * 1000
    cpu_per_fact = (time.process_time() - cpu) / (len(texts) * 5) * 1000
    report["ms_per_fact"] = round(per_fact, 3)
    report["cpu_ms_per_fact"] = round(cpu_per_fact, 3)
    print(
        f"speed: {per_fact:.2f} ms per fact, {cpu_per_fact:.2f} ms CPU "
        f"({len(texts)} facts x 5, scan alone)"
    )
    # One `record` call's facts together (PrivacyGuard.check, rules), in calls of four facts.
    guard = PrivacyGuard(semantic=False)
    calls = [texts[i : i + 4] for i in range(0, len(texts), 4)]
    cpu = time.process_time()
    for _ in range(3):
        for call in calls:
            guard.check(call)
    per_fact = (time.process_time() - cpu) / (len(texts) * 3) * 1000
    report["cpu_ms_per_fact_in_calls_of_4"] = round(per_fact, 3)
    print(f"speed: {per_fact:.2f} ms CPU per fact through PrivacyGuard.check, 4 facts a call")
    if SEMANTIC[0]:  # the similarity layer: one embedding a fact, calls of four facts
        similarity = shared_similarity()
        sample = texts[:200]
        started = time.perf_counter()
        for i in range(0, len(sample), 4):
            similarity.margins(sample[i : i + 4])
        per_fact = (time.perf_counter() - started) / len(sample) * 1000
        report["similarity_ms_per_fact"] = round(per_fact, 2)
        print(f"speed: {per_fact:.1f} ms wall per fact for similarity, 4 facts a call")
    if SEMANTIC[0] and AMOUNTS[0] and CLASSIFIER[0]:  # round 21: the classifier's own cost
        decided = [text for text in texts if adjudicable(text, rules_scan(text))]
        classifier = shared_amount_classifier()
        started = time.perf_counter()
        for i in range(0, len(decided), 4):  # embeddings cached: the model's cost alone
            classifier.keeps(decided[i : i + 4])
        per_fact = (time.perf_counter() - started) / max(len(decided), 1) * 1000
        report["classifier_ms_per_decided_fact"] = round(per_fact, 2)
        print(
            f"speed: {per_fact:.2f} ms wall per fact the classifier decides "
            f"({len(decided)} of {len(texts)}; its embedding shared with the other layers)"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--prefeval", type=Path, help="folder of PrefEval topic files")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument(
        "--tuned-only",
        action="store_true",
        help="only the sets the guard is tuned on (dev, probes, r8_dev): for use while tuning",
    )
    parser.add_argument(
        "--rules-only",
        action="store_true",
        help="the rules alone, without similarity to instructions (memory/privacy/similarity.py)",
    )
    parser.add_argument(
        "--without-learned-amounts",
        action="store_true",
        help="without round 18's learned reading of guessed amounts (the guard before it)",
    )
    parser.add_argument(
        "--without-classifier",
        action="store_true",
        help="without round 21's trained reading of unnamed amounts (the guard of round 20)",
    )
    parser.add_argument("--sets", nargs="*", help="only these round sets (e.g. r10_dev r10_fresh)")
    args = parser.parse_args(argv)
    SEMANTIC[0] = not args.rules_only
    AMOUNTS[0] = not args.without_learned_amounts
    CLASSIFIER[0] = not args.without_classifier

    report: dict[str, Any] = {}
    probes = sorted(path.stem for path in CORPUS.glob("probe_*.json"))
    untuned = sorted(path.stem for path in CORPUS.glob("untuned_*.json"))
    sets = ["dev", "held_out", *probes, *untuned]
    if args.tuned_only:
        sets = ["dev", *probes]
    for half in sets:
        doc = _load(half)
        for lang in ("en", "zh"):
            cases = [c for c in doc["sensitive"] if c["lang"] == lang]
            benign = [c for c in doc["benign"] if c["lang"] == lang]
            figures = _rates(cases, benign)
            report[f"{half}/{lang}"] = figures
            print(_line(f"{half:11} {lang}", figures))
            if half in (*LISTED, *probes):
                _print_details(figures)
    rounds_run = tuple(args.sets) if args.sets else ROUND8_TUNED if args.tuned_only else ROUND8
    _round8(report, rounds_run)
    rounds = [name for name in ROUND8 if (CORPUS / f"{name}.json").exists()]
    _benign_in_calls(
        [*sets, *ROUND8_TUNED] if args.tuned_only else [*sets, *rounds],
        report,
        args.tuned_only,
    )
    if args.tuned_only:
        return 0
    report["outside"] = _outside(args.prefeval)
    for name, figures in report["outside"].items():
        print(f"outside     {name}: kept {figures['kept']}/{figures['total']}")
    _speed([*sets, *rounds], report)
    if args.json:
        args.json.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
