"""`Memory`: the per-namespace, semantic, cached long-term memory of travel preferences."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from memory.cache import FACTS, PreferenceCache, general_field, query_field
from memory.conflicts import ConflictJudge
from memory.decision import Candidate, FactDecider
from memory.decision_judge import consult_judge
from memory.embedding import Embedder, Vector
from memory.errors import InvalidNamespace, InvalidSlotValue, MemoryEngineError, StoreUnavailable
from memory.facts import Facts, pack, unpack
from memory.intake import check_namespace as _check_namespace
from memory.intake import clean_text, screen
from memory.lang import Lang, detect_lang
from memory.migrations import MEMORY_MIGRATIONS, migrate
from memory.privacy.guard import PrivacyGuard
from memory.profile import ProfileSchema
from memory.profile_write import write_profile
from memory.protocol import WarmState
from memory.ranking import PreparedRequest, rank_facts
from memory.recall_steps import Embedding, embedding_of, prepare, summarize
from memory.redelivery import write_and_invalidate
from memory.settings import MemorySettings
from memory.store import Store, StoredItem, Tx
from memory.subjects import Subjects, load_subjects
from memory.types import MemoryItem, Recall, RecordOutcome, ScopedValue
from memory.views import export_document, profile_of, scoped_of

log = logging.getLogger(__name__)


class Memory:
    """Synchronous and thread-safe; see `open_memory` for the usual way to build one."""

    def __init__(
        self,
        *,
        store: Store,
        cache: PreferenceCache,
        embedder: Embedder,
        schema: ProfileSchema,
        settings: MemorySettings,
        judge: ConflictJudge | None = None,
        guard: PrivacyGuard | None = None,
    ) -> None:
        self.store = store
        self.cache = cache
        self.embedder = embedder
        self.schema = schema
        self.settings = settings
        self.judge = judge
        self.guard = guard or PrivacyGuard()
        self._decider = FactDecider(schema=schema, embedder=embedder)
        self._schema_ready = False
        self._schema_lock = threading.Lock()
        self._filler_pool: ThreadPoolExecutor | None = None
        self._filler_lock = threading.Lock()

    # -- plumbing ---------------------------------------------------------------------

    def _ready(self) -> None:
        """Bring the database schema up to date on first use (retried until it works).

        One thread migrates; the others wait for it as long as for a database lock
        (`sqlite_busy_timeout_seconds`), then fail as unavailable instead of queueing.
        """
        if self._schema_ready:
            return
        if not self._schema_lock.acquire(timeout=self.settings.sqlite_busy_timeout_seconds):
            raise StoreUnavailable("the memory schema is being prepared; try again shortly")
        try:
            if not self._schema_ready:
                migrate(self.store.backend, "memory", MEMORY_MIGRATIONS)
                self._schema_ready = True
        finally:
            self._schema_lock.release()

    def _current(self, namespace: str) -> list[StoredItem]:
        self._ready()
        current = self.store.current(namespace)
        stale = [s for s in current if s.embedding_model != self.embedder.name]
        if stale:
            # Embedded before the write: PostgreSQL cuts off a transaction that runs long.
            vectors = self.embedder.embed_passages([s.item.text for s in stale])
            self.store.write(namespace, lambda tx: self._refresh(tx, current, vectors))
        return current

    def _refresh(
        self, tx: Tx, current: Sequence[StoredItem], vectors: Vector | None = None
    ) -> None:
        """Re-embed facts stored by another embedding model (once, after a switch);
        `vectors`: those of the stale facts of `current`, already embedded."""
        stale = [s for s in current if s.embedding_model != self.embedder.name]
        if not stale:
            return
        if vectors is None:
            vectors = self.embedder.embed_passages([s.item.text for s in stale])
        for stored, vector in zip(stale, vectors, strict=True):
            tx.set_embedding(stored.item.id, vector, self.embedder.name)
            stored.embedding, stored.embedding_model = vector, self.embedder.name

    # -- writing ------------------------------------------------------------------------

    def record(
        self, namespace: str, facts: Iterable[str] | str, source: str = "chat"
    ) -> list[RecordOutcome]:
        """Remember each fact; one outcome per fact, in order.

        Raises `StoreUnavailable` when the database cannot take the write (nothing is
        half-written: the facts of one call commit together).
        """
        namespace = _check_namespace(namespace)
        facts = [facts] if isinstance(facts, str) else list(facts)
        # The privacy guard sees the call's facts together (pieces of one number) and, only
        # when a fact offers such a piece, the person's stored facts.
        outcomes, accepted = screen(
            facts,
            limits=self.settings,
            guard=self.guard,
            stored=lambda: [s.item.text for s in self._current(namespace)],
        )
        if accepted:
            for outcome in self._write_facts(namespace, accepted, source):
                outcomes[outcome[0]] = outcome[1]
        return [o for o in outcomes if o is not None]

    def _write_facts(
        self, namespace: str, accepted: Sequence[tuple[int, str]], source: str
    ) -> list[tuple[int, RecordOutcome]]:
        self._ready()
        vectors = self.embedder.embed_passages([text for _, text in accepted])
        candidates = [
            Candidate(i, text, detect_lang(text), vec, self._decider.slot(text))
            for (i, text), vec in zip(accepted, vectors, strict=True)
        ]
        self._decider.warm_aspects([text for _, text in accepted])
        if self.judge is not None:
            self._consult_judge(namespace, candidates)

        def work(tx: Tx) -> list[tuple[int, RecordOutcome]]:
            current = tx.current()
            self._refresh(tx, current)
            limit = self.settings.memory_max_facts_per_namespace
            decide = self._decider.decide
            return [(c.index, decide(tx, current, c, source, limit)) for c in candidates]

        def changed(results: list[tuple[int, RecordOutcome]]) -> bool:
            return any(o.status in ("added", "updated") for _, o in results)

        return write_and_invalidate(self.store, self.cache, namespace, work, changed)

    def _consult_judge(self, namespace: str, candidates: Sequence[Candidate]) -> None:
        """Ask the fast model about changes of mind, outside the write lock."""
        assert self.judge is not None
        current, changes = self._current(namespace), self._decider.changes
        consult_judge(self.judge, self.schema, current, candidates, changes=changes)

    def update_profile(
        self,
        namespace: str,
        values: Mapping[str, object],
        source: str = "form",
        lang: Lang | None = None,
    ) -> list[RecordOutcome]:
        """Set or clear (None) typed slots' general values; a new value supersedes the slot's
        old general facts. Scoped facts ("on trains: window") are neither replaced nor
        cleared here: they are changed by saying so, or forgotten one by one."""
        return write_profile(self, _check_namespace(namespace), values, source, lang)

    def forget(self, namespace: str, item_id: str | None = None) -> int:
        """Erase one fact (and the versions it replaced) or everything; returns how many."""
        namespace = _check_namespace(namespace)
        if item_id is not None and (not isinstance(item_id, str) or clean_text(item_id) != item_id):
            return 0  # no fact has such an id (ours are hex)
        self._ready()
        erase = partial(Tx.forget, item_id=item_id)
        return write_and_invalidate(self.store, self.cache, namespace, erase)

    # -- reading ------------------------------------------------------------------------

    def items(self, namespace: str) -> list[MemoryItem]:
        """Every current fact, newest first."""
        namespace = _check_namespace(namespace)
        return [s.item for s in reversed(self._current(namespace))]

    def search(self, namespace: str, query: str, limit: int = 5) -> list[MemoryItem]:
        """Current facts ranked by meaning; `.score` is the relevance (`memory/ranking.py`)."""
        namespace = _check_namespace(namespace)
        limit = max(1, min(int(limit), 50))
        query = clean_text(query) if isinstance(query, str) else ""
        if not query.strip():
            return []
        return self._rank(Facts.from_stored(self._current(namespace)), query, limit)

    def _rank(self, facts: Facts, query: str, limit: int | None = None) -> list[MemoryItem]:
        """The best `limit` facts (all by default), best first, with their scores; `facts`
        come from the store or from the cache, ranked alike."""
        return rank_facts(facts, query, self.embedder, self.schema, limit)

    def retrieve(self, namespace: str, query: str = "") -> str:
        """The budgeted preference summary for this query ("" when nothing is remembered).

        Never raises for an unavailable store or cache: recall degrades to "". Use
        `recall` to tell "nothing remembered" from "memory could not be read".
        """
        return self.recall(namespace, query).summary

    def recall(self, namespace: str, query: str = "") -> Recall:
        """The summary `retrieve` gives, and whether memory could be read at all.

        Never raises for an unavailable store or cache: a store that cannot be read
        while nothing is cached gives status "unavailable" and an empty summary. A
        string that is no namespace (`InvalidNamespace` for a write) has nothing
        remembered: "empty". The query is repaired first (`memory.intake.clean_text`).
        """
        try:
            namespace = _check_namespace(namespace)
        except InvalidNamespace as exc:
            log.warning("recall for an invalid namespace: %s", exc)
            return Recall("", "empty")
        try:
            return self._recall(namespace, clean_text(query) if query else "")[0]
        except MemoryEngineError as exc:
            log.warning("recall failed, answering without memory: %s", exc)
            return Recall("", "unavailable")

    def warm(self, namespace: str) -> WarmState:
        """Cache the namespace's facts (and its general summary), and say what happened.

        After it, until the TTL ends or a write, a recall for any request is answered
        without the store. "cached": already there; "warmed": filled with the normal
        TTL; "empty": nothing is remembered, so nothing is cached; "unfilled": a write
        raced the fill or Redis refused it. Unlike `retrieve`, a failed store raises
        `MemoryEngineError` (`StoreUnavailable`), so the scheduler can count the failure.
        """
        namespace = _check_namespace(namespace)
        if self.cache.has_facts(namespace):
            return "cached"
        return self._recall(namespace, "", use_cached=False)[1]

    def _recall(
        self, namespace: str, query: str, *, use_cached: bool = True
    ) -> tuple[Recall, WarmState]:
        """Cache first (a summary, else the cached facts ranked here); on a miss, the
        store's facts, which fill the cache with themselves and the summary (raises on
        failure)."""
        own = query_field(query)
        generation = None
        # The request is embedded while the cache (and on a miss, the store) is read: a
        # recall that ranks costs its embedding and little more (on a cached summary the
        # vector is not needed; the embedder keeps it for the next time).
        embedding = embedding_of(self.embedder, query, self._filler) if query.strip() else None
        if use_cached:
            found = self.cache.lookup(namespace, [own])
            if found.summary is not None:
                return Recall(found.summary, "ok", cached=True), "cached"
            generation = found.generation
            if found.facts is not None:
                facts = unpack(found.facts, namespace, self.embedder.name)
                if facts is not None:
                    prepared = self._prepare(facts, query, embedding)
                    summary, lang, general = self._summarize(facts, query, embedding, prepared)
                    answers = self._summary_fields(own, lang, general, summary)
                    self.cache.fill_later(namespace, answers, generation)
                    return Recall(summary, "ok" if summary else "empty", cached=True), "cached"
                self.cache.missed()
        else:
            generation = self.cache.generation(namespace)
        facts = Facts.from_stored(self._current(namespace))
        if not facts:
            return Recall("", "empty"), "empty"
        if not query.strip() or not self.cache.enabled or generation is None:
            prepared = self._prepare(facts, query, embedding)
            summary, lang, general = self._summarize(facts, query, embedding, prepared)
            if generation is None:  # nothing may be filled: no need to pack
                return Recall(summary, "ok"), "unfilled"
            values = {FACTS: self._pack(facts)}
            values.update(self._summary_fields(own, lang, general, summary))
            filled = self.cache.fill(namespace, values, generation)
            return Recall(summary, "ok"), "warmed" if filled else "unfilled"
        # While the request is embedded and ranked (the model releases the GIL), another
        # thread packs the facts and caches them: a miss costs its embedding and little
        # more. The facts are cached before the answer, so the next recall finds them;
        # the summary is cached in the background, as after a recall from cached facts.
        # What ranking reads of each fact is derived first (while the request is still
        # being embedded), once for both: packing keeps it in the entry.
        prepared = self._prepare(facts, query, embedding)
        caching = self._filler().submit(self._cache_facts, namespace, facts, generation)
        try:
            summary, lang, general = self._summarize(facts, query, embedding, prepared)
        finally:
            filled = caching.result()
        if filled:
            answers = self._summary_fields(own, lang, general, summary)
            self.cache.fill_later(namespace, answers, generation)
        return Recall(summary, "ok"), "warmed" if filled else "unfilled"

    def _prepare(
        self, facts: Facts, query: str, embedding: Embedding | None
    ) -> PreparedRequest | None:
        """What ranking and summarising need besides the request's vector, made while the
        request is still being embedded (on another thread): `memory.recall_steps`."""
        return prepare(facts, query, self.embedder, self.schema, embedding)

    def _cache_facts(self, namespace: str, facts: Facts, generation: str) -> bool:
        return self.cache.fill(namespace, {FACTS: self._pack(facts)}, generation)

    def _pack(self, facts: Facts) -> bytes:
        """The facts' cache value, with what ranking reads of them (`memory.features`)."""
        return pack(facts, self.embedder.name, self._subjects())

    def _subjects(self) -> Subjects:
        return load_subjects(schema=self.schema)

    def _filler(self) -> ThreadPoolExecutor:
        with self._filler_lock:
            if self._filler_pool is None:
                self._filler_pool = ThreadPoolExecutor(8, thread_name_prefix="ltm-recall")
            return self._filler_pool

    @staticmethod
    def _summary_fields(own: str, lang: Lang, general: bool, summary: str) -> dict[str, bytes]:
        """The cache fields a summary answers: its own request, and when it is the same
        for every request, every request in its language."""
        value = summary.encode("utf-8")
        return {own: value, general_field(lang): value} if general else {own: value}

    def _summarize(
        self,
        facts: Facts,
        query: str,
        embedding: Embedding | None = None,
        prepared: PreparedRequest | None = None,
    ) -> tuple[str, Lang, bool]:
        return summarize(
            facts,
            query,
            embedder=self.embedder,
            schema=self.schema,
            settings=self.settings,
            embedding=embedding,
            prepared=prepared,
        )

    def profile(self, namespace: str) -> dict[str, Any]:
        """The structured profile: slot -> option id (single) or list of ids (multi).

        General values only: a value limited to a scope ("on trains I like a window
        seat") never stands in for the slot's general value; see `scoped_profile`.
        """
        namespace = _check_namespace(namespace)
        return self._profile_of(self._current(namespace))

    def scoped_profile(self, namespace: str) -> list[ScopedValue]:
        """The slot values limited to a scope, oldest first, beside `profile`'s general ones."""
        namespace = _check_namespace(namespace)
        return self._scoped_of(self._current(namespace))

    def _scoped_of(self, current: Sequence[StoredItem]) -> list[ScopedValue]:
        return scoped_of(self.schema, current)

    def _profile_of(self, current: Sequence[StoredItem]) -> dict[str, Any]:
        return profile_of(self.schema, current)

    def _check_exclusive(self, profile: Mapping[str, Any]) -> None:
        """An option may not be both preferred and avoided (e.g. an airline)."""
        for clash in self.schema.clashes(profile):
            both = ", ".join(sorted(clash.options))
            raise InvalidSlotValue(f"{both} cannot be in both {clash.slot} and {clash.other}")

    def export(self, namespace: str) -> dict[str, Any]:
        """Everything kept for a namespace, superseded history included, as plain JSON."""
        namespace = _check_namespace(namespace)
        self._ready()
        history = self.store.history(namespace)
        return export_document(self.schema, namespace, history, self._current(namespace))

    def health(self) -> dict[str, bool]:
        return {"database": self.store.ping(), "redis": self.cache.ping()}

    def close(self) -> None:
        with self._filler_lock:
            pool, self._filler_pool = self._filler_pool, None
        if pool is not None:
            pool.shutdown(wait=True)
        self.cache.flush()
        self.store.close()


__all__ = ["Memory", "StoreUnavailable"]
