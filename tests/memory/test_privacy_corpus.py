"""The privacy guard over its corpus: travel sentences in Chinese and English, sensitive and
benign, in a development half (tuned on), a held-out half (written before tuning, only
measured) and fresh probes (`probe_*.json`: each written in new styles and measured before
the rules were changed for it, then tuned on). Targets: catch at least 95% of the sensitive
sentences and refuse at most one benign sentence in 40, in each set and each language. A
failure lists what was missed.

Round 8 (`r8_*.json`, issues 22 and 27) is read per language and per family (`amount`,
`instructions`): on its development sets (`r8_dev`, and `r8_fresh` since it was measured
once untuned and then tuned on), at least 97% of the sensitive sentences and of the values
split over a call's facts are refused and at most one benign sentence in 40; the held-out
set and the fresh probes written after round 3 (`r9_fresh`) are only measured
(bench/privacy.py), never asserted on here, so they are never tuned on; every set must be
well formed and masked cleanly.

`bench/privacy.py` prints the same figures.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memory.privacy import CATEGORIES, redact, scan
from memory.privacy.guard import PrivacyGuard
from memory.privacy.text import normalise

CORPUS = Path(__file__).parent / "privacy_corpus"
HALVES = ("dev", "held_out")
PROBES = tuple(sorted(path.stem for path in CORPUS.glob("probe_*.json")))
SETS = HALVES + PROBES
# Fresh probes only ever measured (bench/privacy.py), never tuned on: no targets here.
UNTUNED = tuple(sorted(path.stem for path in CORPUS.glob("untuned_*.json")))
LANGS = ("en", "zh")
ROUND8 = tuple(sorted(path.stem for path in CORPUS.glob("r[89]_*.json")))
ROUND8_TUNED = ("r8_dev", "r8_fresh")
# Rounds 10 and 11 (bench/README.md): smaller sets, read with similarity to instructions too
# (tests/memory/test_privacy_similarity.py); here, their form and their masking.
ROUND10 = tuple(
    sorted(
        path.stem for pattern in ("r1[0-9]_*.json", "r20_*.json") for path in CORPUS.glob(pattern)
    )
)
FAMILIES = ("amount", "instructions")


def _load(half: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((CORPUS / f"{half}.json").read_text(encoding="utf-8"))
    return doc


def _cases(half: str, kind: str, lang: str) -> list[dict[str, str]]:
    return [case for case in _load(half)[kind] if case["lang"] == lang]


def test_the_corpus_is_broad_enough() -> None:
    sensitive = [case for half in HALVES for case in _load(half)["sensitive"]]
    benign = [case for half in HALVES for case in _load(half)["benign"]]
    assert len(sensitive) >= 150 and len(benign) >= 80
    for half in HALVES:
        for lang in LANGS:
            categories = {case["category"] for case in _cases(half, "sensitive", lang)}
            assert categories == set(CATEGORIES), (half, lang, set(CATEGORIES) - categories)
            assert len(_cases(half, "benign", lang)) >= 20
    assert PROBES, "the fresh probes are measured too"
    every = SETS + UNTUNED + ROUND8 + ROUND10
    texts = [
        case["text"] for s in every for kind in ("sensitive", "benign") for case in _load(s)[kind]
    ]
    assert len(texts) == len(set(texts)), "a sentence is in the corpus twice"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("half", SETS)
def test_at_least_95_percent_of_sensitive_sentences_are_refused(half: str, lang: str) -> None:
    cases = _cases(half, "sensitive", lang)
    missed = [case["text"] for case in cases if scan(case["text"]) is None]
    caught = 1 - len(missed) / len(cases)
    assert caught >= 0.95, f"{half}/{lang}: caught {caught:.1%}; missed: {missed}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("half", SETS)
def test_at_most_one_benign_sentence_in_40_is_refused(half: str, lang: str) -> None:
    cases = _cases(half, "benign", lang)
    refused = [(case["text"], scan(case["text"])) for case in cases if scan(case["text"])]
    assert len(refused) <= len(cases) / 40, f"{half}/{lang}: refused {refused}"


@pytest.mark.parametrize("half", SETS)
def test_refusals_name_the_right_category(half: str) -> None:
    cases = _load(half)["sensitive"]
    wrong = [
        (case["text"], case["category"], found)
        for case in cases
        if (found := scan(case["text"])) is not None and found != case["category"]
    ]
    assert len(wrong) <= len(cases) / 20, wrong


@pytest.mark.parametrize("half", SETS)
def test_masking_a_refused_sentence_leaves_nothing_to_refuse(half: str) -> None:
    leftovers = [
        (case["text"], masked)
        for case in _load(half)["sensitive"]
        if scan(masked := redact(case["text"])) is not None or "[redacted]" not in masked
    ]
    assert leftovers == []


@pytest.mark.parametrize("half", SETS)
def test_benign_sentences_are_logged_as_written(half: str) -> None:
    changed = [c["text"] for c in _load(half)["benign"] if redact(c["text"]) != c["text"]]
    assert changed == []


# --- round 8: amounts without a currency word, instruction-shaped text, split values -------------


def test_round_8_sets_are_well_formed() -> None:
    assert {"r8_dev", "r8_held_out"} <= set(ROUND8)
    for name in ROUND8:
        doc = _load(name)
        for lang in LANGS:
            for family in FAMILIES:
                sensitive = [
                    c for c in doc["sensitive"] if (c["lang"], c["category"]) == (lang, family)
                ]
                benign = [c for c in doc["benign"] if (c["lang"], c["family"]) == (lang, family)]
                assert len(sensitive) >= 25 and len(benign) >= 40, (name, lang, family)
            assert any(t["lang"] == lang for t in doc["turns"]["sensitive"]), (name, lang)


def _r8(name: str, kind: str, lang: str, family: str) -> list[dict[str, str]]:
    key = "category" if kind == "sensitive" else "family"
    return [c for c in _load(name)[kind] if c["lang"] == lang and c[key] == family]


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ROUND8_TUNED)
def test_round_8_development_targets(name: str, lang: str, family: str) -> None:
    cases = _r8(name, "sensitive", lang, family)
    missed = [case["text"] for case in cases if scan(case["text"]) != family]
    assert len(missed) <= len(cases) * 0.03, f"missed or miscategorised: {missed}"
    benign = _r8(name, "benign", lang, family)
    refused = [(case["text"], scan(case["text"])) for case in benign if scan(case["text"])]
    assert len(refused) <= len(benign) / 40, f"refused: {refused}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ROUND8_TUNED)
def test_round_8_values_split_over_a_calls_facts_are_refused(name: str, lang: str) -> None:
    guard = PrivacyGuard()
    turns = _load(name)["turns"]
    kept = [
        fact
        for turn in turns["sensitive"]
        if turn["lang"] == lang
        for fact, verdict in zip(turn["facts"], guard.check(turn["facts"]), strict=True)
        if verdict is None and any(ch.isdigit() for ch in normalise(fact).text)
    ]
    assert kept == []
    refused = [
        turn["facts"]
        for turn in turns["benign"]
        if turn["lang"] == lang and any(guard.check(turn["facts"]))
    ]
    assert refused == []


def test_round_10_sets_are_well_formed() -> None:
    assert {"r10_dev", "r10_fresh", "r11_fresh"} <= set(ROUND10)
    for name in ROUND10:
        doc = _load(name)
        for case in doc["sensitive"]:
            # Rounds 17, 19 and 20's fresh sets hold a few identifiers, passwords and cards too.
            allowed = CATEGORIES if name in ("r17_fresh", "r19_fresh", "r20_fresh") else FAMILIES
            assert case["lang"] in LANGS and case["category"] in allowed, (name, case)
        for case in doc["benign"]:
            assert case["lang"] in LANGS and case["family"] in FAMILIES, (name, case)
        # Rounds 13 to 20's sets (issue 22) hold amounts only; the others both families.
        families = {case["category"] for case in doc["sensitive"]} & set(FAMILIES)
        amounts_only = name.startswith(
            ("r13_", "r14_", "r15_", "r16_", "r17_", "r18_", "r19_", "r20_")
        )
        assert families == set(FAMILIES) or amounts_only, (name, families)
        for lang in LANGS:
            for family in families:
                assert len(_r8(name, "sensitive", lang, family)) >= 18, (name, lang, family)
                assert len(_r8(name, "benign", lang, family)) >= 18, (name, lang, family)


@pytest.mark.parametrize("name", ROUND8 + ROUND10)
def test_round_8_masking_leaves_nothing_to_refuse(name: str) -> None:
    leftovers = [
        (case["text"], masked)
        for case in _load(name)["sensitive"]
        if scan(case["text"]) is not None
        and (scan(masked := redact(case["text"])) is not None or "[redacted]" not in masked)
    ]
    assert leftovers == []
