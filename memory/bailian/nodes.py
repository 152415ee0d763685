"""Reading Bailian's answers: memory nodes and user profiles, leniently, one entity only.

The API has two generations of documentation whose fields differ a little, so every
field is optional here: an entry without an id or a text is skipped, timestamps may be
seconds or milliseconds, `memory_nodes` may be a list or (as some answers of `add` are)
one object.

Namespaces are walls: an entry that names a `user_id` other than the one asked for is
dropped (and counted, and logged without its text), whatever the service sent. Deleted
nodes (`status` "delete") and skill memories are not preferences and are dropped too.

A `Snapshot` (every current node of a traveller and their profile attributes) is what
the Redis cache keeps in its `facts` field for this backend; `pack`/`unpack` write and
read it (`LTMB`, a version byte, then JSON; anything else reads as a miss).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

log = logging.getLogger(__name__)

_DELETED = frozenset({"delete", "deleted", "invalid"})
_NOT_PREFERENCES = frozenset({"skill", "custom_skill"})
_MAGIC = b"LTMB"
_VERSION = 1


@dataclass(frozen=True, slots=True)
class Node:
    """One memory node (记忆片段) of one traveller."""

    id: str
    content: str
    created_at: datetime
    source: str = "bailian"
    score: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "content": self.content,
            "created_at": int(self.created_at.timestamp()),
            "source": self.source,
        }


@dataclass(frozen=True, slots=True)
class Snapshot:
    """All of a traveller's current nodes (newest first) and profile attributes."""

    nodes: tuple[Node, ...]
    profile: Mapping[str, str]

    def __bool__(self) -> bool:
        return bool(self.nodes or self.profile)


def read_nodes(data: Mapping[str, Any], user_id: str, field: str = "memory_nodes") -> list[Node]:
    """The nodes of `user_id` in an answer, in the order sent."""
    raw = data.get(field)
    entries: Iterable[Any] = [raw] if isinstance(raw, dict) else raw or []
    if not isinstance(entries, list):
        return []
    out: list[Node] = []
    foreign = 0
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        owner = entry.get("user_id")
        if owner is not None and owner != user_id:
            foreign += 1
            continue
        node_id, content = entry.get("memory_node_id"), entry.get("content")
        if not isinstance(node_id, str) or not node_id or not isinstance(content, str):
            continue
        if str(entry.get("status") or "").lower() in _DELETED:
            continue
        if str(entry.get("memory_type") or "").lower() in _NOT_PREFERENCES:
            continue
        if not content.strip():
            continue
        meta = entry.get("meta_data")
        source = meta.get("source") if isinstance(meta, dict) else None
        out.append(
            Node(
                id=node_id,
                content=content.strip(),
                created_at=_moment(entry.get("created_at"), entry.get("updated_at")),
                source=source if isinstance(source, str) and source else "bailian",
                score=_score(entry.get("score")),
            )
        )
    if foreign:
        log.warning(
            "bailian answered with %d node(s) of another memory entity; dropped them", foreign
        )
    return out


def read_profile(data: Mapping[str, Any]) -> dict[str, str]:
    """Attribute name -> value of a `user_profile` answer; attributes without a value
    (not extracted yet) are left out."""
    profile = data.get("profile")
    attributes = profile.get("attributes") if isinstance(profile, dict) else None
    out: dict[str, str] = {}
    for attribute in attributes if isinstance(attributes, list) else []:
        if not isinstance(attribute, dict):
            continue
        name, value = attribute.get("name"), attribute.get("value")
        if value is None and isinstance(attribute.get("value_items"), list):
            items = [i.get("value") for i in attribute["value_items"] if isinstance(i, dict)]
            value = "; ".join(v for v in items if isinstance(v, str) and v.strip())
        if isinstance(name, str) and name and isinstance(value, str) and value.strip():
            out[name] = value.strip()
    return out


def pack(snapshot: Snapshot) -> bytes:
    body = {
        "nodes": [node.to_json() for node in snapshot.nodes],
        "profile": dict(snapshot.profile),
    }
    return _MAGIC + bytes([_VERSION]) + json.dumps(body, ensure_ascii=False).encode("utf-8")


def unpack(data: bytes) -> Snapshot | None:
    """The snapshot `pack` wrote; None for anything else (another backend's or version's)."""
    if not data.startswith(_MAGIC) or data[len(_MAGIC) : len(_MAGIC) + 1] != bytes([_VERSION]):
        return None
    try:
        body = json.loads(data[len(_MAGIC) + 1 :])
        nodes = tuple(
            Node(
                id=str(n["id"]),
                content=str(n["content"]),
                created_at=datetime.fromtimestamp(int(n["created_at"]), UTC),
                source=str(n["source"]),
            )
            for n in body["nodes"]
        )
        profile = {str(k): str(v) for k, v in dict(body["profile"]).items()}
    except (ValueError, KeyError, TypeError):
        return None
    return Snapshot(nodes, profile)


def _moment(*values: Any) -> datetime:
    """The first usable Unix time among `values` (seconds, or milliseconds), else now."""
    for value in values:
        try:
            number = float(value)
        except (TypeError, ValueError):
            continue
        if number <= 0:
            continue
        if number > 1e12:
            number /= 1000
        try:
            return datetime.fromtimestamp(number, UTC)
        except (OverflowError, OSError, ValueError):
            continue
    return datetime.now(UTC)


def _score(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


__all__ = ["Node", "Snapshot", "pack", "read_nodes", "read_profile", "unpack"]
