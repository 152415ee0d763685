"""Facts written straight to the store, past the write-time guard.

Facts kept before a guard rule existed (or by a backend that writes elsewhere, such as
Bailian) never went through today's guard; recall must still keep them as data. Tests use
this to put such facts where the real engine reads them.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from memory.engine import Memory
from memory.lang import detect_lang
from memory.store import Tx, utcnow
from memory.types import MemoryItem


def store_unchecked(memory: Memory, namespace: str, texts: Sequence[str]) -> None:
    memory.items(namespace)  # brings the schema up to date
    vectors = memory.embedder.embed_passages(list(texts))

    def work(tx: Tx) -> None:
        for text, vector in zip(texts, vectors, strict=True):
            item = MemoryItem(
                id=uuid.uuid4().hex,
                namespace=namespace,
                text=text,
                source="chat",
                created_at=utcnow(),
                lang=detect_lang(text),
            )
            tx.insert(item, vector, memory.embedder.name)

    memory.store.write(namespace, work)
    memory.cache.invalidate(namespace)
