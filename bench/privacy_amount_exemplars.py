"""Build the exemplars of the guard's learned amount decision (rounds 18 and 19).

The decision is `memory/privacy/amount_similarity.py`.

Amount exemplars are the `amount` sentences of the privacy corpus's development sets; benign
exemplars are those sets' benign sentences that hold a number (after normalisation, so Chinese
numerals count). Never a fresh, held-out or untuned set, nor outside text: those are measured,
not learned from. Writes `memory/privacy/amount_exemplars.json` (the sentences, `k`, the
threshold) and `amount_exemplars.npy` (their embeddings, int8, amounts first).

    .venv/bin/python bench/privacy_amount_exemplars.py            # rebuild both files
    .venv/bin/python bench/privacy_amount_exemplars.py --check    # say whether they are current
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memory.embedding import shared_local_embedder  # noqa: E402
from memory.privacy.amount_similarity import EXEMPLARS, VECTORS  # noqa: E402
from memory.privacy.similarity import quantise  # noqa: E402
from memory.privacy.text import normalise  # noqa: E402

CORPUS = ROOT / "tests" / "memory" / "privacy_corpus"
OUT = ROOT / "memory" / "privacy"
# The development sets (bench/README.md); every `*fresh*`, held-out and untuned set is left out.
SETS = (
    "dev",
    "probe_r2",
    "probe_r3",
    "probe_r4",
    "probe_r5",
    "r8_dev",
    "r10_dev",
    "r13_dev",
    "r14_dev",
    "r15_dev",
    "r17_dev",
    "r19_dev",
)
K = 5
# Round 18, leave-one-set-out over its sets: the smallest margin an amount refused only by the
# guess reached when its set was left out was -0.0143 (read as money by -0.0143); a fact is
# kept above 0.015, so none of those 92 amounts would have been kept. Round 19 set it on both
# sides (r19_dev's benign numbers beside the amounts; 0.006 kept 18 of 28 guessed benign numbers
# in leave-one-set-out for 1 of 101 amounts), but measured sets' guessed amounts reach 0.0131
# (five let through on five sets at 0.006), so 0.015 stays (bench/README.md, round 19).
THRESHOLD = 0.015
_DIGIT = re.compile(r"\d")


def exemplars() -> dict[str, object]:
    amounts: list[str] = []
    benign: list[str] = []
    for name in SETS:
        doc = json.loads((CORPUS / f"{name}.json").read_text(encoding="utf-8"))
        amounts += [c["text"] for c in doc["sensitive"] if c["category"] == "amount"]
        benign += [c["text"] for c in doc["benign"] if _DIGIT.search(normalise(c["text"]).text)]
    return {
        "about": "Rounds 18-19: exemplars of the learned amount decision, written by "
        "bench/privacy_amount_exemplars.py; do not edit by hand.",
        "model": shared_local_embedder().name,
        "k": K,
        "threshold": THRESHOLD,
        "sets": list(SETS),
        "amounts": list(dict.fromkeys(amounts)),
        "benign": list(dict.fromkeys(benign)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check the files are current")
    args = parser.parse_args()
    doc = exemplars()
    text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
    path = OUT / EXEMPLARS
    if args.check:
        current = path.exists() and path.read_text(encoding="utf-8") == text
        print("current" if current else "stale: rebuild with bench/privacy_amount_exemplars.py")
        return 0 if current else 1
    sentences = [*doc["amounts"], *doc["benign"]]  # type: ignore[misc]
    vectors = np.asarray(shared_local_embedder().embed_passages(sentences), dtype=np.float32)
    rows, _ = quantise(vectors)
    path.write_text(text, encoding="utf-8")
    np.save(str(OUT / VECTORS), rows)
    print(f"{len(sentences)} exemplars written to {path} and {VECTORS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
