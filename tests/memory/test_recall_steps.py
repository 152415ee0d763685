"""A request prepared while it is embedded (`memory.recall_steps`) is ranked and
summarised exactly as ranking everything after its vector: same order, same text; from
the store's facts and from a cache entry, changes of mind included."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from memory.embedding import LocalEmbedder, Vector, shared_local_embedder
from memory.facts import Facts, pack, unpack
from memory.lang import detect_lang
from memory.profile import load_schema
from memory.ranking import prepare_request, rank_order, ranked
from memory.recall_steps import embedding_of, prepare, summarize
from memory.settings import MemorySettings
from memory.subjects import load_subjects
from memory.types import MemoryItem
from memory.views import shown
from tests.memory.test_features import dev_people

START = datetime(2026, 12, 6, tzinfo=UTC)


@pytest.fixture(scope="module")
def local() -> LocalEmbedder:
    return shared_local_embedder()


@pytest.fixture(scope="module")
def travellers(local: LocalEmbedder) -> tuple[Facts, list[str], list[Vector]]:
    """The dev travellers' facts in one namespace; every fifth may be replaced by the
    next (an unsure change of mind: the summary then reorders and notes it)."""
    texts, asked = dev_people()
    items = [
        MemoryItem(
            id=f"f{i}",
            namespace="t",
            text=text,
            source="chat",
            created_at=START + timedelta(minutes=i),
            lang=detect_lang(text),
            slot="red_eye" if i % 7 == 3 else None,
            contested_by=f"f{i + 1}" if i % 5 == 2 and i + 1 < len(texts) else None,
        )
        for i, text in enumerate(texts)
    ]
    facts = Facts(items, local.embed_passages(texts))
    return facts, asked, [local.embed_query(r) for r in asked]


def done(vector: Vector) -> Future[Vector]:
    future: Future[Vector] = Future()
    future.set_result(vector)
    return future


def test_a_prepared_request_ranks_and_summarises_as_ranking_after_the_vector(
    local: LocalEmbedder, travellers: tuple[Facts, list[str], list[Vector]]
) -> None:
    facts, asked, vectors = travellers
    schema = load_schema()
    cached = unpack(pack(facts, local.name, load_subjects(schema=schema)), "t", local.name)
    assert cached is not None
    noted = 0
    for settings in (MemorySettings(), MemorySettings(memory_summary_max_facts=12)):
        for request, vector in zip(asked, vectors, strict=True):
            for source in (facts, cached):  # the cache's vectors are int8: each its own
                expected_order = rank_order(source, request, local, schema, vector)[0]
                expected = summarize(
                    source, request, embedder=local, schema=schema, settings=settings,
                    embedding=done(vector),
                )  # fmt: skip
                prepared = prepare(source, request, local, schema)
                assert prepared is not None
                assert ranked(source, prepared, vector) == expected_order, request
                got = summarize(
                    source, request, embedder=local, schema=schema, settings=settings,
                    embedding=done(vector), prepared=prepared,
                )  # fmt: skip
                assert got == expected, request
            noted += "said" in expected[0]
    assert noted > 0  # changes of mind were shown


def test_a_request_prepared_for_other_facts_is_refused(
    local: LocalEmbedder, travellers: tuple[Facts, list[str], list[Vector]]
) -> None:
    facts, asked, vectors = travellers
    prepared = prepare_request(facts, asked[0], local, load_schema())
    with pytest.raises(ValueError):
        ranked(facts.rows(range(10)), prepared, vectors[0])


def test_no_request_prepares_nothing_and_texts_are_shown_as_the_summary_shows_them(
    local: LocalEmbedder, travellers: tuple[Facts, list[str], list[Vector]]
) -> None:
    facts, _, _ = travellers
    assert prepare(facts, "  ", local, load_schema()) is None
    assert facts.shown() == tuple(shown(text) for text in facts.texts)


def test_a_request_embedded_lately_wakes_no_thread(local: LocalEmbedder) -> None:
    """A repeated request (usually answered from the cache) takes its vector at once."""
    submitted: list[str] = []

    class Pool(ThreadPoolExecutor):
        def submit(self, fn: Callable[..., Vector], /, *args: Any, **kwargs: Any) -> Future[Vector]:
            submitted.append(args[0])
            return super().submit(fn, *args, **kwargs)

    request = "帮我订下周去成都的高铁 (test_a_request_embedded_lately_wakes_no_thread)"
    with Pool(1) as pool:
        first = embedding_of(local, request, lambda: pool).result()
        again = embedding_of(local, request, lambda: pool).result()
    assert submitted == [request]
    assert again is first
