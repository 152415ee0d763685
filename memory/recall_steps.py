"""A recall's ranking and summary for one request, in two steps around its embedding.

A recall embeds the request on another thread while it reads the cache (or the store),
so what it does after the vector arrives is what a traveller waits for beyond the
model. `prepare` does everything the request's vector is not needed for, while the
request is still being embedded: what ranking reads of each fact (`Facts.features`,
usually from the cache entry), what the formula adds to each fact's cosine for this
request (`memory.ranking.prepare_request`) and each fact's text as the summary shows it
(`Facts.shown`, while the vector is not there yet). `summarize` then waits for the
vector and does only what scales with the facts and needs it: one product with the
facts' vectors, the prepared terms added, the facts sorted, and the summary joined
(`memory.summary`).
Same scores, order and text as ranking everything after the vector
(`tests/memory/test_recall_steps.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Protocol

from memory.embedding import Embedder, Vector
from memory.facts import Facts
from memory.lang import Lang
from memory.profile import ProfileSchema
from memory.ranking import PreparedRequest, prepare_request, rank_order, ranked
from memory.settings import MemorySettings
from memory.summary import summarize_facts


class Embedding(Protocol):
    """The request's vector, perhaps still being made: a `concurrent.futures.Future`, or
    `Known` when it was already there."""

    def done(self) -> bool: ...

    def result(self, timeout: float | None = None) -> Vector: ...


class Known:
    """A vector that was already made: what a `Future` holding it answers, without the
    `Future` (its lock and condition cost a cache hit several microseconds)."""

    __slots__ = ("vector",)

    def __init__(self, vector: Vector) -> None:
        self.vector = vector

    def done(self) -> bool:
        return True

    def result(self, timeout: float | None = None) -> Vector:
        return self.vector


def embedding_of(embedder: Embedder, query: str, pool: Callable[[], Executor]) -> Embedding:
    """The request's vector: at once when the embedder has it from a recent request
    (`known`; a repeated request, usually answered from the cache, then wakes no thread
    that would compete with it), else being embedded on `pool`'s thread (a `Future` is
    made only then)."""
    known = getattr(embedder, "known", None)
    vector = known(query) if known is not None else None
    if vector is None:
        return pool().submit(embedder.embed_query, query)
    return Known(vector)


def prepare(
    facts: Facts,
    query: str,
    embedder: Embedder,
    schema: ProfileSchema,
    embedding: Embedding | None = None,
) -> PreparedRequest | None:
    """What ranking `facts` for `query` and summarising them needs besides the request's
    vector (None for no request: the whole profile is not ranked). Every fact's text as
    shown is made only while the vector is still being made (`embedding` not done):
    otherwise the summary shows the few it reads as it reads them."""
    if not query.strip() or not facts:
        return None
    prepared = prepare_request(facts, query, embedder, schema)
    if embedding is None or not embedding.done():
        facts.shown()
    return prepared


def summarize(
    facts: Facts,
    query: str,
    *,
    embedder: Embedder,
    schema: ProfileSchema,
    settings: MemorySettings,
    embedding: Embedding | None = None,
    prepared: PreparedRequest | None = None,
) -> tuple[str, Lang, bool]:
    """The summary of `facts` for `query` (`memory.summary.summarize_facts`), its
    language, and whether it fits every request. `embedding`: the request's vector,
    being made; `prepared`: what `prepare` made of `facts` for `query`."""
    max_facts = settings.memory_summary_max_facts

    def rank(f: Facts, q: str) -> Sequence[int]:
        vector = embedding.result() if embedding is not None and q == query else None
        if (
            prepared is not None
            and vector is not None
            and prepared.request == q
            and prepared.count == len(f)
        ):
            return ranked(f, prepared, vector)
        return rank_order(f, q, embedder, schema, vector)[0]

    return summarize_facts(
        facts,
        query,
        rank=rank,
        max_facts=max_facts,
        max_chars=settings.memory_summary_max_chars,
    )


__all__ = ["Embedding", "Known", "embedding_of", "prepare", "summarize"]
