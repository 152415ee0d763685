"""A scoped slot fact ("on trains I like a window seat") stands beside the general one;
only a change of mind in the same scope replaces anything. Through the real `Memory`, on
SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from memory.engine import Memory
from tests.conftest import MemoryFactory

MEASURED = [
    pytest.param("靠过道的座位，方便起身", "坐火车喜欢靠窗看风景", id="zh-train-window"),
    pytest.param("I prefer aisle seats", "On trains I like a window seat", id="en-train-window"),
    pytest.param("酒店要含早餐", "在日本住温泉旅馆的时候不用含早餐", id="zh-japan-ryokan"),
    pytest.param(
        "I never take red-eye flights", "For flights to New York a red-eye is fine", id="en-ny"
    ),
]


@pytest.mark.parametrize(("general", "scoped"), MEASURED)
def test_a_scoped_fact_keeps_the_general_one_and_recall_shows_both(
    memory: Memory, namespace: str, general: str, scoped: str
) -> None:
    memory.record(namespace, [general])
    [outcome] = memory.record(namespace, [scoped])
    assert outcome.status == "added", outcome
    assert {i.text for i in memory.items(namespace)} == {general, scoped}
    summary = memory.retrieve(namespace, "")
    assert general.rstrip("。.") in summary and scoped.rstrip("。.") in summary


@pytest.mark.parametrize(("general", "scoped"), MEASURED)
def test_a_general_fact_does_not_replace_a_scoped_one(
    memory: Memory, namespace: str, general: str, scoped: str
) -> None:
    memory.record(namespace, [scoped])
    [outcome] = memory.record(namespace, [general])
    assert outcome.status == "added", outcome
    assert {i.text for i in memory.items(namespace)} == {general, scoped}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("I prefer aisle seats", "Actually I now prefer window seats", id="en-now"),
        pytest.param("出差只坐高铁一等座", "以后高铁坐二等座就行", id="zh-from-now-on"),
        pytest.param("酒店要含早餐", "酒店不用含早餐了", id="zh-no-longer"),
    ],
)
def test_a_change_of_mind_still_supersedes_and_export_keeps_history(
    memory: Memory, namespace: str, old: str, new: str
) -> None:
    [first] = memory.record(namespace, [old])
    [outcome] = memory.record(namespace, [new])
    assert outcome.status == "updated"
    assert outcome.reason == f"replaces: {old}"
    assert outcome.replaced_ids == (first.item_id,)
    assert [i.text for i in memory.items(namespace)] == [new]
    history = {row["text"]: row for row in memory.export(namespace)["items"]}
    assert history[old]["current"] is False
    assert history[old]["superseded_by"] == outcome.item_id


def test_a_scope_is_replaced_only_by_the_same_scope(memory: Memory, namespace: str) -> None:
    memory.record(namespace, ["I prefer aisle seats", "On trains I like a window seat"])
    memory.record(namespace, ["On flights to Tokyo I like the window"])
    [outcome] = memory.record(namespace, ["On trains, now aisle"])
    assert outcome.status == "updated"
    assert outcome.reason == "replaces: On trains I like a window seat"
    assert {i.text for i in memory.items(namespace)} == {
        "I prefer aisle seats",
        "On flights to Tokyo I like the window",
        "On trains, now aisle",
    }
    assert memory.profile(namespace) == {"seat": "aisle"}
    scoped = {(v.scope, v.value, v.label) for v in memory.scoped_profile(namespace)}
    assert scoped == {
        ("mode:train", "aisle", "trains"),
        ("mode:flight|place:tokyo", "window", "flights, Tokyo"),
    }


def test_the_profile_keeps_general_values_where_they_were(memory: Memory, namespace: str) -> None:
    """Existing callers (planner, form) read `profile`: a train-only value never shows there."""
    memory.record(namespace, ["坐火车喜欢靠窗看风景", "长途航班坐商务舱"])
    assert memory.profile(namespace) == {}
    memory.record(namespace, ["靠过道的座位", "我一般坐经济舱"])
    assert memory.profile(namespace) == {"seat": "aisle", "cabin_class": "economy"}
    labels = {(v.slot, v.label) for v in memory.scoped_profile(namespace)}
    assert labels == {("seat", "火车"), ("cabin_class", "长途")}


def test_export_shows_each_facts_scope(memory: Memory, namespace: str) -> None:
    memory.record(namespace, ["For flights to New York a red-eye is fine", "不坐红眼航班"])
    exported = memory.export(namespace)
    rows = {row["text"]: row for row in exported["items"]}
    assert rows["For flights to New York a red-eye is fine"]["scope"] == "place:new_york"
    assert rows["For flights to New York a red-eye is fine"]["scope_label"] == "New York"
    assert rows["不坐红眼航班"]["scope"] is None
    assert exported["profile"] == {"red_eye": "avoid"}
    assert exported["scoped_profile"] == [
        {
            "slot": "red_eye",
            "value": "accept",
            "scope": "place:new_york",
            "scope_label": "New York",
            "text": "For flights to New York a red-eye is fine",
            "id": rows["For flights to New York a red-eye is fine"]["id"],
        }
    ]


def test_the_form_changes_general_values_and_leaves_scoped_ones(
    memory: Memory, namespace: str
) -> None:
    memory.record(namespace, ["I prefer aisle seats", "On trains I like a window seat"])
    [outcome] = memory.update_profile(namespace, {"seat": "window"}, lang="en")
    assert outcome.status == "updated"
    texts = {i.text for i in memory.items(namespace)}
    assert texts == {"Prefers a window seat", "On trains I like a window seat"}
    memory.update_profile(namespace, {"seat": None})
    assert {i.text for i in memory.items(namespace)} == {"On trains I like a window seat"}
    assert memory.profile(namespace) == {}


def test_a_partly_contradicted_scoped_fact_keeps_its_scope(memory: Memory, namespace: str) -> None:
    memory.record(namespace, ["不住全季", "在上海不住全季和汉庭"])
    [outcome] = memory.record(namespace, ["在上海喜欢住全季"])
    assert outcome.status == "updated"
    assert outcome.reason == "replaces: 在上海不住全季和汉庭"
    scoped = {(v.slot, v.value, v.scope) for v in memory.scoped_profile(namespace)}
    assert scoped == {
        ("preferred_hotel_brands", ("ji_hotel",), "place:shanghai"),
        ("avoided_hotel_brands", ("hanting",), "place:shanghai"),
    }
    # the rest in the fact's own words, its scope with it (round 15; before: "上海：避免入住汉庭")
    assert "在上海不住汉庭" in {i.text for i in memory.items(namespace)}
    assert memory.profile(namespace) == {"avoided_hotel_brands": ["ji_hotel"]}


def test_scoped_facts_survive_reopening(make_memory: MemoryFactory, namespace: str) -> None:
    first = make_memory()
    first.record(namespace, ["On trains I like a window seat"])
    first.close()
    again = make_memory()
    assert [(v.slot, v.scope) for v in again.scoped_profile(namespace)] == [("seat", "mode:train")]
