"""Options given up as a list, and a fact that listed the one given up among others
(issue 22, round 15 of bench/README.md's changes of mind): "I'm done with Hilton and
Marriott" gives up both, so neither earlier liking reaches the agent as current (both in
history); "I only stay at Hyatt or Hilton" after "I've dropped Hyatt" reaches the agent as
"I only stay at Hilton", its own words without the option given up, not lost and not
kept whole. Through the real `Memory`, as `test_changes.py`."""

from __future__ import annotations

import pytest

from memory.engine import Memory
from memory.profile import load_schema


@pytest.mark.parametrize(
    ("olds", "new"),
    [
        pytest.param(
            ["I stay at Hilton", "I also like Marriott"],
            "I'm done with Hilton and Marriott",
            id="en-and",
        ),
        pytest.param(
            ["I'm loyal to Hilton", "I stay at Marriott"],
            "I'm done with Hilton and Marriott, too many fees",
            id="en-and-a-reason",
        ),
        pytest.param(["我常住汉庭", "我也喜欢住如家"], "以后汉庭和如家都不住了", id="zh-he"),
    ],
)
def test_a_list_given_up_drops_each_option(
    memory: Memory, namespace: str, olds: list[str], new: str
) -> None:
    first = [memory.record(namespace, [old])[0].item_id for old in olds]
    [outcome] = memory.record(namespace, [new])
    assert outcome.status == "updated", outcome
    assert set(outcome.replaced_ids) == set(first)
    told = memory.retrieve(namespace, "")
    assert all(old not in told for old in olds), told
    history = {r["text"]: r["current"] for r in memory.export(namespace)["items"]}
    assert all(history[old] is False for old in olds)


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("I'm done with Hilton and Marriott", "avoided_hotel_brands", ("hilton", "marriott")),
        ("I'm done with Hilton, Marriott and Hyatt", "avoided_hotel_brands", None),
        ("汉庭和如家不住了", "avoided_hotel_brands", ("hanting", "home_inn")),
        # a name after a comma alone is where one moves to, not a second one given up
        ("I'm done with Hilton, Marriott from now on", "preferred_hotel_brands", ("marriott",)),
        ("I'm done with Hilton or Marriott, Hyatt from now on", "preferred_hotel_brands", None),
    ],
)
def test_the_slot_reader_reads_a_list_as_one(
    text: str, slot: str, value: tuple[str, ...] | None
) -> None:
    match = load_schema().detect(text)
    assert match is not None and match.slot == slot
    if value is not None:
        assert match.value == value
    else:
        assert len(match.value) == (3 if "avoided" in slot else 1)


@pytest.mark.parametrize(
    ("listed", "old", "new", "rest"),
    [
        pytest.param(
            "I only stay at Hyatt or Hilton",
            "I stay with Hyatt",
            "I've dropped Hyatt, I stay at the Standard these days",
            "I only stay at Hilton",
            id="en-or",
        ),
        pytest.param(
            "只住凯悦或希尔顿", "我一般住凯悦", "凯悦以后不住了", "只住希尔顿", id="zh-huo"
        ),
    ],
)
def test_a_fact_listing_the_option_given_up_keeps_the_rest_in_its_own_words(
    memory: Memory, namespace: str, listed: str, old: str, new: str, rest: str
) -> None:
    memory.record(namespace, [listed, old])
    [outcome] = memory.record(namespace, [new])
    assert outcome.status == "updated", outcome
    told = memory.retrieve(namespace, "")
    assert rest in told and listed not in told and old not in told, told
    history = {r["text"]: r["current"] for r in memory.export(namespace)["items"]}
    assert history[listed] is False and history[rest] is True


def test_a_switch_to_the_choice_a_fact_already_names_agrees_with_it(
    memory: Memory, namespace: str
) -> None:
    """Among a traveller's facts, "Switched to United ..., so United from here on" changes
    the airline left ("I'm a Delta guy"), not "United is my airline", which it agrees with."""
    [agreed, left] = memory.record(
        namespace, ["United is my airline, I'm a MileagePlus member", "I'm a Delta guy"]
    )
    new = "Switched to United after they moved my hub, so United from here on"
    [outcome] = memory.record(namespace, [new])
    assert outcome.replaced_ids == (left.item_id,), outcome
    assert agreed.item_id in {i.id for i in memory.items(namespace)}
    told = memory.retrieve(namespace, "")
    assert "United is my airline" in told and "Delta guy" not in told, told


def test_a_swap_still_gives_up_the_choice_it_names_first(memory: Memory, namespace: str) -> None:
    [old] = memory.record(namespace, ["I go snowboarding every winter"])
    [outcome] = memory.record(
        namespace, ["I've swapped snowboarding for skiing, it's easier on my knees"]
    )
    assert outcome.replaced_ids == (old.item_id,), outcome
    assert "snowboarding every winter" not in memory.retrieve(namespace, "")
