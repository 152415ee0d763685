"""What the bot needs of a long-term memory, whichever store is behind it.

`memory.engine.Memory` (SQLite or PostgreSQL with our embeddings) and
`memory.bailian.BailianMemory` (Alibaba Cloud Bailian's memory library) both fit
`LongTermMemory`; `open_memory()` returns one or the other, chosen by `MEMORY_DSN`.
The bot types its parameters with this protocol, so it never depends on either.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal, Protocol

from memory.cache import PreferenceCache
from memory.lang import Lang
from memory.profile import ProfileSchema
from memory.settings import MemorySettings
from memory.types import MemoryItem, Recall, RecordOutcome, ScopedValue

WarmState = Literal["cached", "warmed", "empty", "unfilled"]


class LongTermMemory(Protocol):
    """The memory API (docs/memory.md): per namespace, cached, never mixing two."""

    schema: ProfileSchema
    cache: PreferenceCache
    settings: MemorySettings

    def record(
        self, namespace: str, facts: Iterable[str] | str, source: str = "chat"
    ) -> list[RecordOutcome]: ...

    def update_profile(
        self,
        namespace: str,
        values: Mapping[str, object],
        source: str = "form",
        lang: Lang | None = None,
    ) -> list[RecordOutcome]: ...

    def forget(self, namespace: str, item_id: str | None = None) -> int: ...

    def items(self, namespace: str) -> list[MemoryItem]: ...

    def search(self, namespace: str, query: str, limit: int = 5) -> list[MemoryItem]: ...

    def retrieve(self, namespace: str, query: str = "") -> str: ...

    def recall(self, namespace: str, query: str = "") -> Recall: ...

    def warm(self, namespace: str) -> WarmState: ...

    def profile(self, namespace: str) -> dict[str, Any]: ...

    def scoped_profile(self, namespace: str) -> list[ScopedValue]: ...

    def export(self, namespace: str) -> dict[str, Any]: ...

    def health(self) -> dict[str, bool]: ...

    def close(self) -> None: ...


__all__ = ["LongTermMemory", "WarmState"]
