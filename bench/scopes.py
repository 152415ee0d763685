"""Benchmark: does a newer slot fact supersede an older one only when it should?

Data: `tests/memory/scope_pairs/{dev,heldout}.json`, pairs of an older and a newer fact
in English or Chinese with the expected outcome, "supersedes" (a true change of mind in
the same scope) or "both" (a scoped fact beside a general one, or two different scopes).
The held-out half was written before the scope reader existed and is never tuned on.

Each pair is decided by the slot rule `Memory.record` applies: both facts go through the
schema's slot and scope recognition (`ProfileSchema.detect`), then the same relation the
engine applies (`memory.relations.relation`). A pair with a fact that is no slot comes out
"both" here; the engine then reads it as a change of mind said in free words
(`memory.changes`), which `bench/changes.py --pairs scope` measures on these same pairs
through the whole `Memory.record`.

    .venv/bin/python bench/scopes.py              # accuracy per half and language
    .venv/bin/python bench/scopes.py --errors     # and every pair decided wrongly
    .venv/bin/python bench/scopes.py --half dev --kind place
    .venv/bin/python bench/scopes.py --timing     # and the cost of `detect` per fact
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memory.profile import ProfileSchema, load_schema  # noqa: E402
from memory.relations import relation  # noqa: E402
from memory.types import MemoryItem  # noqa: E402

PAIRS = ROOT / "tests" / "memory" / "scope_pairs"
HALVES = ("dev", "heldout")


@dataclass(frozen=True)
class Outcome:
    half: str
    lang: str
    kind: str
    old: str
    new: str
    expected: str
    got: str
    why: str
    recognised: bool  # both facts were read as slot facts (else "both" is by default)

    @property
    def right(self) -> bool:
        return self.expected == self.got


def load_pairs(half: str) -> list[dict[str, str]]:
    data = json.loads((PAIRS / f"{half}.json").read_text(encoding="utf-8"))
    pairs: list[dict[str, str]] = data["pairs"]
    return pairs


def decide(schema: ProfileSchema, old_text: str, new_text: str) -> tuple[str, str, bool]:
    """ "supersedes" or "both", what the schema read in each fact, and whether it read both."""
    old, new = schema.detect(old_text), schema.detect(new_text)
    why = f"old={_show(old)} new={_show(new)}"
    if old is None or new is None:
        return "both", why, False
    stored = MemoryItem(
        id="old",
        namespace="bench",
        text=old_text,
        source="chat",
        created_at=datetime.now(UTC),
        slot=old.slot,
        value=old.value,
        polarity=old.polarity,
        scope=old.scope,
    )
    got = "supersedes" if relation(schema, stored, new) == "replaces" else "both"
    return got, why, True


def _show(match: object) -> str:
    if match is None:
        return "-"
    slot, value, scope = (getattr(match, name) for name in ("slot", "value", "scope"))
    return f"{slot}={value}" + (f"@{scope}" if scope else "")


def evaluate(schema: ProfileSchema, half: str) -> list[Outcome]:
    out = []
    for pair in load_pairs(half):
        got, why, recognised = decide(schema, pair["old"], pair["new"])
        out.append(
            Outcome(
                half,
                pair["lang"],
                pair["kind"],
                pair["old"],
                pair["new"],
                pair["expect"],
                got,
                why,
                recognised,
            )
        )
    return out


def accuracy(outcomes: list[Outcome]) -> dict[tuple[str, str], tuple[int, int, int]]:
    """(half, lang) -> (right, total, right only because a fact was not read as a slot),
    with lang "all" for both languages."""
    table: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for o in outcomes:
        for lang in (o.lang, "all"):
            cell = table[(o.half, lang)]
            cell[0] += o.right
            cell[1] += 1
            cell[2] += o.right and not o.recognised
    return {key: (right, total, unread) for key, (right, total, unread) in table.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--half", choices=HALVES, action="append")
    parser.add_argument("--kind", help="only pairs of this kind (mode, place, length, ...)")
    parser.add_argument("--errors", action="store_true", help="list the pairs decided wrongly")
    parser.add_argument("--timing", action="store_true", help="time detect() over every fact")
    args = parser.parse_args(argv)
    schema = load_schema()
    outcomes = [o for half in args.half or HALVES for o in evaluate(schema, half)]
    if args.kind:
        outcomes = [o for o in outcomes if o.kind == args.kind]
    table = accuracy(outcomes)
    print(f"{'half':8} {'lang':4} {'accuracy':>8}  right/total  (right with a fact not read)")
    for half, lang in sorted(table):
        right, total, unread = table[(half, lang)]
        print(f"{half:8} {lang:4} {right / total:8.3f}  {right:>5}/{total:<5}  ({unread})")
    wrong = [o for o in outcomes if not o.right]
    kinds: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for o in outcomes:
        kinds[f"{o.half}/{o.kind}"][0] += o.right
        kinds[f"{o.half}/{o.kind}"][1] += 1
    print("by kind: " + ", ".join(f"{k} {r}/{n}" for k, (r, n) in sorted(kinds.items())))
    if args.timing:
        texts = [p[k] for half in HALVES for p in load_pairs(half) for k in ("old", "new")]
        best = float("inf")
        for _ in range(5):
            started = time.perf_counter()
            for text in texts:
                schema.detect(text)
            best = min(best, (time.perf_counter() - started) / len(texts))
        print(f"detect: {best * 1000:.3f} ms per fact ({len(texts)} facts, best of 5)")
    if args.errors:
        for o in wrong:
            print(f"[{o.half} {o.lang} {o.kind}] expected {o.expected}, got {o.got}")
            print(f"    old: {o.old}\n    new: {o.new}\n    {o.why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
