r"""Orders within the crowd a subject lifts, replayed on a dev capture (issue 22, "Ranking:
order within a lifted crowd", bench/README.md).

    .venv/bin/python bench/ranking_replay.py capture \
        --prefeval ../../shared/data/prefeval_dev --out /tmp/replay-dev.pkl
    .venv/bin/python bench/ranking_crowd.py /tmp/replay-dev.pkl              # every variant
    .venv/bin/python bench/ranking_crowd.py /tmp/replay-dev.pkl spec-0.075-w # some of them

A request that names a subject lifts every fact about it; the needed fact can then rank
below others the same subject lifted. Each variant changes how the subject boost is shared
among the facts it lifts (the cosine, the language lift and the clear-match guard stay the
engine's): by the fact's specificity (how many subjects it names), by how much of it the
request's subjects cover, by whether it is lifted through a named or only an implied
subject, or by letting the cosine weigh more inside the crowd. Printed per set and
language pair: requests gained or lost at R@1 / R@3 / R@5 against the engine's own
formula, and the same-language total (variant `spec-0.075-w` is the one measured held-out,
commit d61a729, not merged). Dev only: a held-out set is measured by
`bench/recall.py`, never replayed here.
"""

from __future__ import annotations

import math
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from replay_report import report, tally

import memory.ranking as ranking
from memory.features import FactFeatures
from memory.subjects import load_subjects

Case = dict[str, Any]


class Prepared:
    """What a variant reads of one request: the cosine, the engine's view terms, and per
    request subject (named first, then implied) its weight × rarity and every fact's
    weight for it; per fact, how many subjects its own words name."""

    def __init__(self, c: Case, vocabulary: Any) -> None:
        about = np.array(
            [
                [n in vocabulary.of(t, s) for n in vocabulary.names]
                for t, s in zip(c["texts"], c["slots"], strict=True)
            ],
            dtype=bool,
        ).reshape(len(c["texts"]), len(vocabulary.names))
        asked = tuple(vocabulary.asked(c["request"]))
        implied = tuple(vocabulary.implied(asked))
        facts = FactFeatures.of("replay", vocabulary.names, c["zh"], about, c["near"])
        self.terms = ranking._terms(c["lang"], asked, facts, c["gap"], implied)
        self.cosine = np.asarray(c["cosine"], dtype=np.float64)
        count = len(facts)
        self.subjects: list[tuple[float, Any, bool, Any]] = []
        for subject, share, is_implied in [(s, 1.0, False) for s in asked] + [
            (s, ranking.IMPLIED_SHARE, True) for s in implied
        ]:
            j = facts.column(subject)
            n = int(facts.counts[j])
            if n:
                idf = math.log((count + 1) / (n + 0.5))
                own = about[:, j].astype(np.float64)
                self.subjects.append(
                    (ranking.SUBJECT_WEIGHT * share * idf, facts.weight_of(j), is_implied, own)
                )
        self.named = about.sum(axis=1).astype(np.float64)  # subjects a fact names
        self.weighted = facts.weight.sum(axis=1)  # and those its neighbours lend it


Variant = Callable[[Prepared], tuple[Any, ...]]  # the boosts, one array per subject


def engine(p: Prepared) -> tuple[Any, ...]:
    return tuple(w * having for w, having, _, _ in p.subjects)


def specificity(power: float, rescale: bool = True, weighted: bool = False) -> Variant:
    """Each boost divided by (the subjects the fact names)^power, rescaled so the mean
    boost over the facts it lifts is unchanged: a fact about one thing beats a fact
    about five among those a subject lifts."""

    def boosts(p: Prepared) -> tuple[Any, ...]:
        named = p.weighted if weighted else p.named
        factor = 1.0 / np.maximum(named, 1.0) ** power
        out = []
        for w, having, _, _ in p.subjects:
            lifted = having > 0
            b = having * factor
            if rescale and lifted.any():
                b = b * having[lifted].mean() / max(b[lifted].mean(), 1e-12)
            out.append(w * b)
        return tuple(out)

    return boosts


def extra(power: float, rescale: bool, own_only: bool) -> Variant:
    """Each boost divided by (1 + the subjects the fact names that the request neither
    asks nor implies)^power (`rescale`: the mean boost over the facts it lifts kept;
    `own_only`: only facts that name the subject themselves, not through neighbours)."""

    def boosts(p: Prepared) -> tuple[Any, ...]:
        covered = np.sum([own for _, _, _, own in p.subjects], axis=0) if p.subjects else 0
        factor = 1.0 / (1.0 + np.maximum(p.named - covered, 0.0)) ** power
        out = []
        for w, having, _, own in p.subjects:
            lifted = having > 0
            b = having * (np.where(own > 0, factor, 1.0) if own_only else factor)
            if rescale and lifted.any():
                b = b * having[lifted].mean() / max(b[lifted].mean(), 1e-12)
            out.append(w * b)
        return tuple(out)

    return boosts


def coverage(power: float) -> Variant:
    """Each boost times (the share of the fact's named subjects that the request asks or
    implies)^power, rescaled over the facts it lifts."""

    def boosts(p: Prepared) -> tuple[Any, ...]:
        covered = np.sum([own for _, _, _, own in p.subjects], axis=0) if p.subjects else 0
        share = np.where(p.named > 0, covered / np.maximum(p.named, 1.0), 1.0)
        factor = np.clip(share, 0.0, 1.0) ** power
        out = []
        for w, having, _, _ in p.subjects:
            lifted = having > 0
            b = having * np.where(having >= 1.0, factor, 1.0)
            if lifted.any():
                b = b * having[lifted].mean() / max(b[lifted].mean(), 1e-12)
            out.append(w * b)
        return tuple(out)

    return boosts


def implied_only(share: float) -> Variant:
    """A fact lifted only through implied subjects gets `share` / IMPLIED_SHARE of them."""

    def boosts(p: Prepared) -> tuple[Any, ...]:
        named = np.zeros(len(p.cosine))
        for _, having, is_implied, _ in p.subjects:
            if not is_implied:
                named += having
        only = named <= 0
        return tuple(
            w * having * (np.where(only, share / ranking.IMPLIED_SHARE, 1.0) if imp else 1.0)
            for w, having, imp, _ in p.subjects
        )

    return boosts


def diminishing(rest: float) -> Variant:
    """A fact lifted by several subjects: the largest boost whole, the others at `rest`."""

    def boosts(p: Prepared) -> tuple[Any, ...]:
        if len(p.subjects) < 2:
            return engine(p)
        stack = np.stack(engine(p))
        top = stack.max(axis=0)
        return (top + rest * (stack.sum(axis=0) - top),)

    return boosts


def stretch(gamma: float) -> Variant:
    """Inside the crowd (facts lifted by any subject), the cosine's distance from the
    crowd's mean cosine counts `gamma` times: the embedding decides more among lifted
    facts. Returned as an extra term added to the boosts."""

    def boosts(p: Prepared) -> tuple[Any, ...]:
        base = engine(p)
        if not base:
            return base
        total = np.sum(base, axis=0)
        lifted = total > 1e-12
        if lifted.sum() < 2:
            return base
        cos = p.cosine
        extra = np.where(lifted, (gamma - 1.0) * (cos - cos[lifted].mean()), 0.0)
        return (*base, extra)

    return boosts


def flatten(lam: float) -> Variant:
    """Facts the request's rarest named subject lifts as its own (the crowd) get the
    crowd's mean total boost, mixed in at `lam`: equally lifted, the cosine orders them."""

    def boosts(p: Prepared) -> tuple[Any, ...]:
        base = engine(p)
        if not base:
            return base
        total = np.sum(base, axis=0)
        lifted = total > 1e-12
        if lifted.sum() < 2:
            return base
        mean = total[lifted].mean()
        return (np.where(lifted, (1 - lam) * total + lam * mean, total),)

    return boosts


def variants() -> dict[str, Variant]:
    out: dict[str, Variant] = {"engine": engine}
    for power in (0.25, 0.5, 1.0):
        out[f"spec-{power}"] = specificity(power)
    for power in (0.1, 0.25, 0.5):
        for rescale in (True, False):
            for own_only in (True, False):
                out[f"extra-{power}-{'r' if rescale else 'n'}-{'own' if own_only else 'all'}"] = (
                    extra(power, rescale, own_only)
                )
    for power in (0.05, 0.075, 0.1, 0.125, 0.15, 0.2):
        out[f"spec-{power}"] = specificity(power)
        out[f"spec-{power}-n"] = specificity(power, rescale=False)
        out[f"spec-{power}-w"] = specificity(power, weighted=True)
    for power in (0.5, 1.0):
        out[f"cover-{power}"] = coverage(power)
    for share in (0.25, 0.5, 0.6):
        out[f"implied-only-{share}"] = implied_only(share)
    for rest in (0.0, 0.5):
        out[f"dimin-{rest}"] = diminishing(rest)
    for gamma in (1.5, 2.0, 3.0):
        out[f"stretch-{gamma}"] = stretch(gamma)
    for lam in (0.5, 1.0):
        out[f"flatten-{lam}"] = flatten(lam)
    return out


def main(argv: list[str]) -> int:
    cases: list[Case] = pickle.loads(Path(argv[0]).read_bytes())
    vocabulary = load_subjects()
    prepared = [None if c["target"] is None else Prepared(c, vocabulary) for c in cases]

    def hits(variant: Variant | None) -> dict[str, list[int]]:
        def scores(c: Case, p: Prepared) -> Any:
            terms = p.terms if variant is None else (p.terms[0], variant(p))
            return ranking._combine(np.asarray(p.cosine, dtype=np.float32), terms)

        return tally(zip(cases, prepared, strict=True), scores)

    base = hits(None)
    for cell in sorted(base):
        print(f"{cell:16s} {base[cell]}")
    chosen = variants()
    for name in [n for n in chosen if not argv[1:] or n in argv[1:]]:
        report(name, base, hits(chosen[name]), 18)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
