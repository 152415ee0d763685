"""Bailian's nodes and profile as our facts, profile and summary.

Nodes become `MemoryItem`s read by the same slot and scope detection as facts we store
ourselves (`ProfileSchema.detect`), so a node saying "用户出差只坐高铁一等座" is a typed,
hard constraint. Profile attributes (read through `ProfileMapping`) become typed items
rendered in the request's language ("偏好过道座位"), unless a node already says the same.

The summary is built as the engine builds it (`memory.summary.summarize`): typed facts
first, then the free-text ones in the service's relevance order (or newest first for the
whole profile), hard constraints before everything, within the same budget, joined in
the request's language; nodes keep the words the service stored them in.

The general profile (`profile()`) is the slots the nodes set, latest first, overlaid by
the service's profile where it has a value: Bailian's profile is what the typed slots map
to. Values limited to a scope ("on trains I like a window seat") come from nodes only.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from memory.bailian.nodes import Node, Snapshot
from memory.bailian.schema import ProfileMapping
from memory.errors import InvalidSlotValue
from memory.lang import Lang, detect_lang, dominant_lang
from memory.profile import ProfileSchema
from memory.settings import MemorySettings
from memory.summary import summarize
from memory.types import MemoryItem, ScopedValue, SlotMatch

_EPOCH = datetime.fromtimestamp(0, UTC)


class FactReader:
    """Stateless apart from a cache of slot detections (by text)."""

    def __init__(self, schema: ProfileSchema, settings: MemorySettings) -> None:
        self.schema = schema
        self.mapping = ProfileMapping(schema)
        self.settings = settings
        self._detect = functools.lru_cache(maxsize=8192)(schema.detect)

    # -- items --------------------------------------------------------------------------

    def item(self, namespace: str, node: Node) -> MemoryItem:
        found: SlotMatch | None = self._detect(node.content)
        return MemoryItem(
            id=node.id,
            namespace=namespace,
            text=node.content,
            source=node.source,
            created_at=node.created_at,
            slot=found.slot if found else None,
            value=found.value if found else None,
            polarity=found.polarity if found else None,
            lang=detect_lang(node.content),
            score=node.score,
            scope=found.scope if found else None,
        )

    def items(self, namespace: str, nodes: Iterable[Node]) -> list[MemoryItem]:
        return [self.item(namespace, node) for node in nodes]

    def profile_items(
        self, namespace: str, profile: Mapping[str, str], lang: Lang, covered: Iterable[MemoryItem]
    ) -> list[MemoryItem]:
        """The service's profile as typed items in `lang`, leaving out the slot values a node
        already states; attributes that fit no option are kept as "name: value" text."""
        values, unplaced = self.mapping.read(profile)
        said = {(i.slot, _key(i.value)) for i in covered if i.slot and i.scope is None}
        out = []
        for slot in self.schema.slots:
            value = values.get(slot.id)
            if value is None or (slot.id, _key(value)) in said:
                continue
            text = self.schema.render(slot.id, value, lang)
            out.append(
                MemoryItem(
                    id=f"profile:{slot.id}",
                    namespace=namespace,
                    text=text[:1].upper() + text[1:],
                    source="bailian-profile",
                    created_at=_EPOCH,
                    slot=slot.id,
                    value=value,
                    polarity=self.schema.polarity(slot.id, value),
                    lang=lang,
                )
            )
        colon = "：" if lang == "zh" else ": "
        for name, raw in unplaced.items():
            out.append(
                MemoryItem(
                    id=f"profile:{name}",
                    namespace=namespace,
                    text=f"{name}{colon}{raw}",
                    source="bailian-profile",
                    created_at=_EPOCH,
                    lang=detect_lang(raw),
                )
            )
        return out

    # -- summaries ----------------------------------------------------------------------

    def summary(
        self,
        namespace: str,
        nodes: Sequence[Node],
        profile: Mapping[str, str],
        query: str,
        *,
        complete: bool,
        lang: Lang | None = None,
    ) -> tuple[str, Lang, bool]:
        """(summary, its language, whether it fits every request).

        `nodes` are in the order to use (relevance, or newest first); `complete` says they
        are all of the traveller's nodes, so a summary holding all of them is general.
        """
        items = self.items(namespace, nodes)
        if lang is None:
            texts = [i.text for i in items] or list(profile.values())
            lang = detect_lang(query) if query.strip() else dominant_lang(texts)
        typed = self.profile_items(namespace, profile, lang, items)
        seen: set[str] = set()
        unique = []
        for item in typed + items:
            key = " ".join(item.text.split()).casefold()
            if key not in seen:
                seen.add(key)
                unique.append(item)
        if not unique:
            return "", lang, True
        s = self.settings
        if complete and len(unique) <= s.memory_summary_max_facts:
            everything = summarize(unique, max_facts=len(unique), max_chars=10**9)
            if len(everything) <= s.memory_summary_max_chars:
                return everything, lang, True
        slots = [i for i in unique if i.slot is not None]
        free = [i for i in unique if i.slot is None]
        text = summarize(
            slots + free,
            max_facts=s.memory_summary_max_facts,
            max_chars=s.memory_summary_max_chars,
        )
        return text, lang, False

    # -- the typed profile --------------------------------------------------------------

    def profile(self, nodes: Sequence[Node], profile: Mapping[str, str]) -> dict[str, Any]:
        """Slot -> option id (single) or sorted list of ids (multi), general values only."""
        out: dict[str, Any] = {}
        for item in self.items("", sorted(nodes, key=lambda n: n.created_at)):
            if item.slot is None or item.scope is not None or not self._known(item.slot):
                continue
            if self.schema.slot(item.slot).kind == "multi":
                out[item.slot] = sorted(set(out.get(item.slot, [])) | set(item.value or ()))
            else:
                out[item.slot] = item.value
        values, _ = self.mapping.read(profile)
        for slot_id, value in values.items():
            out[slot_id] = list(value) if isinstance(value, tuple) else value
        return out

    def scoped(self, namespace: str, nodes: Sequence[Node]) -> list[ScopedValue]:
        """Slot values limited to a scope, oldest first (from the nodes' own words)."""
        out = []
        for item in self.items(namespace, sorted(nodes, key=lambda n: n.created_at)):
            if item.slot is None or item.scope is None or not self._known(item.slot):
                continue
            label = self.schema.scope_label(item.scope, item.lang)
            polarity = item.polarity or "prefer"
            out.append(
                ScopedValue(item.slot, item.value, polarity, item.scope, label, item.text, item.id)
            )
        return out

    def setting(self, nodes: Sequence[Node], slot_id: str) -> list[str]:
        """The ids of the nodes that state `slot_id`'s general value (replaced by the form)."""
        ids = []
        for node in nodes:
            found = self._detect(node.content)
            if found is not None and found.slot == slot_id and found.scope is None:
                ids.append(node.id)
        return ids

    def export(self, namespace: str, snapshot: Snapshot) -> dict[str, Any]:
        """`Memory.export`'s shape; every item current (Bailian keeps no history)."""
        return {
            "namespace": namespace,
            "exported_at": datetime.now(UTC).isoformat(),
            "store": "bailian",
            "profile": self.profile(snapshot.nodes, snapshot.profile),
            "service_profile": dict(snapshot.profile),
            "scoped_profile": [
                {
                    "slot": v.slot,
                    "value": _plain(v.value),
                    "scope": v.scope,
                    "scope_label": v.label,
                    "text": v.text,
                    "id": v.item_id,
                }
                for v in self.scoped(namespace, snapshot.nodes)
            ],
            "items": [
                {
                    "id": item.id,
                    "text": item.text,
                    "lang": item.lang,
                    "source": item.source,
                    "slot": item.slot,
                    "value": _plain(item.value),
                    "polarity": item.polarity,
                    "scope": item.scope,
                    "scope_label": self.schema.scope_label(item.scope, item.lang) or None,
                    "created_at": item.created_at.isoformat(),
                    "current": True,
                    "invalid_at": None,
                    "superseded_by": None,
                    "invalid_reason": "",
                }
                for item in self.items(namespace, snapshot.nodes)
            ],
        }

    def _known(self, slot_id: str) -> bool:
        try:
            self.schema.slot(slot_id)
        except InvalidSlotValue:
            return False
        return True


def _plain(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


def _key(value: object) -> object:
    return tuple(sorted(value)) if isinstance(value, list | tuple) else value


__all__ = ["FactReader"]
