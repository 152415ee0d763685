"""Benchmark: does a change of mind said in free words replace the older fact, and only then?

Data: `tests/memory/change_pairs/{dev,heldout,fresh}.json` (round 2 adds `dev2`, tuned on,
`heldout2`, written before round 2's changes, and `fresh2`, written after them; round 4
adds `dev3`, tuned on, and `fresh3`, written after round 4's changes, both with
"lookalike" pairs: no change of mind, though words look like one; round 5 adds `fresh4`,
the same kinds on new subjects, committed before its one run; round 6 adds `dev4`, tuned
on, and `fresh5`, the same kinds on new subjects, committed before its one run; round 7
adds `dev5`, tuned on, and `fresh6`, committed before its one run, and tunes on fresh3-5
too; round 8 adds `dev6`, tuned on; round 9 adds `dev7`, tuned on, and `fresh7`,
committed before its one run; round 10 adds `dev8`, tuned on, and `fresh8`, committed
before its one run, and its precision follow-up `dev9`, tuned on; round 11 adds `dev10`,
tuned on, whose pairs carry `others`: the traveller's other facts on the pair's subject,
recorded among the crowded traveller's facts, and `fresh9`, the same kind of pairs
committed before its one run; round 13 adds `fresh11`, the same, run once with the
round's code and once with main's; round 14 adds `fresh12`, committed before its one
run; round 15 adds `fresh13` and `fresh14`, the same; round 16 adds `dev13`, tuned on, and
`fresh15`, committed before its one run; round 17 adds `fresh16`, the same, and
`dev16`, tuned on; round 18 adds `fresh17`, committed before its one run; round 19 adds
`dev17`, tuned on, and `fresh18`, committed before its one run; its review adds
`fresh19`, the same, run once at the round's base and once at the merged round; `fresh20`,
blind, written beside the privacy set r33_fresh before round 20's change code was seen,
committed before its single run; round 20 adds `dev20`, tuned on; its review
`dev20r`, tuned on), pairs of an older and a
newer fact one traveller said, in English or Chinese: "change" (the newer replaces the older:
it should supersede), "scoped" (the newer holds only in a place, trip kind or situation),
"complement" (the same subject, compatible) and "unrelated" (both should stay). The held-out
half was written with the dev half,
before the change detector, and is never tuned on; the fresh probes, on other subjects,
were written after it was frozen.
`--errors` lists the dev halves' misses only.

Each pair goes through the real `Memory.record` (a SQLite file, the bundled embedding
model, no Redis): the older fact, then the newer one, in a namespace of its own
("alone"), or after every fact of one consistent traveller of `bench/travel_people.json`
("crowded": dev people for the dev half, check people for the held-out half, one who
speaks the pair's language, in turn), where the newer fact must change the older one
and nothing else. Then `retrieve(namespace, "")`, the whole profile the agent receives,
is read, with a budget sized for a prompt (`SUMMARY_BUDGET`: a traveller's every fact
fits, as issue 22 asks of the default): a change "tells the agent" when the older fact
is gone from it, or both are in it and the newer comes first with its "newer" note.

    .venv/bin/python bench/changes.py                    # offline, alone and crowded
    .venv/bin/python bench/changes.py --judge oracle     # a scripted fast model
    .venv/bin/python bench/changes.py --judge garbage    # a model that answers garbage
    .venv/bin/python bench/changes.py --errors           # and the dev half's misses
    .venv/bin/python bench/changes.py --pairs scope      # the scope pairs, through the engine

Judges (a local OpenAI-compatible double, `bench/doubles.py`): `oracle` answers each
question with the pair's label ("update" for the older fact of a change, "add"
otherwise), so it measures which changes reach the model and that its answer is applied,
not a model's judgement; `garbage` answers text that is no JSON and `slow` answers after
the timeout, so both measure the offline fallback. Consistent travellers' facts recorded
one by one must never supersede one another: `wrongly superseded while recording
profiles` counts those that did.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from doubles import ModelDouble  # noqa: E402
from scratch import scratch_database  # noqa: E402

from memory import open_memory  # noqa: E402
from memory.conflicts import LLMConflictJudge  # noqa: E402
from memory.engine import Memory  # noqa: E402
from memory.lang import detect_lang  # noqa: E402
from memory.llm import openai_client  # noqa: E402
from memory.settings import MemorySettings  # noqa: E402

PAIR_SETS = {
    "change": ROOT / "tests" / "memory" / "change_pairs",
    "scope": ROOT / "tests" / "memory" / "scope_pairs",
}
PEOPLE = ROOT / "bench" / "travel_people.json"
HALVES = (
    "dev",
    "heldout",
    "fresh",
    "dev2",
    "heldout2",
    "fresh2",
    "dev3",
    "fresh3",
    "fresh4",
    "dev4",
    "fresh5",
    "dev5",
    "fresh6",
    "dev6",
    "dev7",
    "fresh7",
    "dev8",
    "fresh8",
    "dev9",
    "dev10",
    "fresh9",
    "dev11",
    "fresh10",
    "dev12",
    "fresh11",
    "fresh12",
    "fresh13",
    "fresh14",
    "dev13",
    "fresh15",
    "fresh16",
    "dev16",
    "fresh17",
    "dev17",
    "fresh18",
    "fresh19",
    "fresh20",
    "dev20",
    "dev20r",
)
DEV_HALVES = (
    *("dev", "dev2", "dev3", "dev4", "dev5", "dev6", "dev7", "dev8", "dev9", "dev10", "dev11"),
    "dev12",
    "dev13",
    "dev16",
    "dev17",
    "dev20",
    "dev20r",
    *("fresh3", "fresh4", "fresh5"),
)
# tuned on (fresh3-5 since round 7, after their blind runs were reported); --errors lists
# only their misses
SUMMARY_BUDGET = {"memory_summary_max_facts": 60, "memory_summary_max_chars": 4000}
SPLIT_OF = {
    "dev": "dev",
    "heldout": "check",
    "fresh": "check",
    "dev2": "dev",
    "heldout2": "check",
    "fresh2": "check",
    "dev3": "dev",
    "fresh3": "check",
    "fresh4": "check",
    "dev4": "dev",
    "fresh5": "check",
    "dev5": "dev",
    "fresh6": "check",
    "dev6": "dev",
    "dev7": "dev",
    "fresh7": "check",
    "dev8": "dev",
    "fresh8": "check",
    "dev9": "dev",
    "dev10": "dev",
    "fresh9": "check",
    "dev11": "dev",
    "fresh10": "check",
    "dev12": "dev",
    "fresh11": "check",
    "fresh12": "check",
    "fresh13": "check",
    "fresh14": "check",
    "dev13": "dev",
    "fresh15": "check",
    "fresh16": "check",
    "dev16": "dev",
    "fresh17": "check",
    "dev17": "dev",
    "fresh18": "check",
    "fresh19": "check",
    "fresh20": "check",
    "dev20": "dev",
    "dev20r": "dev",
}
RECORDED: dict[str, str] = {}  # an older fact's text -> the id it was recorded as
_EXISTING = re.compile(r"^([0-9a-f]{32}): (.*)$", re.MULTILINE)
_NEW_FACT = re.compile(r"New fact:\n(.*)\s*$", re.DOTALL)


@dataclass(frozen=True)
class Result:
    half: str
    lang: str
    kind: str
    setting: str  # "alone" or "crowded"
    old: str
    new: str
    expect: str  # "supersedes" or "both"
    got: str  # "supersedes", "marked" (both kept, newer marked), "both", "known" (the newer
    # repeats another fact of the traveller's), "other"
    collateral: tuple[str, ...]  # other facts the newer one superseded or marked
    told: bool  # the agent's text shows which is newer (or only the newer)
    profile_wrong: tuple[str, ...] = ()  # the person's facts one of theirs replaced
    rewritten: tuple[str, ...] = ()  # other facts replaced by what stays of them (round 15)

    @property
    def right(self) -> bool:
        if self.collateral:
            return False
        if self.expect == "supersedes":
            return self.got == "supersedes"
        return self.got in ("both", "marked", "known")


def load_pairs(kind: str, half: str) -> list[dict[str, Any]]:
    data = json.loads((PAIR_SETS[kind] / f"{half}.json").read_text(encoding="utf-8"))
    pairs: list[dict[str, Any]] = data["pairs"]
    return pairs


def people_by_lang(half: str) -> dict[str, list[list[str]]]:
    """Each language's consistent travellers of the half's split (their facts)."""
    data = json.loads(PEOPLE.read_text(encoding="utf-8"))
    found: dict[str, list[list[str]]] = {"en": [], "zh": []}
    for person in data["people"]:
        if person["split"] != SPLIT_OF[half]:
            continue
        facts = [f["fact"] for f in person["facts"]]
        for lang in found:
            if sum(detect_lang(f) == lang for f in facts) >= 5:
                found[lang].append(facts)
    return found


def run_pair(
    mem: Memory, pair: dict[str, Any], half: str, setting: str, person: list[str]
) -> Result:
    """One pair in a fresh namespace, after the person's facts (if any)."""
    ns = f"B{uuid.uuid4().hex[:8].upper()}:U{uuid.uuid4().hex[:8].upper()}"
    wrong: list[str] = []
    if person:
        mem.record(ns, person)
        history = mem.export(ns)["items"]
        wrong = [r["text"] for r in history if not r["current"] or r["contested_by"]]
    [old] = mem.record(ns, [pair["old"]])
    RECORDED[pair["old"]] = old.item_id or ""
    before = {r["id"] for r in mem.export(ns)["items"]}
    [new] = mem.record(ns, [pair["new"]])
    items = mem.export(ns)["items"]
    texts = {r["id"]: r["text"] for r in items}
    # a refused newer fact (the privacy guard) has no id and marks nothing: before round 16
    # every unmarked fact of the traveller's counted as touched by it
    marked = [i.id for i in mem.items(ns) if new.item_id and i.contested_by == new.item_id]
    # round 15: a fact that listed an option the newer gives up among others, replaced by
    # what stays of it in its own words ("I only stay at Hyatt or Hilton" -> "I only stay
    # at Hilton"), is rewritten, not lost: counted apart, not as collateral
    rest = [r["text"] for r in items if r["id"] not in before and r["id"] != new.item_id]
    rewritten = tuple(
        texts[i] for i in new.replaced_ids if i != old.item_id and _rewrites(texts[i], rest)
    )
    touched = [i for i in [*new.replaced_ids, *marked] if texts[i] not in rewritten]
    if old.item_id is None or new.item_id is None:
        got = "other"
    elif new.status == "duplicate":
        # already remembered: as the older fact (nothing changed, or a detail dropped), or
        # as another of the traveller's facts (the older one stays; nothing is lost)
        got = "other" if new.item_id == old.item_id else "known"
    elif old.item_id in new.replaced_ids:
        got = "supersedes"
    elif old.item_id in marked:
        got = "marked"
    else:
        got = "both"
    told = _told(mem.retrieve(ns, ""), pair["old"], pair["new"], got)
    mem.forget(ns)
    return Result(
        half,
        pair["lang"],
        pair["kind"],
        setting,
        pair["old"],
        pair["new"],
        pair["expect"],
        got,
        tuple(texts[i] for i in touched if i != old.item_id),
        told,
        tuple(wrong),
        rewritten,
    )


def _rewrites(fact: str, added: list[str]) -> bool:
    """Whether one of the `added` facts is `fact` with words taken out (its own words)."""
    for text in added:
        if text == fact:
            continue
        if text.isascii():
            if set(re.findall(r"\w+", text.casefold())) <= set(re.findall(r"\w+", fact.casefold())):
                return True
        elif set(text) <= set(fact):
            return True
    return False


def _told(summary: str, old: str, new: str, got: str) -> bool:
    """Whether the agent's text says the newer fact holds: only it, or it first, marked."""
    new_at, old_at = summary.find(_trimmed(new)), summary.find(_trimmed(old))
    if got == "supersedes":
        return new_at >= 0 and old_at < 0
    if got == "marked":
        return 0 <= new_at < old_at and ("newer" in summary or "较新" in summary)
    return False


def _trimmed(text: str) -> str:
    return " ".join(text.split()).rstrip("。．.!！;；,，、 ")


def oracle(pairs: list[dict[str, Any]]) -> Callable[[dict[str, Any]], tuple[str, None]]:
    """A model that knows every pair's label: "update" for the older fact of a change (or
    the fact it was recorded as, when it repeated one of the traveller's)."""
    changes = {p["new"]: p["old"] for p in pairs if p["expect"] == "supersedes"}

    def decide(body: dict[str, Any]) -> tuple[str, None]:
        prompt = str(body["messages"][-1]["content"])
        fact = _NEW_FACT.search(prompt)
        old = changes.get(fact.group(1).strip()) if fact else None
        ids = [i for i, text in _EXISTING.findall(prompt) if text == old or i == RECORDED.get(old)]
        if ids:
            return json.dumps({"action": "update", "replaces": ids}), None
        return json.dumps({"action": "add", "replaces": []}), None

    return decide


@contextmanager
def memory_for(judge: str, pairs: list[dict[str, Any]]) -> Iterator[tuple[Memory, Any]]:
    """A memory on a scratch SQLite file, with the asked judge (and its double)."""
    model: Any = None
    if judge == "oracle":
        model = ModelDouble(0.0, oracle(pairs))
    elif judge == "garbage":
        model = ModelDouble(0.0, lambda body: ("I think it is an update.", None))
    elif judge == "slow":
        model = ModelDouble(1.0, oracle(pairs))
    with scratch_database("sqlite", "changes") as dsn, closing(model) if model else nullcontext():
        conflict_judge = None
        if model is not None:
            settings = MemorySettings(
                openai_base_url=model.base_url,
                llm_timeout_seconds=0.3 if judge == "slow" else 10.0,
            )
            client = openai_client(settings, max_retries=0)
            conflict_judge = LLMConflictJudge(client=client, model="fast")
        mem = open_memory(dsn=dsn, redis_url="", judge=conflict_judge, **SUMMARY_BUDGET)
        assert isinstance(mem, Memory)
        try:
            yield mem, model
        finally:
            mem.close()


def evaluate(kind: str, halves: list[str], judge: str, settings: list[str]) -> list[Result]:
    results: list[Result] = []
    for half in halves:
        pairs = load_pairs(kind, half)
        people = people_by_lang(half)
        with memory_for(judge, pairs) as (mem, _):
            for setting in settings:
                turn = {"en": 0, "zh": 0}
                for pair in pairs:
                    person: list[str] = []
                    if setting == "crowded":
                        mine = people[pair["lang"]]
                        # round 11: the traveller's other facts on the pair's subject
                        person = mine[turn[pair["lang"]] % len(mine)] + pair.get("others", [])
                        turn[pair["lang"]] += 1
                    results.append(run_pair(mem, pair, half, setting, person))
    return results


def report(results: list[Result]) -> None:
    table: dict[tuple[str, str, str], dict[str, list[int]]] = defaultdict(
        lambda: defaultdict(lambda: [0, 0])
    )
    for r in results:
        for lang in (r.lang, "all"):
            cell = table[(r.half, r.setting, lang)]
            group = "change" if r.expect == "supersedes" else "keep"
            cell[group][0] += r.right
            cell[group][1] += 1
            if group == "change":
                cell["told"][0] += r.told
                cell["told"][1] += 1
            else:
                cell["marked"][0] += r.got == "marked"
                cell["marked"][1] += 1
            cell["collateral"][0] += len(r.collateral)
            cell["rewritten"][0] += len(r.rewritten)
    print(
        f"{'half':8} {'setting':8} {'lang':4} {'changes superseded':>20} {'agent told newer':>17} "
        f"{'others kept':>15} {'kept, marked':>13} {'collateral':>10} {'rewritten':>9}"
    )
    for key in sorted(table):
        cell = table[key]
        print(
            f"{key[0]:8} {key[1]:8} {key[2]:4} {_rate(cell['change']):>20} "
            f"{_rate(cell['told']):>17} {_rate(cell['keep']):>15} "
            f"{cell['marked'][0]:>13} {cell['collateral'][0]:>10} {cell['rewritten'][0]:>9}"
        )
    crowded = [r for r in results if r.setting == "crowded"]
    for half in sorted({r.half for r in crowded}):
        wrong = {text for r in crowded if r.half == half for text in r.profile_wrong}
        print(f"{half}: profile facts wrongly superseded or marked while recording: {len(wrong)}")


def _rate(cell: list[int]) -> str:
    right, total = cell
    return f"{right}/{total} {right / total:.3f}" if total else "-"


def main(argv: list[str] | None = None) -> int:
    logging.getLogger("memory.conflicts").setLevel(logging.ERROR)  # the garbage judge's
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", choices=sorted(PAIR_SETS), default="change")
    parser.add_argument("--half", choices=HALVES, action="append")
    parser.add_argument("--judge", choices=("none", "oracle", "garbage", "slow"), default="none")
    parser.add_argument("--setting", choices=("alone", "crowded"), action="append")
    parser.add_argument("--errors", action="store_true", help="list the dev half's misses")
    args = parser.parse_args(argv)
    halves = args.half or [h for h in HALVES if (PAIR_SETS[args.pairs] / f"{h}.json").exists()]
    results = evaluate(args.pairs, halves, args.judge, args.setting or ["alone", "crowded"])
    print(f"pairs: {args.pairs}; judge: {args.judge}")
    report(results)
    if args.errors:
        for r in results:
            if r.half in DEV_HALVES and not r.right:
                print(f"[{r.setting} {r.lang} {r.kind}] expected {r.expect}, got {r.got}")
                print(f"    old: {r.old}\n    new: {r.new}")
                for text in r.collateral:
                    print(f"    also touched: {text}")
            if r.half in DEV_HALVES and r.rewritten:
                print(f"[{r.setting} {r.lang}] rewritten: {r.rewritten} by {r.new}")
        wrong = {t for r in results if r.half in DEV_HALVES for t in r.profile_wrong}
        for text in sorted(wrong):
            print(f"[dev profile] superseded or marked while recording: {text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
