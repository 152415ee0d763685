"""Value types returned by the memory API."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

Status = Literal["added", "updated", "duplicate", "rejected"]
Polarity = Literal["must", "prefer", "avoid"]
RecallStatus = Literal["ok", "empty", "unavailable"]


@dataclass(frozen=True, slots=True)
class RecordOutcome:
    """What happened to one fact passed to `Memory.record`."""

    text: str
    status: Status
    reason: str = ""
    item_id: str | None = None
    replaced_ids: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Recall:
    """What `Memory.recall` found: the summary, and whether memory could be read.

    `status` is "ok" (a summary), "empty" (nothing is remembered for this person) or
    "unavailable" (the store could not be read and nothing was cached: the person's
    preferences are unknown right now, which is not the same as having none).
    `cached` says the answer came from the cache, without the store.
    """

    summary: str
    status: RecallStatus
    cached: bool = False


@dataclass(frozen=True, slots=True)
class MemoryItem:
    """One remembered fact, current or superseded."""

    id: str
    namespace: str
    text: str
    source: str
    created_at: datetime
    slot: str | None = None
    value: Any = None
    polarity: Polarity | None = None
    lang: str = "en"
    invalid_at: datetime | None = None
    superseded_by: str | None = None
    invalid_reason: str = ""
    score: float = 0.0

    @property
    def current(self) -> bool:
        return self.invalid_at is None


@dataclass(frozen=True, slots=True)
class SlotMatch:
    """A typed profile slot recognised in a fact."""

    slot: str
    value: Any
    polarity: Polarity
    extra: dict[str, Any] = field(default_factory=dict)
