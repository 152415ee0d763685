"""What stays of a multi-choice slot fact when a newer one contradicts part of it."""

from __future__ import annotations

import dataclasses
import unicodedata
import uuid

from memory.embedding import Embedder
from memory.option_lists import without
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
    Eastern": the Air China part stays remembered, as a fact of its own, in the fact's
    own words where the options left were one list ("I only stay at Hyatt or Hilton",
    Hyatt given up: "I only stay at Hilton"; its "only" is what the agent plans with),
    else in the slot's ("Avoids Air China")."""
    assert old.item.slot is not None
    rest = tuple(sorted(set(old.item.value or ()) - contradicted))
    if not rest:
        return
    text = own_words(schema, old.item.text, old.item.slot, contradicted)
    if text is None:
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


def own_words(schema: ProfileSchema, text: str, slot: str, dropped: set[str]) -> str | None:
    """`text` with the `dropped` options of `slot` taken out of the list that names them,
    or None when the fact does not name them all in a list with an option that stays.
    The options are found in the NFKC form, the cut is made in the traveller's own
    characters ("我只坐东航或国航！" keeps its full-width "！")."""
    pieces = [unicodedata.normalize("NFKC", char) for char in text]
    origin = [i for i, piece in enumerate(pieces) for _ in piece] + [len(text)]
    found = schema.option_spans("".join(pieces), slot)
    gone = {i for i, (_, _, option) in enumerate(found) if option in dropped}
    if not gone or {found[i][2] for i in gone} != dropped & {o for _, _, o in found}:
        return None
    return without(text, [(origin[start], origin[end]) for start, end, _ in found], gone)
