"""Round 21: amounts the rules refuse where nothing names money are read by a trained
classifier (`memory.privacy.amount_classifier`), with the real bundled model. Outcomes: what
is kept and what stays refused, and what the classifier is never asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.privacy import scan
from memory.privacy.amount_classifier import (
    FEATURES,
    adjudicable,
    load_weights,
    shared_amount_classifier,
)
from memory.privacy.guard import PrivacyGuard

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "memory" / "privacy_corpus"


@pytest.fixture(scope="module")
def guard() -> PrivacyGuard:
    return PrivacyGuard()


def test_a_height_the_rules_read_as_a_price_is_kept(guard: PrivacyGuard) -> None:
    # A cap word before a height: the rules name money, nothing else in the fact does.
    fact = "the road over the col shuts above 1,800 after October"
    assert PrivacyGuard(classify_amounts=False).check([fact]) == ["amount"]
    assert guard.check([fact]) == [None]


@pytest.mark.parametrize(
    "text",
    [
        "airport taxi 85",
        "the boat trip 120 each",
        "the hostel near the station 35",
        "船票120",
        "机场大巴 40",
    ],
)
def test_an_amount_nothing_names_stays_refused(guard: PrivacyGuard, text: str) -> None:
    assert adjudicable(text, scan(text))  # the classifier is asked, and refuses
    assert guard.check([text]) == ["amount"]


def test_named_money_and_identifiers_are_never_asked() -> None:
    for text in ("paid 45 for the taxi", "hotel 450 yuan a night", "预算三千", "打车花了八十"):
        assert scan(text) == "amount"
        assert not adjudicable(text, "amount")
    assert not adjudicable("my card is 4111 1111 1111 1111", "card")
    assert not adjudicable("window seat in row 12", None)


def test_a_split_amount_is_still_refused_across_facts(guard: PrivacyGuard) -> None:
    assert guard.check(["the airport transfer came to", "74"])[1] == "amount"


def test_a_speed_limit_is_no_cap_on_money() -> None:
    # "岛上限速" holds 上限 (a cap) across two words; a cap on a budget still names money.
    assert scan("岛上限速40") is None
    assert scan("预算上限500") == "amount"


def test_the_weights_match_the_features_and_hold_no_measured_set() -> None:
    doc = load_weights()
    assert doc["features"] == list(FEATURES)
    assert len(doc["weights"]) == 384 + len(FEATURES)
    measured = {"held_out", "untuned_r6", "untuned_r7", "r8_held_out", "t12_fresh"}
    measured |= {"r21_fresh", "r22_fresh", "r23_fresh", "r24_fresh", "r25_fresh", "r26_fresh"}
    measured |= {"r27_fresh"}
    assert not measured & set(doc["sets"])
    assert all((CORPUS / f"{name}.json").exists() for name in doc["sets"])
    assert 0.5 < doc["threshold"] < 1.0  # kept only when clearly no amount
    assert shared_amount_classifier().keeps([]) == []
