"""Round 32 (bench/README.md): everyday English numbers that are no money, told by how they are
said (`memory/privacy/spoken.py`), half a card number alone, and what an ID part is said to
mean.

Each reading is checked both ways through `Memory.record`, as the traveller meets it: what is
stored, and what they are told when a fact is refused."""

from __future__ import annotations

import pytest

from memory.engine import Memory
from memory.privacy.categories import REASON_AMOUNT, REASON_CARD
from memory.privacy.guard import PrivacyGuard
from tests.memory.privacy_verdicts import assert_kept, assert_refused

KEPT = [
    # a wait said with its verb, a time allowed between or for a step of a journey
    "we waited another 10 for the driver",
    "we sat 45 on the tarmac",
    "I need at least 90 between flights",
    "allow 30 for the border check",
    # a line one rides, a walk one makes, a score, a handicap, a small count under a cap
    "I take the 42 to the beach every morning",
    "it's a 15 stroll to the old town",
    "we won 3 to 1 on the final day",
    "my golf handicap is 14",
    "keep transfers under 2 per trip",
    # a stop "at each" place: "each" prices nothing here
    "the tour bus stops 20 at each viewpoint",
    # a distance one covers oneself, a line by its kind, a mark out of ten, a queue, an age
    "I usually run 10 before breakfast",
    "the 101 express is fastest into town",
    "we got 9 out of 10 on the escape room",
    "we spent 45 in the queue for the Louvre",
    "I was 22 the last time I went to Paris",
    # a road said with its traffic, height gained by its verb
    "the 405 is a nightmare at rush hour",
    "the climb gains 1200 over the day",
    # Chinese journeys by their own word, or gone oneself from or to a place
    "车程三十五",
    "从机场过去三十五",
    "走到海边十二",
]

REFUSED = [
    # the same shapes with money said in the sentence stay prices
    "we waited, then paid 10 for the driver",
    "allow 30 for the taxi",
    "a 20 taxi ride to the station",
    "we tipped 20 at each stop",
    "rooms under 200 per night",
    "打车从机场过去三十五",
    "坐缆车上山八十",
    "走到海边的那家店十二一碗",
    # "for two" after a session held in the evening is a price for two people
    "the cooking class is 80 in the evening for two",
    # a ride hired, fuel paid, a ticket, a shop: money beside the new readings
    "we rode 30 in a tuk-tuk to the temple",
    "we drove 300 and paid 80 for fuel",
    "the 45 express ticket to the airport",
    "we spent 60 in the duty free",
    "the toll on the 407 is 12 at rush hour",
    "the fare rose 20 this year",
    # a step of a journey paid for, with no verb of allowing time
    "I'll cover 120 for the transfer",
]


@pytest.mark.parametrize("text", KEPT)
def test_everyday_numbers_that_are_no_money_are_kept(text: str) -> None:
    assert_kept(text)


@pytest.mark.parametrize("text", REFUSED)
def test_the_same_shapes_with_money_in_the_sentence_are_refused(text: str) -> None:
    assert_refused(text)


def test_a_wait_and_a_journey_are_stored_and_a_tip_is_refused(
    memory: Memory, namespace: str
) -> None:
    outcomes = memory.record(
        namespace,
        ["we waited another 10 for the driver", "从机场过去三十五", "I tipped the guide 20"],
    )
    assert [(o.status, o.code) for o in outcomes] == [
        ("added", ""),
        ("added", ""),
        ("rejected", "amount"),
    ]
    assert outcomes[2].reason == REASON_AMOUNT
    assert "20" not in outcomes[2].text
    stored = sorted(item.text for item in memory.items(namespace))
    assert stored == sorted(["we waited another 10 for the driver", "从机场过去三十五"])


def test_half_a_card_number_alone_is_never_stored(memory: Memory, namespace: str) -> None:
    outcomes = memory.record(namespace, ["card number starts 4929", "window seat please"])
    assert [(o.status, o.code) for o in outcomes] == [("rejected", "card"), ("added", "")]
    assert outcomes[0].reason == REASON_CARD
    assert "4929" not in outcomes[0].text
    assert [item.text for item in memory.items(namespace)] == ["window seat please"]


@pytest.mark.parametrize(
    "fact",
    [
        "身份证开头的110是北京",  # what the start of every Beijing ID means, no one's number
        "my license starts 2025 and ends 2035",  # when a licence is valid
    ],
)
def test_what_a_document_part_means_or_when_it_runs_is_kept(fact: str) -> None:
    assert PrivacyGuard(semantic=False).check([fact]) == [None]


@pytest.mark.parametrize(
    ("fact", "category"),
    [
        ("passport number starts 2031", "id"),  # the number, not the document, starts
        ("身份证开头是110101", "id"),
        ("信用卡号开头是4929", "card"),
        ("my visa card number ends with 2031", "card"),
    ],
)
def test_a_numbers_named_half_is_still_refused(fact: str, category: str) -> None:
    assert PrivacyGuard(semantic=False).check([fact]) == [category]


def test_a_bosss_habit_is_no_instruction() -> None:
    assert PrivacyGuard().check(["我老板不再用滴滴了"]) == [None]
    assert PrivacyGuard().check(["老板说我可以坐头等舱"]) == ["instructions"]
