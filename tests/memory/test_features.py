"""Ranking from facts' features derived once (and kept in the cache entry) scores exactly
as ranking that reads every fact for every request; on real travel facts."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from memory.embedding import LocalEmbedder, Vector, shared_local_embedder
from memory.facts import Facts, pack, unpack
from memory.features import (
    NEIGHBOUR_QUORUM,
    NEIGHBOUR_SHARE,
    NEIGHBOURS,
    FactFeatures,
    fact_features,
    int8_codes,
)
from memory.lang import detect_lang
from memory.profile import load_schema
from memory.ranking import (
    CLEAR_MATCH,
    CLEAR_MATCH_FACTS,
    CROSS_LANGUAGE_LIFT,
    IMPLIED_SHARE,
    SUBJECT_WEIGHT,
    LanguageGap,
    language_gap,
    rank_order,
    rank_scores,
)
from memory.subjects import Subjects, load_subjects
from memory.types import MemoryItem

NOW = datetime(2026, 12, 6, tzinfo=UTC)
PEOPLE = Path(__file__).parents[2] / "bench" / "travel_people.json"


# The first four development travellers: enough facts and requests for the equivalence
# below (the per-fact reference is quadratic, so later dev people only add minutes).
FIRST_DEV = ("zhang", "liu", "mark", "lina")


def dev_people() -> tuple[list[str], list[str]]:
    """The facts and requests of the first development travellers
    (bench/travel_people.json)."""
    people = [
        p
        for p in json.loads(PEOPLE.read_text(encoding="utf-8"))["people"]
        if p["split"] == "dev" and p["person"] in FIRST_DEV
    ]
    facts = [f["fact"] for p in people for f in p["facts"]]
    asked = [r for p in people for f in p["facts"] for r in f["requests"]]
    return facts, asked


def per_fact_reference(
    request: str,
    query: Vector,
    texts: Sequence[str],
    langs: Sequence[str],
    slots: Sequence[str | None],
    passages: Vector,
    gap: LanguageGap | None,
    subjects: Subjects,
) -> Vector:
    """The scoring formula as it read every fact for every request before features were
    derived once (issue 22); keep in step with `memory.ranking._score`."""
    scores = (passages @ query).astype(np.float64)
    lang = detect_lang(request)
    if gap is not None:
        lift = CROSS_LANGUAGE_LIFT * gap.of(lang)
        other = [
            ("zh" if (x or detect_lang(t)).startswith("zh") else "en") != lang
            for t, x in zip(texts, langs, strict=True)
        ]
        scores += lift * np.array(other)
    view = scores.copy()  # the embedding alone, for the clear-match rule
    asked = subjects.asked(request)  # without what it names in passing
    shares = {s: 1.0 for s in asked} | {s: IMPLIED_SHARE for s in subjects.implied(asked)}
    if shares:
        about = [subjects.of(t, s) for t, s in zip(texts, slots, strict=True)]
        near = neighbours_of(passages)
        for subject, share in shares.items():
            having = np.array([subject in a for a in about])
            n = int(having.sum())
            naming = [sum(subject in about[j] for j in ns) for ns in near]
            lent = np.array(
                [
                    k / len(ns) if k >= min(NEIGHBOUR_QUORUM, len(ns)) else 0.0
                    for k, ns in zip(naming, near, strict=True)
                ]
            )
            weight = np.maximum(having, NEIGHBOUR_SHARE * lent)
            if n:
                idf = math.log((len(texts) + 1) / (n + 0.5))
                scores += share * SUBJECT_WEIGHT * idf * weight
    ranked = sorted(view, reverse=True)
    if len(view) >= CLEAR_MATCH_FACTS and ranked[0] - ranked[1] >= CLEAR_MATCH * view.std() > 0:
        first = int(np.argmax(view))
        scores[first] = max(scores.max(), scores[first]) + 1e-6
    out: Vector = scores.astype(np.float32)
    return out


_NEIGHBOURS_SEEN: dict[bytes, list[list[int]]] = {}


def neighbours_of(passages: Vector) -> list[list[int]]:
    """`nearest_of` every fact, worked out once per set of vectors: they do not depend on
    the request, and working them out again for each of ~190 requests took most of a
    minute on a quiet machine, past the two-minute test timeout on a loaded CI box."""
    key = passages.tobytes()
    if key not in _NEIGHBOURS_SEEN:
        _NEIGHBOURS_SEEN[key] = [nearest_of(passages, i) for i in range(len(passages))]
    return _NEIGHBOURS_SEEN[key]


def nearest_of(passages: Vector, i: int) -> list[int]:
    """The NEIGHBOURS facts closest to fact i, by cosine of the vectors as the cache keeps
    them (int8), one at a time."""
    codes, factors = int8_codes(passages)
    mine = codes[i].astype(np.int64)
    sims = [
        (float(mine @ codes[j].astype(np.int64)) * float(factors[j]), j)
        for j in range(len(passages))
        if j != i
    ]
    return [j for _, j in sorted(sims, reverse=True)[:NEIGHBOURS]]


@pytest.fixture(scope="module")
def local() -> LocalEmbedder:
    return shared_local_embedder()


@pytest.fixture(scope="module")
def travel(local: LocalEmbedder) -> tuple[Facts, list[str], list[Vector]]:
    texts, asked = dev_people()
    assert len(texts) > 80 and len(asked) > 80
    # Some facts with a typed slot, some whose language is left to be read from the text.
    slots = [("red_eye" if i % 7 == 3 else None) for i in range(len(texts))]
    langs = [("" if i % 5 == 1 else detect_lang(t)) for i, t in enumerate(texts)]
    items = [
        MemoryItem(id=f"f{i}", namespace="t", text=t, source="chat", created_at=NOW, lang=x, slot=s)
        for i, (t, x, s) in enumerate(zip(texts, langs, slots, strict=True))
    ]
    facts = Facts(items, local.embed_passages(texts))
    return facts, asked, [local.embed_query(r) for r in asked]


def test_ranking_from_derived_features_equals_reading_every_fact(
    local: LocalEmbedder, travel: tuple[Facts, list[str], list[Vector]]
) -> None:
    facts, asked, vectors = travel
    subjects = load_subjects()
    gap = language_gap(local)
    assert gap is not None
    cached = unpack(pack(facts, local.name, subjects), "t", local.name)
    assert cached is not None
    kept = cached.features(subjects)
    assert cached._features is kept  # read from the entry, not derived again
    for request, query in zip(asked, vectors, strict=True):
        for source in (facts, cached):
            columns = (source.texts, source.langs, source.slots, source.matrix)
            expected = per_fact_reference(request, query, *columns, gap, subjects)
            derived = rank_scores(request, query, *columns, gap=gap, subjects=subjects)
            given = rank_scores(
                request,
                query,
                *columns,
                gap=gap,
                subjects=subjects,
                features=source.features(subjects),
            )
            assert np.allclose(derived, expected, rtol=0, atol=1e-6), request
            assert np.allclose(given, expected, rtol=0, atol=1e-6), request
            order = np.argsort(-expected, kind="stable").tolist()
            assert np.argsort(-given, kind="stable").tolist() == order, request


def test_rank_order_uses_the_features_of_the_facts(
    local: LocalEmbedder, travel: tuple[Facts, list[str], list[Vector]]
) -> None:
    facts, asked, vectors = travel
    schema = load_schema()
    subjects = load_subjects(schema=schema)
    gap = language_gap(local)
    for request, query in list(zip(asked, vectors, strict=True))[:20]:
        order, scores = rank_order(facts, request, local, schema, query)
        columns = (facts.texts, facts.langs, facts.slots, facts.matrix)
        expected = per_fact_reference(request, query, *columns, gap, subjects)
        assert np.allclose(scores, expected, rtol=0, atol=1e-6)
        assert order == np.argsort(-expected, kind="stable").tolist()


def test_features_of_another_vocabulary_are_derived_again(
    travel: tuple[Facts, list[str], list[Vector]],
) -> None:
    facts, _, _ = travel
    subjects = load_subjects()
    other = FactFeatures.of(
        "another", ("x",), np.zeros(len(facts), bool), np.zeros((len(facts), 1), bool)
    )
    assert not other.fits(subjects, len(facts))
    derived = fact_features(facts.texts, facts.langs, facts.slots, subjects, facts.matrix)
    assert derived.fits(subjects, len(facts)) and not derived.fits(subjects, len(facts) + 1)


def test_packed_features_read_back_the_same_and_damage_reads_as_none(
    travel: tuple[Facts, list[str], list[Vector]],
) -> None:
    facts, _, _ = travel
    features = facts.features(load_subjects())
    packed = features.packed()
    assert packed is not None
    meta, arrays = packed
    meta = json.loads(json.dumps(meta))  # as the cache entry keeps it
    assert len(arrays) == FactFeatures.packed_size(len(facts), int(meta["k"]))
    back = FactFeatures.unpacked(meta, b"xx" + arrays, 2, len(facts))
    assert back is not None
    assert back.names == features.names and back.vocabulary == features.vocabulary
    assert np.array_equal(back.zh, features.zh) and np.array_equal(back.about, features.about)
    assert np.array_equal(back.counts, features.counts)
    assert np.array_equal(back.near, features.near)
    assert np.array_equal(back.weight, features.weight)
    assert FactFeatures.unpacked(meta, arrays, 0, len(facts) + 1) is None  # too short
    assert FactFeatures.unpacked({"names": []}, arrays, 0, len(facts)) is None
    assert FactFeatures.unpacked("junk", arrays, 0, len(facts)) is None


def test_an_entry_packed_without_features_ranks_the_same(
    local: LocalEmbedder, travel: tuple[Facts, list[str], list[Vector]]
) -> None:
    facts, asked, vectors = travel
    subjects = load_subjects()
    plain = unpack(pack(facts, local.name), "t", local.name)
    rich = unpack(pack(facts, local.name, subjects), "t", local.name)
    assert plain is not None and rich is not None
    assert plain._features is None
    schema = load_schema()
    for request, query in list(zip(asked, vectors, strict=True))[:10]:
        a = rank_order(plain, request, local, schema, query)
        b = rank_order(rich, request, local, schema, query)
        assert a[0] == b[0] and np.array_equal(a[1], b[1])


def test_a_packed_row_is_the_plain_json_encoding() -> None:
    """Rows are encoded without the encoder's per-call set-up; the bytes are the same."""
    from memory.facts import _ENCODER, _FIELDS, _TIMES, _row

    item = MemoryItem(
        id='a"b\\c',
        namespace="t",
        text='靠窗 "window" \n \u2028 😀',
        source="chat",
        created_at=NOW,
        slot="seat",
        value=("window", 1, None, 2.5),
        polarity="must",
        lang="zh",
        scope="mode:train",
    )
    values = [
        getattr(item, name).isoformat() if name in _TIMES else getattr(item, name)
        for name in _FIELDS
    ]
    assert _row(item) == _ENCODER.encode(values).encode("utf-8")


def test_features_naming_other_subjects_under_the_same_vocabulary_do_not_fit(
    travel: tuple[Facts, list[str], list[Vector]],
) -> None:
    facts, _, _ = travel
    subjects = load_subjects()
    packed = facts.features(subjects).packed()
    assert packed is not None
    meta, arrays = packed
    meta["names"] = ["renamed", *meta["names"][1:]]  # type: ignore[index]
    damaged = FactFeatures.unpacked(meta, arrays, 0, len(facts))
    assert damaged is not None and not damaged.fits(subjects, len(facts))


def test_a_subject_is_lent_only_when_two_of_three_neighbours_name_it() -> None:
    # Fact 0's neighbours are 1, 2, 3: two of them are about lodging, one about food.
    about = np.zeros((5, 2), dtype=bool)
    about[1, 0] = about[2, 0] = True  # lodging
    about[3, 1] = True  # food
    near = np.array([[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2], [0, 1, 2]])
    zh = np.zeros(5, dtype=bool)
    features = FactFeatures.of("v", ("lodging", "food"), zh, about, near)
    assert NEIGHBOURS == 3 and NEIGHBOUR_QUORUM == 2
    assert features.weight[0, 0] == pytest.approx(NEIGHBOUR_SHARE * 2 / 3)  # two agree
    assert features.weight[0, 1] == 0.0  # food: one neighbour alone lends nothing
    assert features.weight[4, 0] == pytest.approx(NEIGHBOUR_SHARE * 2 / 3)
    assert features.weight[1, 0] == 1.0  # its own words name it
    assert list(features.counts) == [2, 1]  # rarity counts the facts' own words only
