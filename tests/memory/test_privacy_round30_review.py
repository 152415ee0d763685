"""Review of round 30 (h-privacy30): what its evidence readings stored or refused wrongly,
checked on what the traveller sees (bench/README.md, "Round 30 review").

A number after something sold by the ticket or the session (a concert, a show, a surf
session, a set menu, a service charge) or after a way that may be tolled (a road, a route)
is as likely a price as a length: it is refused unless the sentence gives a time or a place
the way runs. Money evidence said somewhere in a sentence (a shared bill, "pricey", "AA")
no longer claims a flight, a room, a row, a gate or a year. A card, phone or account number
told in two parts is stored in neither part."""

from __future__ import annotations

import pytest

from memory.privacy.guard import PrivacyGuard


@pytest.mark.parametrize(
    ("facts", "category"),
    [
        (["card number: starts 4929", "the last four are 1234"], "card"),
        (["my phone number starts 07700", "then 900123"], "phone"),
        (["bank account number starts 6214", "the last four are 7788"], "account"),
        (["my passport starts E1234", "the last four are 5678"], "id"),
    ],
)
def test_a_number_named_in_one_part_refuses_both_parts(facts: list[str], category: str) -> None:
    assert PrivacyGuard(semantic=False).check(facts) == [category, category]


@pytest.mark.parametrize(
    "facts",
    [
        ["passport number is with mum, we start with flight 302", "then train 9541 to Milan"],
        ["护照号码在妈妈那里，我们开头坐G102", "然后后面坐D3125去杭州"],
    ],
)
def test_a_document_named_elsewhere_in_a_fact_leaves_the_trains_stored(facts: list[str]) -> None:
    assert PrivacyGuard(semantic=False).check(facts) == [None, None]
