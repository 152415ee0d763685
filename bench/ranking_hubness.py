"""Hubness and namespace-geometry variants of the ranking formula, replayed on a dev capture
(issue 22, "Ranking: hubness, centring and other geometry", bench/README.md).

    .venv/bin/python bench/ranking_replay.py capture --out /tmp/replay-dev.pkl
    .venv/bin/python bench/ranking_hubness.py /tmp/replay-dev.pkl             # every variant
    .venv/bin/python bench/ranking_hubness.py /tmp/replay-dev.pkl bank-0.4-1  # some of them

Each variant replaces the cosine the formula starts from (`memory.ranking._combine`: the
language lift, the clear-match guard and the subject boosts are then added as the engine
adds them) by another reading of the same stored vectors: the request's and the facts'
vectors are in the capture. Printed per set and language pair: requests gained or lost at
R@1 / R@3 / R@5 against the engine's own formula, and the same-language total. Dev only:
a held-out set is measured by `bench/recall.py`, never replayed here.
"""

from __future__ import annotations

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
from memory.embedding import shared_local_embedder
from memory.features import FactFeatures
from memory.subjects import load_subjects

# Generic travel requests, no preference in them: the "bank" a hub is measured against.
BANK_EN = (
    "Book me a flight",
    "I need a hotel for next week",
    "Plan my business trip",
    "Find me a train",
    "Where should I stay",
    "Book dinner for the team",
    "Get me a ticket to the city",
    "Arrange my trip next month",
    "What should I book for the conference",
    "Help me plan my travel",
    "Sort out my travel for Tuesday",
    "I'm going abroad next week",
)
BANK_ZH = (
    "帮我订机票",
    "下周需要订酒店",
    "帮我安排出差",
    "帮我买火车票",
    "我该住哪里",
    "帮团队订晚饭",
    "帮我订去那个城市的票",
    "下个月的行程帮我安排一下",
    "开会要订些什么",
    "帮我规划一下行程",
    "周二的出行帮我搞定",
    "下周要出国",
)

Case = dict[str, Any]
Variant = Callable[[Case, Any, Any, Any, Any], Any]  # (case, facts M, request q, zh, terms)


def _by_language(zh: Any) -> list[Any]:
    return [m for m in (zh, ~zh) if m.any()]


def centred(beta: float, rescale: bool) -> Variant:
    """Cosine after subtracting `beta` times the mean vector of the facts in the fact's
    language from fact and request; `rescale`: back to that group's raw mean and spread."""

    def score(c: Case, m: Any, q: Any, zh: Any, terms: Any) -> Any:
        raw = m @ q
        out = raw.copy()
        for mask in _by_language(zh):
            mean = m[mask].mean(0)
            fc, qc = m[mask] - beta * mean, q - beta * mean
            s = (fc @ qc) / (np.linalg.norm(fc, axis=1) * np.linalg.norm(qc) + 1e-12)
            if rescale and mask.sum() > 1:
                r = raw[mask]
                s = (s - s.mean()) / (s.std() + 1e-12) * r.std() + r.mean()
            out[mask] = s
        return out

    return score


def _centred_penalty(r: Any, zh: Any) -> Any:
    for mask in _by_language(zh):
        r[mask] -= r[mask].mean()
    return r


def hub(alpha: float) -> Variant:
    """Cosine minus `alpha` times the fact's mean similarity to the other facts of its
    language (centred per language, so neither language is penalised as a whole)."""

    def score(c: Case, m: Any, q: Any, zh: Any, terms: Any) -> Any:
        sims = m @ m.T
        np.fill_diagonal(sims, np.nan)
        r = np.zeros(len(m))
        for mask in _by_language(zh):
            if mask.sum() > 1:
                r[mask] = np.nanmean(sims[np.ix_(mask, mask)], axis=1)
        return m @ q - alpha * _centred_penalty(r, zh)

    return score


def bank(alpha: float, k: int, bank_en: Any, bank_zh: Any) -> Variant:
    """CSLS against the generic requests: cosine minus `alpha` times the mean of the fact's
    `k` highest similarities to the bank of its language (centred per language)."""

    def score(c: Case, m: Any, q: Any, zh: Any, terms: Any) -> Any:
        sims = np.where(zh[:, None], m @ bank_zh.T, m @ bank_en.T)
        r = np.sort(sims, 1)[:, -k:].mean(1)
        return m @ q - alpha * _centred_penalty(r, zh)

    return score


def bank_z(alpha: float, bank_en: Any, bank_zh: Any) -> Variant:
    """Query-bank normalisation: the cosine as a z-score against the fact's similarities to
    the bank, mixed in at `alpha` (in cosine units)."""

    def score(c: Case, m: Any, q: Any, zh: Any, terms: Any) -> Any:
        sims = np.where(zh[:, None], m @ bank_zh.T, m @ bank_en.T)
        mu, sd = sims.mean(1), sims.std(1) + 1e-6
        raw = m @ q
        return raw + alpha * ((raw - mu) / sd * sd.mean() + mu.mean() - raw)

    return score


def crowd(lam: float, beta: float) -> Variant:
    """Within the facts a subject boost lifts (the crowd), the cosine after subtracting
    `beta` times the crowd's mean vector, rescaled to the crowd's raw mean and spread and
    mixed in at `lam`: the crowd reordered by what its facts do not share."""

    def score(c: Case, m: Any, q: Any, zh: Any, terms: Any) -> Any:
        raw = m @ q
        if not terms[1]:
            return raw
        lifted = np.sum(terms[1], axis=0) > 1e-12
        if lifted.sum() < 3:
            return raw
        mean = m[lifted].mean(0)
        fc, qc = m[lifted] - beta * mean, q - beta * mean
        s = (fc @ qc) / (np.linalg.norm(fc, axis=1) * np.linalg.norm(qc) + 1e-12)
        r = raw[lifted]
        s = (s - s.mean()) / (s.std() + 1e-12) * r.std() + r.mean()
        out = raw.copy()
        out[lifted] = (1 - lam) * r + lam * s
        return out

    return score


def spread(s0: float, power: float) -> Variant:
    """The request's cosines stretched to a spread of `s0` (to the `power`): how much the
    subject boost counts against the embedding, per request."""

    def score(c: Case, m: Any, q: Any, zh: Any, terms: Any) -> Any:
        raw = m @ q
        return raw.mean() + (raw - raw.mean()) * (s0 / (raw.std() + 1e-9)) ** power

    return score


def length(beta: float) -> Variant:
    """Cosine plus `beta` times the fact's log length, standardised per language."""

    def score(c: Case, m: Any, q: Any, zh: Any, terms: Any) -> Any:
        size = np.log(np.array([len(t) for t in c["texts"]], dtype=float))
        z = np.zeros(len(size))
        for mask in _by_language(zh):
            if mask.sum() > 1:
                z[mask] = (size[mask] - size[mask].mean()) / (size[mask].std() + 1e-9)
        return m @ q + beta * z

    return score


def variants() -> dict[str, Variant]:
    embedder = shared_local_embedder()
    en = np.stack([embedder.embed_query(t) for t in BANK_EN]).astype(np.float64)
    zh = np.stack([embedder.embed_query(t) for t in BANK_ZH]).astype(np.float64)
    out: dict[str, Variant] = {}
    for beta in (0.3, 0.5):
        out[f"centre-{beta}"] = centred(beta, rescale=False)
    for beta in (0.5, 0.8):
        out[f"centre-rescaled-{beta}"] = centred(beta, rescale=True)
    for alpha in (0.1, 0.2, 0.3, 0.5):
        out[f"hub-{alpha}"] = hub(alpha)
    for alpha in (0.1, 0.2, 0.3, 0.4, 0.5, 1.0):
        for k in (1, 3, 6, 12):
            out[f"bank-{alpha}-{k}"] = bank(alpha, k, en, zh)
    for alpha in (0.5, 1.0):
        out[f"bank-z-{alpha}"] = bank_z(alpha, en, zh)
    for lam in (0.5, 1.0):
        for beta in (0.5, 1.0):
            out[f"crowd-{lam}-{beta}"] = crowd(lam, beta)
    for s0, power in ((0.02, 1.0), (0.026, 1.0), (0.04, 1.0), (0.03, 0.5), (0.05, 0.5)):
        out[f"spread-{s0}-{power}"] = spread(s0, power)
    for beta in (-0.01, -0.005, 0.005, 0.01):
        out[f"length-{beta}"] = length(beta)
    return out


def main(argv: list[str]) -> int:
    cases: list[Case] = pickle.loads(Path(argv[0]).read_bytes())
    if "matrix" not in cases[0]:
        raise SystemExit("capture again: this capture holds no vectors")
    vocabulary = load_subjects()
    prepared = []
    for c in cases:
        if c["target"] is None:
            prepared.append(None)
            continue
        about = np.array(
            [
                [n in vocabulary.of(t, s) for n in vocabulary.names]
                for t, s in zip(c["texts"], c["slots"], strict=True)
            ],
            dtype=bool,
        ).reshape(len(c["texts"]), len(vocabulary.names))
        asked = tuple(vocabulary.asked(c["request"]))
        facts = FactFeatures.of("replay", vocabulary.names, c["zh"], about, c["near"])
        terms = ranking._terms(c["lang"], asked, facts, c["gap"], vocabulary.implied(asked))
        m, q = c["matrix"].astype(np.float64), c["query"].astype(np.float64)
        prepared.append((m, q, np.asarray(c["zh"], dtype=bool), terms))

    def hits(variant: Variant | None) -> dict[str, list[int]]:
        def scores(c: Case, p: Any) -> Any:
            m, q, zh, terms = p
            cosine = c["cosine"] if variant is None else variant(c, m, q, zh, terms)
            return ranking._combine(np.asarray(cosine, dtype=np.float32), terms)

        return tally(zip(cases, prepared, strict=True), scores)

    engine = hits(None)
    chosen = variants()
    for name in [n for n in chosen if not argv[1:] or n in argv[1:]]:
        report(name, engine, hits(chosen[name]), 22)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
