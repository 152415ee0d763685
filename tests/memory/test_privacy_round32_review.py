"""Review of round 32 (bench/README.md, "Round 32 review"): the everyday readings of
`memory/privacy/spoken.py` must not keep a price said in their shape.

Found by probes written for the review (`tests/memory/privacy_corpus/r32_review.json`): a note
taken "out" of the safe read as a bus going out, a walk-in massage as a walk, a charge for the
congestion zone as a road, a bed's price rise as height gained, money gained on an exchange, an
express pass as an express bus, a cab or a massage "the last time" as an age, fines "in traffic"
and a lounge bar "in transit" as time spent waiting, a bar tab run as a run, money saved between
flights as time between them, and a Chinese walk "to" a place followed by a thing bought there.
Each is refused again through `Memory.record`; the readings' own examples stay kept."""

from __future__ import annotations

import pytest

from memory.engine import Memory
from tests.memory.privacy_verdicts import assert_kept, assert_refused

REFUSED = [
    # a banknote taken out of the safe or out for the guide is no line going "out"
    "take the 200 out of the hotel safe before checkout",
    "I'll take the 40 out for the guide",
    # a walk-in or a drive-in is sold, not walked or driven
    "a 40 walk-in massage by the pier",
    "a 25 drive-in movie on the beach",
    # "the 15 for ..." is what something costs, even near traffic words
    "the 15 for the congestion zone",
    "the 20 for valet at rush hour",
    "the 25 they want for the express lanes",
    # a price that rose, money gained on an exchange
    "the dorm bed rose 12 this year",
    "we gained 30 on the currency swap",
    # an express pass or lunch is sold
    "got the 60 express pass for the rides",
    "the 12 express lunch at the station cafe",
    # a thing, not a person, "was" a number the last time: its price
    "our cab was 35 the last time",
    "our Airbnb was 95 the last time we went",
    "my massage was 40 when I went in May",
    # spent "in traffic fines", "in the transit lounge bar": money
    "I spent 40 in traffic fines last trip",
    "we spent 60 in the transit lounge bar",
    # a tab run at a bar
    "I ran 200 at the hotel bar",
    # money saved between two flights
    "we saved 40 between the flights by booking direct",
    # a banknote taken back after a wrong charge
    "I'll take the 50 back to the front desk, they overcharged",
    # walked to a place, then a thing bought there; the driver paid
    "走到星巴克拿铁三十",
    "从机场过去要三十五，给师傅的",
    "走到海边躺椅三十",
    "走到海边冰淇淋十五",
    "走到夜市小吃十五",
    "走到山顶矿泉水十五",
]

KEPT = [
    # the readings' own examples, and the review's benign probes of the same shapes
    "I take the 42 to the beach every morning",
    "we take the 42 out to the airport",
    "it's a 15 stroll to the old town",
    "a 25 drive to the vineyard",
    "the 405 is a nightmare at rush hour",
    "avoid the 95 at rush hour",
    "the climb gains 1200 over the day",
    "the trail gains 600 before lunch",
    "the road descends 600 to the lake",
    "the 101 express is fastest into town",
    "I was 22 the last time I went to Paris",
    "my dad was 70 when he climbed it",
    "we spent 45 in the queue for the Louvre",
    "we spent 30 in traffic on the way in",
    "I usually run 10 before breakfast",
    "I ran 5 along the beach",
    "I need at least 90 between flights",
    "走到海边十二",
    "走到景区大门十五",
    "骑车到湖边二十",
    "从酒店走到外滩十五",
    "开车到山脚四十五",
    "走到迪士尼四十",  # a name with no place word in it
    "走到三里屯二十",
]


@pytest.mark.parametrize("text", REFUSED)
def test_prices_in_the_shape_of_round_32_readings_are_refused(text: str) -> None:
    assert_refused(text)


@pytest.mark.parametrize("text", KEPT)
def test_round_32_readings_still_keep_their_numbers(text: str) -> None:
    assert_kept(text)


def test_a_walk_to_the_beach_is_stored_and_a_lounger_there_refused(
    memory: Memory, namespace: str
) -> None:
    outcomes = memory.record(namespace, ["走到海边十二", "走到海边躺椅三十"])
    assert [(o.status, o.code) for o in outcomes] == [("added", ""), ("rejected", "amount")]
    assert "三十" not in outcomes[1].text
    assert [item.text for item in memory.items(namespace)] == ["走到海边十二"]
