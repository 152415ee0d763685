"""What facts are about (`memory.changes.ChangeReader.aspect`), embedded once per process."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from memory.changes import ChangeReader
from memory.embedding import Embedder


class AspectVectors:
    """The embeddings of facts' aspects, by text; shared by the engines of a process."""

    def __init__(self, embedder: Embedder, changes: ChangeReader) -> None:
        self.embedder = embedder
        self.changes = changes

    def __call__(self, texts: Sequence[str]) -> Any:
        name = self.embedder.name
        keys = [(name, self.changes.aspect(text)) for text in texts]
        with _ASPECT_LOCK:
            known = {k: _ASPECT_CACHE[k] for k in keys if k in _ASPECT_CACHE}
        missing = list(dict.fromkeys(k for k in keys if k not in known))
        if missing:
            vectors = self.embedder.embed_passages([aspect for _, aspect in missing])
            known.update(zip(missing, vectors, strict=True))
            with _ASPECT_LOCK:
                for key in missing:
                    _ASPECT_CACHE[key] = known[key]
                while len(_ASPECT_CACHE) > _ASPECT_CACHE_SIZE:
                    _ASPECT_CACHE.pop(next(iter(_ASPECT_CACHE)))
        return np.stack([known[k] for k in keys])


# (embedding model, aspect) -> its embedding, shared by the engines of a process (facts
# one wrote are the others' current facts); the judge asks outside the write lock.
_ASPECT_CACHE: dict[tuple[str, str], Any] = {}
_ASPECT_CACHE_SIZE = 8192
_ASPECT_LOCK = threading.Lock()
