"""Round 18: facts the rules refuse only because a number is unexplained are read by meaning
(`memory.privacy.amount_similarity`), with the real bundled model. Outcomes: what is kept and
what is refused, alone and within a call."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from memory.privacy import scan
from memory.privacy.amount_similarity import (
    guessed_only,
    load_amount_exemplars,
    shared_amount_similarity,
)
from memory.privacy.guard import PrivacyGuard

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def guard() -> PrivacyGuard:
    return PrivacyGuard()


# Blind sets measured once whose misses include one the learned reading keeps (never tuned on).
BLIND_WITH_A_LEARNED_MISS = ("r32_fresh",)
# Blind sets written before their round's guard code was seen and run once by bench/privacy.py
# only: never asserted on here, so their outcome is not read (nor tuned on) through a test.
BLIND = ("r33_fresh",)


def test_only_facts_refused_by_the_guess_alone_are_asked() -> None:
    assert guessed_only("lounge pass: 45")  # nothing says what 45 is
    assert guessed_only("湖水才16，太凉了")
    assert not guessed_only("paid 45 for the taxi")  # a paying verb names money
    assert not guessed_only("商务座一千七太贵了")  # "too expensive" names money
    assert not guessed_only("window seat in row 12")  # kept by the rules
    assert scan("lounge pass: 45") == "amount"  # the rules themselves still guess


def test_a_guessed_number_that_reads_as_no_money_is_kept(guard: PrivacyGuard) -> None:
    assert guard.check(["湖水才16，太凉了"]) == [None]


@pytest.mark.parametrize(
    "text",
    [
        "lounge pass: 45",
        "the night market dumplings 25",
        "夜市的烤串二十五",
        "a kayak for the afternoon 40",  # unsure: refused
    ],
)
def test_a_guessed_amount_stays_refused(guard: PrivacyGuard, text: str) -> None:
    assert guard.check([text]) == ["amount"]


def test_amounts_a_rule_names_are_never_asked(guard: PrivacyGuard) -> None:
    assert guard.check(["paid 45 for the taxi", "商务座一千七太贵了"]) == ["amount", "amount"]


def test_the_guard_without_the_layer_refuses_as_the_rules_do() -> None:
    assert PrivacyGuard(read_amounts=False).check(["湖水才16，太凉了"]) == ["amount"]
    assert PrivacyGuard(semantic=False).check(["湖水才16，太凉了"]) == ["amount"]


def test_a_split_amount_is_still_refused_across_facts(guard: PrivacyGuard) -> None:
    facts = ["the weekly ferry pass came to", "17"]
    assert guard.check(facts)[1] == "amount"  # the value is refused, as without the layer
    assert guard.check(facts) == PrivacyGuard(read_amounts=False).check(facts)


def test_the_exemplars_match_their_vectors_and_hold_no_measured_set() -> None:
    doc = load_amount_exemplars()
    vectors = np.load(str(ROOT / "memory" / "privacy" / "amount_exemplars.npy"))
    assert vectors.shape == (len(doc["amounts"]) + len(doc["benign"]), 384)
    assert vectors.dtype == np.int8
    assert not [name for name in doc["sets"] if "fresh" in name or "held" in name]
    corpus = ROOT / "tests" / "memory" / "privacy_corpus"
    measured = {
        case["text"]
        for path in corpus.glob("*.json")
        if path.stem not in doc["sets"]
        for kind in ("sensitive", "benign")
        for case in json.loads(path.read_text(encoding="utf-8"))[kind]
    }
    assert not measured & {*doc["amounts"], *doc["benign"]}
    assert shared_amount_similarity().keeps([]) == []


def test_no_amount_of_any_set_is_kept_by_the_learned_reading(guard: PrivacyGuard) -> None:
    # Round 19: a threshold set on the development sets alone (0.006) let five amounts of
    # measured sets through; every amount the guess refuses, in every set, stays refused.
    # Round 32: its blind set holds one amount the learned reading keeps, on main's code too;
    # a blind set is never tuned on, so it is counted by bench/privacy.py, not fixed here.
    corpus = ROOT / "tests" / "memory" / "privacy_corpus"
    guessed = [
        case["text"]
        for path in sorted(corpus.glob("*.json"))
        if path.stem not in BLIND_WITH_A_LEARNED_MISS + BLIND
        for case in json.loads(path.read_text(encoding="utf-8"))["sensitive"]
        if case["category"] == "amount" and guessed_only(case["text"])
    ]
    assert len(guessed) > 100
    assert guard.check(guessed) == ["amount"] * len(guessed)


def test_bare_numbers_that_are_no_money_are_kept(guard: PrivacyGuard) -> None:
    # r19_dev, in the exemplars since round 19: heights, delays, ages said bare.
    facts = ["the volcano rim is at 3,700, altitude hit me hard", "湖中间有三百深，特别蓝"]
    assert [guessed_only(fact) for fact in facts] == [True, True]
    assert guard.check(facts) == [None, None]
    # Round 25's rules read these two themselves (a drop, an age reached): kept all the same.
    assert guard.check(["the trail drops 1,100 to the valley floor", "我爸74了，最怕爬楼梯"]) == [
        None,
        None,
    ]
