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
    """What happened to one fact passed to `Memory.record`.

    A rejected fact's `text` is a masked preview (sensitive spans "[redacted]", at most 60
    characters), `reason` says why in English, and `code` says it for machines: a privacy
    category ("id", "card", "account", "secret", "phone", "amount", "instructions") or
    "too_long", "too_many", "empty", "no_content" ("ok", "x"), "control_chars", "not_text".
    """

    text: str
    status: Status
    reason: str = ""
    item_id: str | None = None
    replaced_ids: tuple[str, ...] = ()
    code: str = ""


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
    scope: str | None = None  # a `memory.scope` key ("mode:train"); None: general
    # A newer current fact that may replace this one (a change of mind the engine was not
    # sure of): both stay current, and recall says which is newer.
    contested_by: str | None = None

    @property
    def current(self) -> bool:
        return self.invalid_at is None


@dataclass(frozen=True, slots=True)
class SlotMatch:
    """A typed profile slot recognised in a fact."""

    slot: str
    value: Any
    polarity: Polarity
    scope: str | None = None  # a `memory.scope` key; None: the slot's general value
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ScopedValue:
    """A slot value that holds only within a scope ("on trains: window"), beside the
    slot's general value in `Memory.profile`; see `Memory.scoped_profile`."""

    slot: str
    value: Any  # an option id (single) or a tuple of them (multi)
    polarity: Polarity
    scope: str  # a `memory.scope` key, e.g. "mode:train" or "place:japan|when:温泉"
    label: str  # the scope in words, in the fact's language ("trains", "日本、温泉")
    text: str  # the fact as it was said
    item_id: str
