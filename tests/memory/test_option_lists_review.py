"""Review of round 15's lists (bench/README.md, changes of mind round 15 review): the rest
of a list keeps the traveller's exact characters and still reads as what they hold; a
name followed by its own verb is no list given up; a switch *from* the older's choice
leaves it. Through the real `Memory`, as `test_option_lists.py`."""

from __future__ import annotations

import pytest

from memory.engine import Memory
from memory.profile import load_schema


@pytest.mark.parametrize(
    ("listed", "new", "rest"),
    [
        # full-width punctuation is the traveller's own: NFKC must not rewrite it
        pytest.param("我只坐东航或国航！", "东航以后不坐了", "我只坐国航！", id="zh-fullwidth"),
        pytest.param(
            "出差只住全季或亚朵（公司规定）",
            "亚朵以后不住了",
            "出差只住全季（公司规定）",
            id="zh-paren",
        ),
        # the last of "A, B and C" given up: "A and B", not "A, B"
        pytest.param(
            "I avoid Hyatt, Hilton and Marriott",
            "Marriott is my favourite now",
            "I avoid Hyatt and Hilton",
            id="en-last-of-three",
        ),
        # "either" / "both" go with the list they pair
        pytest.param(
            "I only stay at either Hyatt or Hilton",
            "I've dropped Hyatt, I stay at the Standard these days",
            "I only stay at Hilton",
            id="en-either",
        ),
    ],
)
def test_the_rest_of_a_list_reads_right(
    memory: Memory, namespace: str, listed: str, new: str, rest: str
) -> None:
    memory.record(namespace, [listed])
    [outcome] = memory.record(namespace, [new])
    assert outcome.status == "updated", outcome
    told = memory.retrieve(namespace, "")
    assert rest.rstrip("！!") in told and listed.rstrip("！!") not in told, told
    current = {r["text"] for r in memory.export(namespace)["items"] if r["current"]}
    assert rest in current, current


@pytest.mark.parametrize(
    ("listed", "new", "wrong"),
    [
        # "neither" says the "no": "neither Hilton" would not
        pytest.param(
            "I'll stay at neither Hyatt nor Hilton",
            "Hyatt is great now",
            "neither Hilton",
            id="neither",
        ),
        # a cut before the rest of a name would make another hotel of it
        pytest.param(
            "I only stay at Hyatt or Hilton Garden Inn",
            "I've dropped Hilton, I stay at the Standard these days",
            "Hyatt Garden Inn",
            id="en-sub-brand",
        ),
        pytest.param("只住全季或希尔顿欢朋", "希尔顿以后不住了", "全季欢朋", id="zh-sub-brand"),
    ],
)
def test_the_rest_of_a_list_is_never_another_statement(
    memory: Memory, namespace: str, listed: str, new: str, wrong: str
) -> None:
    memory.record(namespace, [listed])
    memory.record(namespace, [new])
    told = memory.retrieve(namespace, "")
    assert wrong not in told and listed not in told, told
    held = memory.profile(namespace)
    assert held, told  # what stays of the list is still held


@pytest.mark.parametrize(
    "text",
    [
        "Done with Hilton and Marriott is fine",
        "I'm done with Hilton and Marriott is my go-to now",
        "I'm done with Hilton and Marriott is fine by me",
    ],
)
def test_a_name_that_starts_its_own_clause_is_not_given_up(text: str) -> None:
    match = load_schema().detect(text)
    given_up = match is not None and match.slot == "avoided_hotel_brands"
    assert not (given_up and "marriott" in match.value), match  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("我一般坐国航", "从国航换成东航了"),
        ("United is my airline", "I've stopped flying United, Delta now"),
        # a change to anything *but* the older's choice leaves it (round 15 kept it current)
        ("United is my airline", "From now on I'll fly anything but United"),
        ("United is my airline", "Switching to anyone other than United now"),
    ],
)
def test_a_switch_from_the_older_choice_leaves_it(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    [first] = memory.record(namespace, [old])
    [outcome] = memory.record(namespace, [new])
    assert first.item_id in outcome.replaced_ids, outcome
    assert old not in memory.retrieve(namespace, "")


@pytest.mark.parametrize(
    "new",
    [
        # the name after "from" is the one left (before: any "from" left United too)
        "I've moved to United from Delta",
        "I left Delta for United this year",
    ],
)
def test_a_switch_to_the_older_choice_from_another_still_agrees(
    memory: Memory, namespace: str, new: str
) -> None:
    [agreed] = memory.record(namespace, ["United is my airline"])
    [outcome] = memory.record(namespace, [new])
    assert agreed.item_id not in outcome.replaced_ids, outcome
    assert "United is my airline" in memory.retrieve(namespace, "")


def test_names_said_with_their_kind_are_one_list(memory: Memory, namespace: str) -> None:
    """ "如家酒店和全季酒店都不住了" gives up both, as "如家和全季都不住了" does (before: the clause
    split at 和 read "如家酒店" as chosen, the slots read nothing and both stayed current)."""
    olds = ["我常住如家酒店", "我也喜欢全季酒店"]
    first = [memory.record(namespace, [old])[0].item_id for old in olds]
    [outcome] = memory.record(namespace, ["如家酒店和全季酒店都不住了"])
    assert set(outcome.replaced_ids) == set(first), outcome
    told = memory.retrieve(namespace, "")
    assert all(old not in told for old in olds), told
    assert memory.profile(namespace) == {"avoided_hotel_brands": ["home_inn", "ji_hotel"]}
