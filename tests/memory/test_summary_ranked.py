"""The request's summary built from positions of facts (no item built but those shown
with a note) is the one built from every item, changes of mind included."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from memory.facts import Facts, pack, unpack
from memory.lang import detect_lang
from memory.summary import _PASS_OVER, _ranked, shown
from memory.types import MemoryItem
from memory.views import change_notes, newer_first

_TRAILING = re.compile(r"[\s。．.!！;；,，、]+$")
START = datetime(2026, 1, 1, tzinfo=UTC)


def items_reference(facts: Facts, order: list[int], max_facts: int, max_chars: int) -> str:
    """`_ranked` as it was before it read positions: every item built when any fact shown
    may be replaced by a newer one."""
    notes: dict[str, str] = {}
    present = set(order)
    position = {facts.ids[i]: i for i in order}
    if any(facts.contested[i] in position for i in present):
        items = [facts.items[i] for i in order]
        ordered = newer_first(items)
        notes = change_notes(ordered)
        order = [position[item.id] for item in ordered]
    parts: list[str] = []
    marks: list[tuple[str, str]] = []  # each fact's separator and stop, in its language
    used = 1
    passed = 0
    for i in order:
        if len(parts) >= max_facts or passed > _PASS_OVER:
            break
        text = _TRAILING.sub("", " ".join(facts.texts[i].split()))
        if not text:
            continue
        mark = ("；", "。") if detect_lang(text) == "zh" else ("; ", ".")
        text += notes.get(facts.ids[i], "")
        cost = len(text) + (len(marks[-1][0]) if parts else 0)
        if used + cost > max_chars:
            if parts:
                passed += 1
                continue
            text = text[: max(1, max_chars - used - 1)] + "…"
            cost = len(text)
        parts.append(text)
        marks.append(mark)
        used += cost
    body = "".join(part + sep for part, (sep, _) in zip(parts[:-1], marks, strict=False))
    return body + parts[-1] + marks[-1][1] if parts else ""


def make_facts(rng: random.Random, count: int) -> Facts:
    ids = [f"id{n}" for n in range(count)]
    items = []
    for n in range(count):
        contested = None
        if rng.random() < 0.3 and n + 1 < count:  # a newer fact (chains too)
            contested = ids[rng.randrange(n + 1, count)]
        elif rng.random() < 0.05:
            contested = "gone"  # a contester no longer current
        zh = rng.random() < 0.5
        text = (
            ("喜欢" + "靠窗" * rng.randrange(1, 30))
            if zh
            else ("likes " + "aisle " * rng.randrange(1, 30))
        )
        items.append(
            MemoryItem(
                id=ids[n],
                namespace="t",
                text=text + ("。" if rng.random() < 0.3 else ""),
                source="chat",
                created_at=START + timedelta(days=n),
                lang="zh" if zh else "en",
                contested_by=contested,
            )
        )
    vectors = np.random.default_rng(count).standard_normal((count, 8)).astype(np.float32)
    return Facts(items, vectors / np.linalg.norm(vectors, axis=1, keepdims=True))


def test_summaries_from_positions_equal_those_from_items() -> None:
    rng = random.Random(7)
    noted = 0
    for case in range(300):
        facts = make_facts(rng, rng.randrange(1, 40))
        cached = unpack(pack(facts, "m"), "t", "m")
        assert cached is not None
        order = list(range(len(facts)))
        rng.shuffle(order)
        if case % 3 == 0:
            order = order[: max(1, len(order) // 2)]  # not every fact ranked
        max_facts, max_chars = rng.choice([(100, 4000), (5, 300), (8, 120), (3, 40)])
        expected = items_reference(facts, order, max_facts, max_chars)
        assert _ranked(facts, list(order), max_facts, max_chars) == expected
        assert _ranked(cached, list(order), max_facts, max_chars) == expected
        noted += "said" in expected
    assert noted > 50  # changes of mind were shown


# Text with what a fact's end may carry: every kind of whitespace, the punctuation the
# summary drops, and other punctuation it keeps.
_ODD_TEXT = st.text(
    st.one_of(
        st.sampled_from(list(" \t\n\r\x0b\x0c\x1c\x85\xa0\u2003\u3000。．.!！;；,，、?？…")),
        st.characters(),
    ),
    max_size=40,
)


@given(_ODD_TEXT)
def test_a_fact_is_shown_in_a_summary_exactly_as_the_regular_expression_showed_it(
    text: str,
) -> None:
    """`shown` (rstrip, faster after the embedding) keeps every summary's text as it was."""
    assert shown(text) == _TRAILING.sub("", " ".join(text.split()))
