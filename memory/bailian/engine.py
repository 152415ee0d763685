"""`BailianMemory`: the memory API with Bailian's memory library as the store.

Bailian stores, extracts and searches; in front of it the same parts as the engine's:

- the privacy guard and the fact checks (`memory.intake.screen`) before every write, and
  sensitive spans of a recall request redacted before it is sent: a refused fact never
  leaves the machine;
- the Redis cache (`PreferenceCache`: summaries per request, the generation guard, the
  invalidation), filled from Bailian's answers; its `facts` field holds a snapshot of
  every node and the profile (`nodes.Snapshot`), written by `warm` and by a whole-profile
  recall, so the summary of a traveller whose facts all fit the budget costs no call;
- the summary (`facts.FactReader`) built as the engine builds it.

Writes are accepted by the service and extracted in the background: the cache is
invalidated on acceptance and again when the extraction is visible
(`visibility.WriteFollower`). Namespaces are walls: `user_id` is the namespace
(`target.user_id`) on every call, answers are filtered by it where they carry it, and a
node is only ever deleted after it was listed as the traveller's own.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Mapping
from typing import Any

from memory.bailian.client import JSON
from memory.bailian.errors import BailianBadResponse, BailianError
from memory.bailian.facts import FactReader
from memory.bailian.nodes import pack, unpack
from memory.bailian.store import BailianStore
from memory.bailian.visibility import WriteFollower
from memory.cache import FACTS, PreferenceCache, general_field, query_field
from memory.errors import InvalidNamespace, InvalidSlotValue, MemoryEngineError
from memory.intake import check_namespace, clean_text, screen
from memory.lang import Lang, detect_lang, dominant_lang
from memory.privacy.guard import PrivacyGuard
from memory.profile import ProfileSchema
from memory.protocol import WarmState
from memory.settings import MemorySettings
from memory.types import MemoryItem, Recall, RecordOutcome, ScopedValue

log = logging.getLogger(__name__)

_LANGS: tuple[Lang, ...] = ("en", "zh")
_HEALTH_SECONDS = 15.0


class BailianMemory:
    """Synchronous and thread-safe, like `memory.engine.Memory`; built by `open_memory`."""

    def __init__(
        self,
        *,
        store: BailianStore,
        cache: PreferenceCache,
        schema: ProfileSchema,
        settings: MemorySettings,
        guard: PrivacyGuard | None = None,
    ) -> None:
        self.store = store
        self.cache = cache
        self.schema = schema
        self.settings = settings
        self.guard = guard or PrivacyGuard()
        self.reader = FactReader(schema, settings)
        self.follower = WriteFollower(
            poll=store.event_state,
            invalidate=cache.invalidate,
            poll_seconds=settings.bailian_event_poll_seconds,
            timeout_seconds=settings.bailian_event_timeout_seconds,
        )
        self._health: tuple[float, bool] = (0.0, False)

    # -- writing ------------------------------------------------------------------------

    def record(
        self, namespace: str, facts: Iterable[str] | str, source: str = "chat"
    ) -> list[RecordOutcome]:
        """Checks and the privacy guard here, then one add call for the accepted facts.

        "added" means the service accepted the fact (extraction runs in the background);
        raises `StoreUnavailable` (a `BailianError`) when it did not: nothing was saved.
        """
        namespace = check_namespace(namespace)
        facts = [facts] if isinstance(facts, str) else list(facts)
        outcomes, accepted = screen(
            facts,
            limits=self.settings,
            guard=self.guard,
            stored=lambda: [node.content for node in self.store.nodes(namespace)],
        )
        if accepted:
            texts = [text for _, text in accepted]
            added, _ = self._add(namespace, texts, source)
            for (index, _), outcome in zip(accepted, added, strict=True):
                outcomes[index] = outcome
        return [o for o in outcomes if o is not None]

    def _add(
        self, namespace: str, texts: list[str], source: str
    ) -> tuple[list[RecordOutcome], set[str]]:
        """Send, then invalidate on acceptance and follow the write until it shows.

        Returns the outcomes, and the ids of the nodes the service says it changed (a
        synchronous add only)."""
        wait = self.settings.bailian_write_mode == "sync"
        answer = self.store.add(namespace, texts, source, wait=wait)
        if wait:
            self.cache.invalidate(namespace)
            self.follower.follow_delay(namespace, self.settings.bailian_visibility_delay_seconds)
            changed = answer.get("memory_nodes")
            touched = {
                str(c["memory_node_id"])
                for c in (changed if isinstance(changed, list) else [])
                if isinstance(c, dict) and c.get("memory_node_id")
            }
            return _sync_outcomes(texts, answer), touched
        event_id = _event_id(answer)
        self.cache.invalidate(namespace)
        if event_id:
            self.follower.follow_event(namespace, event_id)
        else:
            self.follower.follow_delay(namespace, self.settings.bailian_visibility_delay_seconds)
        reason = "accepted; Bailian extracts it in the background"
        return [RecordOutcome(text, "added", reason) for text in texts], set()

    def update_profile(
        self,
        namespace: str,
        values: Mapping[str, object],
        source: str = "form",
        lang: Lang | None = None,
    ) -> list[RecordOutcome]:
        """Set or clear typed slots' general values, as far as the public API allows.

        The API has no call that sets a profile attribute, so the change is said to the
        service as a message ("Prefers an aisle seat.", "座位：不再有偏好。") for its
        extraction to take into the profile; once accepted, the nodes that stated the
        slot's old general value are deleted, so search and the list no longer offer it.
        """
        namespace = check_namespace(namespace)
        normal = {slot: self.schema.validate(slot, value) for slot, value in values.items()}
        nodes = self.store.nodes(namespace)
        current = self.reader.profile(nodes, self.store.profile(namespace))
        merged = {**current, **{k: v for k, v in normal.items() if v is not None}}
        for clash in self.schema.clashes(merged):
            both = ", ".join(sorted(clash.options))
            raise InvalidSlotValue(f"{both} cannot be in both {clash.slot} and {clash.other}")
        lang = lang or dominant_lang(node.content for node in nodes)
        changes, outcomes = [], []
        for slot, value in normal.items():
            before = current.get(slot)
            before = tuple(before) if isinstance(before, list) else before
            if value == before or (value is None and before is None):
                if value is not None:
                    text = self.reader.mapping.message(slot, value, lang)
                    outcomes.append(RecordOutcome(text, "duplicate", "unchanged"))
                continue
            changes.append((slot, value, self.reader.mapping.message(slot, value, lang)))
        if not changes:
            return outcomes
        texts = [text for _, _, text in changes]
        # Rendered from the schema's options, so never refused; checked all the same,
        # as nothing leaves the machine unchecked.
        if any(self.guard.check(texts)):
            raise InvalidSlotValue("the privacy guard refused a rendered profile value")
        _, touched = self._add(namespace, texts, source)
        # The old value's nodes go, unless the service just rewrote one into the new value.
        stale = {i for slot, _, _ in changes for i in self.reader.setting(nodes, slot)} - touched
        for node_id in stale:
            try:
                self.store.delete(node_id)
            except BailianError as exc:
                log.warning("could not delete a replaced Bailian node (%s)", type(exc).__name__)
        self.cache.invalidate(namespace)
        for slot, value, text in changes:
            if value is None:
                outcomes.append(RecordOutcome(slot, "updated", "cleared"))
            elif current.get(slot) is not None:
                outcomes.append(RecordOutcome(text, "updated", ""))
            else:
                outcomes.append(RecordOutcome(text, "added", ""))
        return outcomes

    def forget(self, namespace: str, item_id: str | None = None) -> int:
        """Delete one node of this traveller, or all of them; returns how many.

        Bailian deletes by node id without checking whose it is, so only ids listed as
        this traveller's are ever deleted. The public API has no call that clears a
        user's profile attributes: they stay until cleared in the Bailian console.
        """
        namespace = check_namespace(namespace)
        own = [node.id for node in self.store.nodes(namespace)]
        doomed = own if item_id is None else [i for i in own if i == item_id]
        count = sum(1 for node_id in doomed if self.store.delete(node_id))
        self.cache.invalidate(namespace)
        if item_id is None and self.store.profile_schema_id:
            log.info("forgot %d Bailian node(s); profile attributes stay in Bailian", count)
        return count

    # -- reading ------------------------------------------------------------------------

    def items(self, namespace: str) -> list[MemoryItem]:
        """Every current node, newest first."""
        namespace = check_namespace(namespace)
        return self.reader.items(namespace, self.store.nodes(namespace))

    def search(self, namespace: str, query: str, limit: int = 5) -> list[MemoryItem]:
        """Nodes ranked by Bailian's semantic search; `.score` is the service's."""
        namespace = check_namespace(namespace)
        limit = max(1, min(int(limit), 50))
        query = clean_text(query) if isinstance(query, str) else ""
        if not query.strip():
            return []
        return self.reader.items(namespace, self.store.search(namespace, query, limit))

    def retrieve(self, namespace: str, query: str = "") -> str:
        return self.recall(namespace, query).summary

    def recall(self, namespace: str, query: str = "") -> Recall:
        """Cache first, else Bailian; never raises for an unavailable service or cache."""
        try:
            namespace = check_namespace(namespace)
        except InvalidNamespace as exc:
            log.warning("recall for an invalid namespace: %s", exc)
            return Recall("", "empty")
        try:
            return self._recall(namespace, clean_text(query) if query else "")[0]
        except MemoryEngineError as exc:
            if not isinstance(exc, BailianError) or exc.status not in (401, 403):
                log.warning("recall failed, answering without memory: %s", exc)
            return Recall("", "unavailable")

    def warm(self, namespace: str) -> WarmState:
        """Cache the traveller's nodes, profile and whole-profile summary (see `Memory.warm`)."""
        namespace = check_namespace(namespace)
        if self.cache.has_facts(namespace):
            return "cached"
        return self._recall(namespace, "", use_cached=False)[1]

    def _recall(
        self, namespace: str, query: str, *, use_cached: bool = True
    ) -> tuple[Recall, WarmState]:
        asked = query.strip()
        own = query_field(query)
        generation = None
        snapshot = None
        if use_cached:
            fields = [own, general_field(detect_lang(query))] if asked else [own]
            found = self.cache.lookup(namespace, fields)
            if found.summary is not None:
                return Recall(found.summary, "ok", cached=True), "cached"
            generation = found.generation
            snapshot = unpack(found.facts) if found.facts is not None else None
            if found.facts is not None and snapshot is None:
                self.cache.missed()
        else:
            generation = self.cache.generation(namespace)
        if snapshot is not None:  # every node is known: a summary that fits needs no call
            summary, lang, general = "", detect_lang(query), False
            if not asked or len(snapshot.nodes) <= self.settings.memory_summary_max_facts:
                summary, lang, general = self.reader.summary(
                    namespace, snapshot.nodes, snapshot.profile, query, complete=True
                )
            if general or not asked:
                self.cache.fill_later(namespace, _fields(own, lang, general, summary), generation)
                return Recall(summary, "ok" if summary else "empty", cached=True), "cached"
            try:
                nodes = self.store.search(namespace, query, self.settings.bailian_top_k)
            except BailianError as exc:  # as the engine with its database down: the cache
                log.warning("bailian search failed; answering from the cached nodes: %s", exc)
                summary, _, _ = self.reader.summary(
                    namespace, snapshot.nodes, snapshot.profile, query, complete=False
                )
                return Recall(summary, "ok" if summary else "empty", cached=True), "cached"
            summary, lang, _ = self.reader.summary(
                namespace,
                nodes or snapshot.nodes,  # nothing relevant enough: the whole profile
                snapshot.profile,
                query,
                complete=False,
            )
            # As the engine does for summaries ranked from cached facts: stored by the
            # cache's background thread, so this request does not wait for it.
            self.cache.fill_later(namespace, {own: summary.encode("utf-8")}, generation)
            return Recall(summary, "ok" if summary else "empty"), "cached"
        if asked:
            nodes, profile = self.store.search_with_profile(
                namespace, query, self.settings.bailian_top_k
            )
            if nodes:
                summary, _, _ = self.reader.summary(
                    namespace, nodes, profile, query, complete=False
                )
                filled = self.cache.fill(namespace, {own: summary.encode("utf-8")}, generation)
                return Recall(summary, "ok"), "warmed" if filled else "unfilled"
            # Nothing relevant enough: the whole profile, as the engine ranks every fact.
        snapshot = self.store.snapshot(namespace)
        if not snapshot:
            return Recall("", "empty"), "empty"
        summary, lang, general = self.reader.summary(
            namespace, snapshot.nodes, snapshot.profile, query, complete=True
        )
        values = {FACTS: pack(snapshot), **_fields(own, lang, general, summary)}
        if general:  # the same for every request: joined in each language
            for other in _LANGS:
                if other != lang:
                    text, _, _ = self.reader.summary(
                        namespace, snapshot.nodes, snapshot.profile, "", complete=True, lang=other
                    )
                    values[general_field(other)] = text.encode("utf-8")
        filled = self.cache.fill(namespace, values, generation)
        return Recall(summary, "ok"), "warmed" if filled else "unfilled"

    def profile(self, namespace: str) -> dict[str, Any]:
        """Slot -> option id(s): the service's profile, and the slots its nodes state."""
        namespace = check_namespace(namespace)
        snapshot = self.store.snapshot(namespace)
        return self.reader.profile(snapshot.nodes, snapshot.profile)

    def scoped_profile(self, namespace: str) -> list[ScopedValue]:
        namespace = check_namespace(namespace)
        return self.reader.scoped(namespace, self.store.nodes(namespace))

    def export(self, namespace: str) -> dict[str, Any]:
        """Everything Bailian keeps for the traveller that the API lets us read, as JSON.

        Bailian replaces a memory in place when it changes, so there is no history:
        every item is current.
        """
        namespace = check_namespace(namespace)
        return self.reader.export(namespace, self.store.snapshot(namespace))

    def health(self) -> dict[str, bool]:
        """`database`: Bailian answers with this key (asked at most every 15 s)."""
        at, ok = self._health
        if time.monotonic() - at > _HEALTH_SECONDS:
            ok = self.store.ping()
            self._health = (time.monotonic(), ok)
        return {"database": ok, "bailian": ok, "redis": self.cache.ping()}

    def close(self) -> None:
        self.follower.close()  # may still invalidate: the journal closes after it
        self.store.close()
        self.cache.flush()
        if self.cache.journal is not None:
            self.cache.journal.close()


def _fields(own: str, lang: Lang, general: bool, summary: str) -> dict[str, bytes]:
    value = summary.encode("utf-8")
    return {own: value, general_field(lang): value} if general else {own: value}


def _event_id(answer: JSON) -> str:
    """The event of an accepted add-async; raises when every task of it already failed."""
    events = [e for e in answer.get("events") or [] if isinstance(e, dict)]
    if events and all(str(e.get("status") or "").upper() == "FAILED" for e in events):
        raise BailianBadResponse("Bailian accepted the write but its extraction failed")
    event_id = answer.get("event_id") or next((e.get("event_id") for e in events), None)
    return str(event_id) if event_id else ""


def _sync_outcomes(texts: list[str], answer: JSON) -> list[RecordOutcome]:
    """Outcomes of a synchronous add: its changes, attributed when there is one fact."""
    changes = [c for c in answer.get("memory_nodes") or [] if isinstance(c, dict)]
    if not changes:
        reason = "Bailian extracted nothing new (already remembered, or not kept as a memory)"
        return [RecordOutcome(text, "duplicate", reason) for text in texts]
    events = [str(c.get("event") or "ADD").upper() for c in changes]
    if len(texts) == 1:
        added = [c for c in changes if str(c.get("event") or "ADD").upper() == "ADD"]
        if added:
            node_id = added[0].get("memory_node_id")
            return [RecordOutcome(texts[0], "added", "", str(node_id) if node_id else None)]
        old = next((str(c.get("old_content") or "") for c in changes), "")
        return [RecordOutcome(texts[0], "updated", f"replaced: {old}" if old else "")]
    counts = ", ".join(f"{events.count(e)} {e.lower()}" for e in sorted(set(events)))
    return [RecordOutcome(text, "added", f"Bailian: {counts}") for text in texts]


__all__ = ["BailianMemory"]
