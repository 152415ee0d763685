"""Build the exemplars of the privacy guard's similarity layer (`memory/privacy/similarity.py`).

Instruction exemplars are the `instructions` sentences of the sets the guard is tuned on;
preference exemplars are the benign sentences of the instruction family of those sets (how the
assistant should answer, sharing rooms, booking sites …), their other benign sentences that use
an instruction's words, and a fixed sample (`Random(7)`) of the rest (numbers that are not
money). Never the held-out sets, the untuned
probes, the fresh probes of a round, or outside text (PrefEval, bench/*.json): those are
measured, not learned from. Writes `memory/privacy/similarity_exemplars.json` (the sentences,
`k` and the threshold) and `similarity_exemplars.npy` (their embeddings, int8, in order).

    .venv/bin/python bench/privacy_exemplars.py            # rebuild both files
    .venv/bin/python bench/privacy_exemplars.py --check    # only say whether they are current
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memory.embedding import shared_local_embedder  # noqa: E402
from memory.privacy.similarity import EXEMPLARS, VECTORS, quantise  # noqa: E402

CORPUS = ROOT / "tests" / "memory" / "privacy_corpus"
OUT = ROOT / "memory" / "privacy"
# The sets the guard is tuned on (bench/README.md says which is which).
TUNED = (
    "dev",
    "probe_r2",
    "probe_r3",
    "probe_r4",
    "probe_r5",
    "r8_dev",
    "r8_fresh",
    "r9_fresh",
    "r10_dev",
    "r10_fresh",
    "t12_dev",
)
# Measured, never learned from: a sentence that also appears in one of these (short ones such
# as "用公制单位" do) is no exemplar.
MEASURED = ("held_out", "untuned_r6", "untuned_r7", "r8_held_out", "r11_fresh", "t12_fresh")
OTHER_PREFERENCES = 360
# Preferences that use the words of instructions ("system prompt? no idea what that is, just
# book trains") are all kept as exemplars: they are the ones near the boundary.
NEAR_INSTRUCTIONS = re.compile(
    r"prompt|system|instruction|ignore|admin|approv|tell|share|send|forward|link|remind|reply"
    r"|answer|assistant|bot|memory|remember|指令|系统|管理员|审批|告诉|发给|转发|分享|提醒|回复|记住|助手",
    re.IGNORECASE,
)
K = 3
# Tuned on the development sets (bench/README.md). Round 10: 0.015, from r9_fresh held out of
# the exemplars (0.02 missed a third more of its instructions). Round 11: 0.01, from r10_fresh
# held out of the exemplars (0.015 let 18 of its 29 rule-missed instructions through, 0.01 12,
# 0.005 8) against the tuned sets' benign sentences that are no exemplars (658 that the rules
# keep: 0.015 refused 1, 0.01 2, 0.005 6).
# Round 12: a margin above the threshold refuses only with evidence of an instruction
# (`memory.privacy.similarity.addressed`), so the threshold went down to 0.0075: with r8_fresh,
# r9_fresh, r10_dev and r10_fresh each held out of the exemplars in turn, their rule-missed
# instructions caught went from 20/31 to 23/31 (en) and 17/33 to 18/33 (zh), their benign
# sentences refused from 0/290 to 0/290 (en) and 1/290 to 2/290 (zh); 0.005 refused 1 and 4.
THRESHOLD = 0.0075
# Above `STRONG` a margin refuses whatever the words. Above the largest
# margin of a benign sentence of the tuned sets held out of the exemplars set by set (0.031,
# "一直按公司差旅政策来", which has evidence anyway); short preferences such as "business class
# on long flights" reach 0.025-0.03.
STRONG = 0.04


def exemplars() -> dict[str, object]:
    commands: list[str] = []
    answers: list[str] = []
    others: list[str] = []
    for name in TUNED:
        doc = json.loads((CORPUS / f"{name}.json").read_text(encoding="utf-8"))
        commands += [c["text"] for c in doc["sensitive"] if c["category"] == "instructions"]
        for case in doc["benign"]:
            family = case.get("family")
            (answers if family == "instructions" else others).append(case["text"])
    measured: set[str] = set()
    for name in MEASURED:
        path = CORPUS / f"{name}.json"
        if path.exists():
            doc = json.loads(path.read_text(encoding="utf-8"))
            measured |= {c["text"] for kind in ("sensitive", "benign") for c in doc[kind]}
    commands = [text for text in commands if text not in measured]
    answers = [text for text in answers if text not in measured]
    unique = sorted(set(others) - set(answers) - measured)
    near = [text for text in unique if NEAR_INSTRUCTIONS.search(text)]
    rest = [text for text in unique if not NEAR_INSTRUCTIONS.search(text)]
    sample = near + random.Random(7).sample(rest, min(OTHER_PREFERENCES, len(rest)))
    return {
        "about": (
            "Exemplars of memory/privacy/similarity.py, written by bench/privacy_exemplars.py "
            "from the tuned privacy sets; do not edit by hand."
        ),
        "model": shared_local_embedder().name,
        "k": K,
        "threshold": THRESHOLD,
        "strong": STRONG,
        "instructions": list(dict.fromkeys(commands)),
        "preferences": list(dict.fromkeys([*answers, *sorted(sample)])),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only compare the sentences")
    args = parser.parse_args(argv)
    doc = exemplars()
    current = (
        json.loads((OUT / EXEMPLARS).read_text(encoding="utf-8"))
        if (OUT / EXEMPLARS).exists()
        else None
    )
    if args.check:
        same = current == doc
        print("current" if same else "out of date: run bench/privacy_exemplars.py")
        return 0 if same else 1
    texts = [*doc["instructions"], *doc["preferences"]]  # type: ignore[misc]
    embedder = shared_local_embedder()
    vectors = np.concatenate(
        [embedder.embed_passages(texts[i : i + 32]) for i in range(0, len(texts), 32)]
    )
    rows, _ = quantise(vectors)
    np.save(OUT / VECTORS, rows)
    (OUT / EXEMPLARS).write_text(
        json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    print(f"{len(doc['instructions'])} instructions, {len(doc['preferences'])} preferences")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
