"""`Memory.update_profile`: typed slots set or cleared from the form, written the way a
change of mind is (the new fact supersedes the slot's general facts, history kept)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from memory.cache import PreferenceCache
from memory.embedding import Embedder
from memory.lang import Lang, dominant_lang
from memory.profile import ProfileSchema
from memory.redelivery import write_and_invalidate
from memory.store import Store, StoredItem, Tx, utcnow
from memory.types import MemoryItem, RecordOutcome


class Writer(Protocol):
    """What writing the profile uses of `memory.engine.Memory`."""

    schema: ProfileSchema
    embedder: Embedder
    store: Store
    cache: PreferenceCache

    def _current(self, namespace: str) -> list[StoredItem]: ...

    def _check_exclusive(self, profile: Mapping[str, Any]) -> None: ...

    def _profile_of(self, current: Sequence[StoredItem]) -> dict[str, Any]: ...


def write_profile(
    memory: Writer,
    namespace: str,
    values: Mapping[str, object],
    source: str,
    lang: Lang | None,
) -> list[RecordOutcome]:
    """Set or clear (None) the general values of typed slots of a checked `namespace`."""
    normal = {slot: memory.schema.validate(slot, value) for slot, value in values.items()}
    current_texts = [s.item.text for s in memory._current(namespace)]
    lang = lang or dominant_lang(current_texts)
    texts = {
        slot: memory.schema.render(slot, value, lang)
        for slot, value in normal.items()
        if value is not None
    }
    rendered = {slot: text[:1].upper() + text[1:] for slot, text in texts.items()}
    vectors = dict(
        zip(rendered, memory.embedder.embed_passages(list(rendered.values())), strict=True)
    )

    def work(tx: Tx) -> list[RecordOutcome]:
        current = tx.current()
        # Checked under the write lock, against the profile a concurrent write may
        # just have changed.
        memory._check_exclusive({**memory._profile_of(current), **normal})
        outcomes = []
        for slot, value in normal.items():
            same = [s for s in current if s.item.slot == slot and s.item.scope is None]
            if value is None:
                for s in same:
                    tx.supersede(s.item.id, by=None, reason=f"cleared ({source})", at=utcnow())
                if same:
                    outcomes.append(RecordOutcome(slot, "updated", "cleared"))
                continue
            polarity = memory.schema.polarity(slot, value)
            if len(same) == 1 and same[0].item.value == value and same[0].item.polarity == polarity:
                outcomes.append(
                    RecordOutcome(rendered[slot], "duplicate", "unchanged", same[0].item.id)
                )
                continue
            item = MemoryItem(
                id=uuid.uuid4().hex,
                namespace=namespace,
                text=rendered[slot],
                source=source,
                created_at=utcnow(),
                slot=slot,
                value=value,
                polarity=polarity,
                lang=lang,
            )
            tx.insert(item, vectors[slot], memory.embedder.name)
            for s in same:
                tx.supersede(
                    s.item.id,
                    by=item.id,
                    reason=f"replaced by: {item.text}",
                    at=item.created_at,
                )
            outcomes.append(RecordOutcome(item.text, "updated" if same else "added", "", item.id))
        return outcomes

    def changed(outcomes: list[RecordOutcome]) -> bool:
        return any(o.status in ("added", "updated") for o in outcomes)

    return write_and_invalidate(memory.store, memory.cache, namespace, work, changed)


__all__ = ["write_profile"]
