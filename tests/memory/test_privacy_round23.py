"""Round 23: a number read by its role, what governs it (bench/README.md, round 23).

Phrasal paying verbs in every tense refuse the amount they govern, and a position or a count
after them is still kept. (The round's other try, the amount classifier reading the words that
govern the number, was measured and not shipped: bench/README.md.)"""

from __future__ import annotations

import pytest

from memory.privacy import scan


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
