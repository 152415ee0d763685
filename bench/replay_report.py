"""The tally and report the ranking replay experiments share (`ranking_crowd.py`,
`ranking_hubness.py`): R@1/3/5 hits per set for one way of scoring each captured case, and
one line per variant with its same-language gain over the engine and every cell it moved."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np


def tally(
    cases: Iterable[tuple[dict[str, Any], Any]], scores: Callable[..., Any]
) -> dict[str, list[int]]:
    """R@1/3/5 hits per set: `scores(case, prepared)` ranks a case's facts; a case with
    nothing prepared (no target) counts in its set and hits nothing."""
    hits: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for case, prepared in cases:
        row = hits[case["set"]]
        if prepared is None:
            continue
        order = np.argsort(-scores(case, prepared), kind="stable").tolist()
        place = int(order.index(case["target"]))
        for i, k in enumerate((1, 3, 5)):
            row[i] += place < k
    return dict(hits)


def report(
    name: str, base: dict[str, list[int]], moved_to: dict[str, list[int]], width: int
) -> None:
    """One line: the same-language sum of R@1/3/5 changes (a summary set, "S…", counts
    whole) and each cell that moved."""
    total = [0, 0, 0]
    moved = []
    for cell in sorted(base):
        d = [moved_to[cell][i] - base[cell][i] for i in range(3)]
        if cell.startswith("S") or len(set(re.findall(r"(zh|en)", cell))) == 1:
            total = [a + b for a, b in zip(total, d, strict=True)]
        if any(d):
            moved.append(f"{cell}: {d[0]:+d}/{d[1]:+d}/{d[2]:+d}")
    print(
        f"{name:{width}s} same language {total[0]:+d}/{total[1]:+d}/{total[2]:+d} | "
        + "  ".join(moved),
        flush=True,
    )


__all__ = ["report", "tally"]
