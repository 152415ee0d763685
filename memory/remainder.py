"""What stays of a multi-choice slot fact when a newer one contradicts part of it."""

from __future__ import annotations

import dataclasses
import uuid

from memory.embedding import Embedder
from memory.profile import ProfileSchema
from memory.store import StoredItem, Tx, utcnow


def keep_remainder(
    schema: ProfileSchema,
    embedder: Embedder,
    tx: Tx,
    current: list[StoredItem],
    old: StoredItem,
    contradicted: set[str],
) -> None:
    """ "I prefer China Eastern" contradicts only MU of "I avoid Air China and China
    Eastern": the Air China part stays remembered, as a fact of its own."""
    assert old.item.slot is not None
    rest = tuple(sorted(set(old.item.value or ()) - contradicted))
    if not rest:
        return
    text = schema.render(old.item.slot, rest, old.item.lang)
    if old.item.scope:  # the rest keeps its scope, in words too ("上海：避免入住汉庭")
        label = schema.scope_label(old.item.scope, old.item.lang)
        text = f"{label}{'：' if old.item.lang == 'zh' else ': '}{text}"
    text = text[:1].upper() + text[1:]
    vector = embedder.embed_passages([text])[0]
    item = dataclasses.replace(
        old.item, id=uuid.uuid4().hex, text=text, value=rest, created_at=utcnow()
    )
    tx.insert(item, vector, embedder.name)
    current.append(StoredItem(item, vector, embedder.name))
