"""Round 23: a number read by its role, what governs it (bench/README.md, round 23).

Phrasal paying verbs in every tense refuse the amount they govern, and a position or a count
after them is still kept. The amount classifier reads the words right around the number (the
noun it measures or counts, the verb that governs it, the unit or counter after it), with the
real bundled model: outcomes both ways."""

from __future__ import annotations

import pytest

from memory.privacy import scan
from memory.privacy.amount_classifier import role_tokens
from memory.privacy.guard import PrivacyGuard


@pytest.fixture(scope="module")
def guard() -> PrivacyGuard:
    return PrivacyGuard()


@pytest.mark.parametrize(
    "text",
    [
        "I fork out around 600 a month on hotel upgrades",
        "she forks out 90 a night for the quiet room",
        "we shelled out 340 for the tour",
        "coughed up 80 for the cab",
        "splashing out 450 on the spa day",
    ],
)
def test_a_phrasal_paying_verb_refuses_its_amount(text: str) -> None:
    assert scan(text) == "amount"


@pytest.mark.parametrize(
    "text",
    [
        "I fork out for a window seat on row 12",
        "I'd splash out on 2 nights by the lake",
        "happy to fork out for lounge access, 3 hours is my usual layover",
    ],
)
def test_a_paying_verb_leaves_a_position_or_a_count_alone(text: str) -> None:
    assert scan(text) is None


def test_the_role_is_read_within_the_clause_on_both_sides() -> None:
    tokens = role_tokens("the hut sits at 2,950 up, breakfast at 7")
    assert "b0:at" in tokens and "b1:sits" in tokens and "a0:up" in tokens
    assert "a:breakfast" not in tokens  # the next clause governs another number
    tokens = role_tokens("住1608那间")
    assert "b0:住" in tokens and "aa:那间" in tokens
