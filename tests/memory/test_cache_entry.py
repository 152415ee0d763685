"""The cached facts value (`memory.facts.pack`/`unpack`): what goes in comes back
exactly, and a value this version cannot read (older layout, damaged, another model)
reads as None, never as an error."""

from __future__ import annotations

import json
import struct
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory.facts import _HEADER, Facts, pack, unpack
from memory.features import int8_codes
from memory.subjects import load_subjects
from memory.types import MemoryItem

START = datetime(2026, 1, 1, tzinfo=UTC)


def travel_facts() -> Facts:
    """Facts with every field a current fact can have: slots and their values, scopes,
    a change of mind, both languages, repeated and unusual text."""
    items = [
        MemoryItem(
            id="a1",
            namespace="t",
            text="I prefer aisle seats",
            source="chat",
            created_at=START,
            slot="seat",
            value="aisle",
            polarity="prefer",
        ),
        MemoryItem(
            id="a2",
            namespace="t",
            text="出差只坐高铁一等座",
            source="form",
            created_at=START + timedelta(seconds=1),
            slot="rail_class",
            value=("first", 1, None, 2.5),
            polarity="must",
            lang="zh",
            scope="mode:train",
        ),
        MemoryItem(
            id="a3",
            namespace="t",
            text='Hotels "with" breakfast\n\u2028 😀',
            source="import",
            created_at=START + timedelta(days=2),
            contested_by="a4",
        ),
        MemoryItem(
            id="a4",
            namespace="t",
            text="No hotel breakfast any more, thanks",
            source="chat",
            created_at=START + timedelta(days=3),
        ),
        MemoryItem(  # the same text as another fact, an id that is also a text
            id="I prefer aisle seats",
            namespace="t",
            text="I prefer aisle seats",
            source="chat",
            created_at=START + timedelta(days=4),
            contested_by="gone",
        ),
    ]
    vectors = np.random.default_rng(5).standard_normal((len(items), 16)).astype(np.float32)
    return Facts(items, vectors / np.linalg.norm(vectors, axis=1, keepdims=True))


def test_a_packed_value_reads_back_exactly() -> None:
    facts = travel_facts()
    subjects = load_subjects()
    back = unpack(pack(facts, "m", subjects), "t", "m")
    assert back is not None
    assert back.texts == facts.texts and back.langs == facts.langs
    assert back.slots == facts.slots and back.ids == facts.ids
    assert back.contested == facts.contested
    assert list(back.items) == list(facts.items)  # every field of every item
    # The vectors as the cache keeps them (int8 and a factor): the same codes again.
    codes, _ = int8_codes(facts.matrix)
    again, _ = int8_codes(back.matrix)
    assert np.array_equal(codes, again)
    assert np.allclose(back.matrix, facts.matrix, atol=0.02)
    derived, kept = facts.features(subjects), back.features(subjects)
    assert back._features is kept  # read from the value, not derived again
    for name in ("zh", "about", "counts", "near", "weight"):
        assert np.array_equal(getattr(kept, name), getattr(derived, name)), name
    # Packing what was unpacked gives the same value: nothing drifts when re-cached.
    assert pack(back, "m", subjects) == pack(facts, "m", subjects)


def test_items_of_some_rows_are_those_rows_items() -> None:
    facts = travel_facts()
    back = unpack(pack(facts, "m"), "t", "m")
    assert back is not None
    picked = back.rows([4, 0, 2])
    assert list(picked.items) == [facts.items[4], facts.items[0], facts.items[2]]
    assert picked.free().ids == ("I prefer aisle seats", "a3")
    assert [i.id for i in back.typed()] == ["a1", "a2"]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.text(min_size=1, max_size=30),
            st.sampled_from(["en", "zh"]),
            st.one_of(st.none(), st.sampled_from(["seat", "hotel_brand"])),
            st.one_of(st.none(), st.text(max_size=8)),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_any_text_reads_back_exactly(rows: list[tuple[str, str, str | None, str | None]]) -> None:
    items = [
        MemoryItem(
            id=f"id{n}",
            namespace="t",
            text=text,
            source="chat",
            created_at=START + timedelta(seconds=n),
            lang=lang,
            slot=slot,
            contested_by=by,
        )
        for n, (text, lang, slot, by) in enumerate(rows)
    ]
    vectors = np.ones((len(items), 4), dtype=np.float32) / 2
    back = unpack(pack(Facts(items, vectors), "m"), "t", "m")
    assert back is not None
    assert list(back.items) == items and back.texts == tuple(r[0] for r in rows)


def test_a_value_of_the_previous_layout_reads_as_none() -> None:
    """After a deploy Redis still holds values written by the version before: the
    previous layout (version 3: a JSON part with every column) is a miss."""
    facts = travel_facts()
    meta = b'{"model":"m","dim":16,"fields":[],"texts":[],"langs":[]}'
    old = struct.pack("<4sBII", b"LTMF", 3, len(facts), len(meta)) + meta + bytes(100)
    assert unpack(old, "t", "m") is None
    value = bytearray(pack(facts, "m"))
    value[4] = 3  # this layout, labelled with the previous version
    assert unpack(bytes(value), "t", "m") is None


@pytest.mark.parametrize(
    "damage",
    [
        lambda v: v[:-1],  # truncated
        lambda v: v + b"x",  # trailing bytes
        lambda v: v[: _HEADER.size + 5],  # cut in the JSON part
        lambda v: b"XXXX" + v[4:],  # not ours
        lambda v: b"",
    ],
)
def test_a_damaged_value_reads_as_none(damage: object) -> None:
    value = pack(travel_facts(), "m", load_subjects())
    assert unpack(damage(value), "t", "m") is None  # type: ignore[operator]


def test_a_value_of_another_model_or_with_other_fields_reads_as_none() -> None:
    value = pack(travel_facts(), "m")
    assert unpack(value, "t", "other-model") is None
    renamed = value.replace(b'"fields":["source"', b'"fields":["sourcE"', 1)
    assert renamed != value and unpack(renamed, "t", "m") is None


def test_a_string_position_out_of_range_reads_as_none() -> None:
    value = pack(travel_facts(), "m")
    meta_len = _HEADER.unpack_from(value)[4]
    distinct = json.loads(value[_HEADER.size : _HEADER.size + meta_len])["strings"]
    at = _HEADER.size + meta_len + 4 * distinct  # the first text's position
    assert struct.unpack_from("<i", value, at) == (0,)
    for bad in (-1, distinct, 2**31 - 1):  # a text is never None; past the table
        damaged = value[:at] + struct.pack("<i", bad) + value[at + 4 :]
        assert unpack(damaged, "t", "m") is None, bad
