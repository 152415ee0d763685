"""Round 18: a change of mind among a traveller's other facts, and giving up said with a verb.

Among many facts, the fact a change replaces had to be the closest in aspect to the newer
one, within a margin, of every fact in its language and scope; e5 put facts that share no
word nor subject with the newer one ("Light sleeper, high floor") closer, and the change
was lost. Now only facts about something the newer one names block it. And "I've stopped
using Uber", "I've cut out booze", "went vegetarian" give up what they name when no stance
word says so. What the agent receives after each, through the real `Memory` on SQLite and
PostgreSQL, with the Redis cache."""

from __future__ import annotations

import pytest

from memory.engine import Memory
from tests.memory.change_outcomes import (
    assert_kept_both_unmarked,
    assert_replaced,
    history,
    said_after,
)

TRAVELLER = [
    "Light sleeper. high floor, away from the lift please",
    "Always a cab to the terminal, I won't lug bags onto the MRT",
    "Gym is non-negotiable, I lift at 6 daily",
    "Max one connection, I don't do two stops",
    "Carry-on only. never check luggage",
]


def test_a_change_among_other_facts_replaces_the_older_and_nothing_else(
    memory: Memory, namespace: str
) -> None:
    memory.record(namespace, TRAVELLER)
    old, new = (
        "I usually fly out of Luton",
        "Heathrow is my airport now, it's closer to the new office",
    )
    outcome = said_after(memory, namespace, old, new)
    assert_replaced(memory, namespace, old, outcome)
    summary = memory.retrieve(namespace, "")
    assert new in summary and "newer" not in summary
    kept = history(memory, namespace)
    assert all(kept[fact]["current"] and not kept[fact]["contested_by"] for fact in TRAVELLER)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            "I always Uber from the airport", "I've stopped using Uber", id="stopped-using"
        ),
        pytest.param("I love craft beer", "I've cut out booze", id="cut-out"),
        pytest.param("I love craft beer", "I'm off the booze", id="off-the"),
        pytest.param("I love craft beer", "Since my heart scare I've cut out booze", id="since-my"),
        pytest.param(
            "I eat steak whenever I can", "Went vegetarian this year", id="went-vegetarian"
        ),
        pytest.param(
            "I book flights on Kayak", "Moved all my bookings over to Skyscanner", id="moved-over"
        ),
        pytest.param("I collect Avios", "I've switched my miles to Flying Blue", id="switched-my"),
    ],
)
def test_giving_up_said_with_a_verb_replaces_what_it_gives_up(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_replaced(memory, namespace, old, outcome)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            "I always Uber from the airport",
            "I stopped over in Dubai on the way home",
            id="stopover",
        ),
        pytest.param("I take the bus in cities", "I've stopped using Uber", id="another-way"),
        pytest.param("I like evening flights", "My boss moved our meeting to Friday", id="meeting"),
    ],
)
def test_a_stop_that_gives_nothing_up_keeps_both_unmarked(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_kept_both_unmarked(memory, namespace, old, new, outcome)


def test_giving_up_a_worry_still_replaces_it(memory: Memory, namespace: str) -> None:
    old, new = "Delays stress me out", "I've stopped worrying about delays"
    outcome = said_after(memory, namespace, old, new)
    assert_replaced(memory, namespace, old, outcome)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("I drink coffee every morning", "I haven't cut out coffee", id="negated"),
        pytest.param(
            "I drink coffee every morning",
            "I never cut out coffee, whatever the doctor says",
            id="never",
        ),
        pytest.param("I love craft beer", "Thinking about going sober for January", id="a-thought"),
        pytest.param("I eat steak whenever I can", "My daughter went vegetarian", id="daughter"),
        pytest.param("I love craft beer", "My wife went sober last year", id="wife"),
        pytest.param(
            "I drink coffee every morning", "I cut out sugar but coffee stays", id="kept-one"
        ),
    ],
)
def test_a_give_up_not_the_speakers_own_keeps_the_older_unmarked(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    """Round 18 review: a give-up verb negated, said of someone else, thought about or of
    something other than what is kept, replaced or marked a still-true preference."""
    memory.record(namespace, TRAVELLER)
    outcome = said_after(memory, namespace, old, new)
    assert outcome.status == "added", outcome
    summary = memory.retrieve(namespace, "")
    assert old in summary and "newer" not in summary
    kept = history(memory, namespace)
    assert all(row["current"] and not row["contested_by"] for row in kept.values())


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            "I always Uber from the airport", "My husband has stopped using Uber", id="husband"
        ),
        pytest.param("I love craft beer", "Should I quit drinking?", id="asked"),
        pytest.param(
            "I like the hotel gym",
            "I stopped using the gym on that trip because it was closed",
            id="that-trip",
        ),
        pytest.param(
            "I like the lounge before long flights",
            "I stopped using the lounge that day because it was full",
            id="that-day",
        ),
        pytest.param("喜欢喝精酿啤酒", "我哥不喝酒了", id="zh-brother"),
        pytest.param("去机场一般坐滴滴", "我老公现在不再用滴滴了", id="zh-husband"),
    ],
)
def test_stopping_said_of_someone_else_or_one_occasion_keeps_the_older(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    """Round 18 review: 'stopped', 'quit', 不…了 said of another person, asked, or of one
    occasion replaced or marked the traveller's own preference."""
    outcome = said_after(memory, namespace, old, new)
    assert_kept_both_unmarked(memory, namespace, old, new, outcome)
