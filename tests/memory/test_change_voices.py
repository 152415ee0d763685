"""Changes of mind said the way people talk (bench/README.md, round 16): "I've given Uber
up", "not fussed about it any longer", "I've outgrown hostels", "as of this year",
"这两年", "从上个月起", "住怕了". What the agent receives holds the new preference and not
the old one, which stays in history; lookalikes keep both, unmarked. Through the real
`Memory` on SQLite and PostgreSQL, with the Redis cache."""

from __future__ import annotations

import pytest

from memory.engine import Memory
from tests.memory.change_outcomes import assert_kept_both_unmarked, assert_replaced, said_after


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            "Uber everywhere, it's just easier",
            "I've given Uber up, it's Lyft for me",
            id="en-given-x-up",
        ),
        pytest.param(
            "Big fan of early check-in, I'll happily pay for it",
            "Not fussed about early check-in any longer",
            id="en-any-longer",
        ),
        pytest.param(
            "Hostels are great, I like meeting people",
            "I've outgrown hostels, get me a private room",
            id="en-outgrown",
        ),
        pytest.param(
            "I book everything through Expedia",
            "Booking direct with the hotel as of this year, Expedia messed up twice",
            id="en-as-of",
        ),
        pytest.param(
            "Delta is my airline",
            "Moving forward put me on American, Delta dropped my status",
            id="en-moving-forward",
        ),
        pytest.param(
            "I'm a Hertz Gold member, I always rent from them",
            "Been renting from Sixt the last few trips and honestly I'm not going back to Hertz",
            id="en-not-going-back-said-after-and-i",
        ),
        pytest.param(
            "出差习惯带行李箱托运", "这两年只背个双肩包了，托运太麻烦", id="zh-these-two-years"
        ),
        pytest.param("订票都用携程", "从上个月起都在航旅纵横上订了", id="zh-since-last-month"),
        pytest.param("我喜欢住民宿", "民宿住怕了，还是酒店靠谱", id="zh-had-enough-of-staying"),
    ],
)
def test_a_change_said_in_everyday_words_reaches_the_agent_as_the_only_preference(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    others = ["Aisle seat please", "早餐要有中式的"]
    memory.record(namespace, [*others, old])
    [outcome] = memory.record(namespace, [new])
    assert outcome.status == "updated", outcome
    summary = memory.retrieve(namespace, "")
    assert new.rstrip("。.") in summary and old not in summary
    history = {row["text"]: row for row in memory.export(namespace)["items"]}
    assert history[old]["current"] is False
    assert history[old]["superseded_by"] == outcome.item_id
    assert all(history[o]["current"] and not history[o]["contested_by"] for o in others)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # one meal is not another: a shared subject (food) alone changes nothing
        pytest.param("早餐喜欢吃西式的", "晚饭不吃了，减肥", id="zh-another-meal"),
        pytest.param(
            "I love a big hotel breakfast", "I've stopped eating dinner late", id="en-another-meal"
        ),
        # "started" adds when the newer fact says so
        pytest.param(
            "I'm a Delta guy",
            "I've started putting my Delta miles on the Amex as well",
            id="en-started-as-well",
        ),
        # "used to" of what one is accustomed to says no change
        pytest.param(
            "A hotel gym matters to me",
            "I'm used to hotel gyms being tiny",
            id="en-used-to-as-accustomed",
        ),
        # round 16 review: "used to" says what was; it ends only what it names
        pytest.param(
            "I like quiet hotels", "We used to stay in noisy hostels", id="en-used-to-another-kind"
        ),
        pytest.param("I drink coffee", "I used to drink tea", id="en-used-to-another-part"),
        pytest.param("I like Marriott", "I used to work at a Hilton", id="en-used-to-another-name"),
        pytest.param(
            "Window seat please",
            "I used to get airsick so I always want a window",
            id="en-used-to-in-a-reason",
        ),
        pytest.param(
            "I never take red-eyes", "I used to take red-eyes", id="en-used-to-what-is-avoided"
        ),
        # a change word said under a negation, or "any longer" as a comparative, says none
        pytest.param(
            "I like hostels", "I haven't outgrown hostels, still love them", id="en-not-outgrown"
        ),
        pytest.param("I like hostels", "I haven't stopped staying in hostels", id="en-not-stopped"),
        pytest.param(
            "I like short layovers", "Can the layover be any longer?", id="en-be-any-longer"
        ),
        pytest.param(
            "I like early flights",
            "I couldn't wait any longer for the late flight",
            id="en-could-not-wait-any-longer",
        ),
    ],
)
def test_a_lookalike_in_everyday_words_keeps_both_unmarked(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_kept_both_unmarked(memory, namespace, old, new, outcome)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # said alone, with nothing else new: the change word itself gives the older up
        pytest.param(
            "I love backpacker hostels", "I've outgrown backpacker hostels", id="en-outgrown"
        ),
        pytest.param("我喜欢住青旅", "青旅住怕了", id="zh-had-enough-of-staying"),
        # "used to" of what a slot holds, and of free text (on main: "already remembered",
        # and both kept)
        pytest.param(
            "Window seat every time", "I used to want the window seat", id="en-used-to-slot"
        ),
        pytest.param(
            "I always book the quiet coach", "I used to book the quiet coach", id="en-used-to"
        ),
        pytest.param("I hate red-eyes", "I used to hate red-eyes", id="en-used-to-hate"),
    ],
)
def test_a_change_said_by_its_change_word_alone_replaces_the_older(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    outcome = said_after(memory, namespace, old, new)
    assert_replaced(memory, namespace, old, outcome)
