"""A namespace's current facts with their embeddings, as recall ranks them.

Recall reads them from the store or, once a recall or warming has cached them, from
Redis (`pack`/`unpack`), and ranks and summarises both with the same code.

In the cache each embedding is quantised to int8 (symmetric, scaled per fact to its
largest component) with one float32 factor per fact that makes it a unit vector again:
388 bytes instead of 1,536 for a 384-d vector. Ranking sees unit vectors as it does
from the store; what quantising costs in recall is measured by `bench/cache_recall.py`
(see bench/README.md).

Unpacked facts build their `MemoryItem`s only when one is looked at: a recall over
500 cached facts ranks the matrix, reads what ranking needs of each fact from the
features kept in the value (`memory.features`) and the summary's texts from the columns;
an item is built only for a fact shown with a note of a change of mind.
"""

from __future__ import annotations

import dataclasses
import json
import operator
import struct
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from memory.embedding import Vector
from memory.errors import MemoryEngineError
from memory.features import FactFeatures, fact_features, int8_codes
from memory.store import StoredItem
from memory.subjects import Subjects
from memory.types import MemoryItem
from memory.views import shown

_MAGIC = b"LTMF"
_VERSION = 3
_HEADER = struct.Struct("<4sBII")  # magic, version, count, length of the JSON part

# What a cached fact keeps: every field of `MemoryItem` that a current fact can have
# (its namespace is the cache key's; a score is given by ranking). The names are in the
# packed value, so a value written with other fields (another version) reads as a miss.
_FIELDS = tuple(
    f.name
    for f in dataclasses.fields(MemoryItem)
    if f.name not in ("namespace", "score", "invalid_at", "superseded_by", "invalid_reason")
)
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_TIMES = frozenset(f.name for f in dataclasses.fields(MemoryItem) if "datetime" in str(f.type))


Columns = tuple[
    Sequence[str], Sequence[str], Sequence[str | None], Sequence[str], Sequence[str | None]
]


class Facts:
    """Current facts, oldest first, and their L2-normalised embeddings (one row each).

    `texts[i]`, `langs[i]`, `slots[i]`, `ids[i]` and `contested[i]` (the id of a newer
    fact that may replace it, `MemoryItem.contested_by`) are those of `items[i]`,
    readable without building the item: ranking and the summary read them for every
    fact they look at.
    """

    __slots__ = (
        "_features",
        "_shown",
        "contested",
        "ids",
        "items",
        "langs",
        "matrix",
        "slots",
        "texts",
    )

    def __init__(
        self,
        items: Sequence[MemoryItem],
        matrix: Vector,
        columns: Columns | None = None,
    ) -> None:
        self.items = items
        self.matrix = matrix
        if columns is None:
            columns = (
                [i.text for i in items],
                [i.lang for i in items],
                [i.slot for i in items],
                [i.id for i in items],
                [i.contested_by for i in items],
            )
        texts, langs, slots, ids, contested = columns
        self.texts: tuple[str, ...] = tuple(texts)
        self.langs: tuple[str, ...] = tuple(langs)
        self.slots: tuple[str | None, ...] = tuple(slots)
        self.ids: tuple[str, ...] = tuple(ids)
        self.contested: tuple[str | None, ...] = tuple(contested)
        self._features: FactFeatures | None = None
        self._shown: tuple[str, ...] | None = None

    def features(self, subjects: Subjects) -> FactFeatures:
        """What ranking reads of these facts besides their vectors, under the vocabulary
        `subjects`: derived on first use (or read from the cache entry) and kept."""
        features = self._features
        if features is None or not features.fits(subjects, len(self)):
            features = fact_features(self.texts, self.langs, self.slots, subjects, self.matrix)
            self._features = features
        return features

    def shown(self) -> tuple[str, ...]:
        """Each fact's text as a summary shows it (`memory.views.shown`), made on first
        use and kept: a recall makes them while the request is still being embedded."""
        if self._shown is None:
            self._shown = tuple(map(shown, self.texts))
        return self._shown

    def shown_at(self, i: int) -> str:
        """Fact i's text as a summary shows it: from `shown` when made, else made now."""
        made = self._shown
        return made[i] if made is not None else shown(self.texts[i])

    @classmethod
    def from_stored(cls, stored: Sequence[StoredItem]) -> Facts:
        if not stored:
            return cls((), np.zeros((0, 0), dtype=np.float32))
        return cls(tuple(s.item for s in stored), np.stack([s.embedding for s in stored]))

    def __len__(self) -> int:
        return len(self.slots)

    def rows(self, rows: Sequence[int]) -> Facts:
        """The facts at these positions, in the order given."""
        items = self.items
        return Facts(
            items.rows(rows) if isinstance(items, _LazyItems) else [items[i] for i in rows],
            self.matrix[list(rows)],
            (
                [self.texts[i] for i in rows],
                [self.langs[i] for i in rows],
                [self.slots[i] for i in rows],
                [self.ids[i] for i in rows],
                [self.contested[i] for i in rows],
            ),
        )

    def free(self) -> Facts:
        """The free-text facts (no typed slot), in order."""
        return self.rows([i for i, slot in enumerate(self.slots) if slot is None])

    def typed(self) -> list[MemoryItem]:
        """The facts that fill a typed slot, in order."""
        return [self.items[i] for i, slot in enumerate(self.slots) if slot is not None]


class _LazyItems(Sequence[MemoryItem]):
    """Items of packed facts, each parsed from its own JSON row when first read."""

    def __init__(
        self,
        data: bytes,
        bounds: npt.NDArray[np.int64],
        namespace: str,
        built: list[MemoryItem | None] | None = None,
    ) -> None:
        self._data = data
        self._bounds = bounds  # (count, 2): where each row starts and ends in `data`
        self._built: list[MemoryItem | None] = built if built is not None else [None] * len(bounds)
        self._namespace = namespace

    def rows(self, rows: Sequence[int]) -> _LazyItems:
        """The items at these positions, still built only when read."""
        return _LazyItems(
            self._data,
            self._bounds[list(rows)],
            self._namespace,
            [self._built[i] for i in rows],
        )

    def __len__(self) -> int:
        return len(self._built)

    @overload
    def __getitem__(self, index: int) -> MemoryItem: ...

    @overload
    def __getitem__(self, index: slice) -> list[MemoryItem]: ...

    def __getitem__(self, index: int | slice) -> MemoryItem | list[MemoryItem]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        item = self._built[index]
        if item is None:
            start, end = (int(x) for x in self._bounds[index])
            try:
                row = json.loads(self._data[start:end])
                item = _item(row, self._namespace)
            except (ValueError, TypeError) as exc:  # a damaged value: never a crash
                raise MemoryEngineError(f"cached fact unreadable: {exc}") from exc
            self._built[index] = item
        return item

    def __iter__(self) -> Iterator[MemoryItem]:
        for index in range(len(self)):
            yield self[index]


_VALUES = operator.attrgetter(*_FIELDS)
_TIME_AT = tuple(i for i, name in enumerate(_FIELDS) if name in _TIMES)


def _encoder() -> Callable[[Any], str]:
    """`_ENCODER.encode` for a row, without its per-call set-up when the C encoder is
    there (a row is a flat list of plain values: no circular reference to check). Same
    text either way."""
    if c_make_encoder is None:  # pragma: no cover - CPython has it
        return _ENCODER.encode
    try:  # a private function: should its signature ever change, use the public path
        chunks = c_make_encoder(
            None, _ENCODER.default, encode_basestring, None, ":", ",", False, False, True
        )
        fast: Callable[[Any], str] = lambda values: "".join(chunks(values, 0))  # noqa: E731
        sample = ['a"é', 1, 2.5, None, True, ["x"], "2026-12-06T00:00:00+00:00"]
        if fast(sample) == _ENCODER.encode(sample):
            return fast
    except Exception:  # pragma: no cover - only on another Python
        pass
    return _ENCODER.encode  # pragma: no cover


_ENCODE_ROW = _encoder()


def _row(item: MemoryItem) -> bytes:
    """One fact as a JSON array of `_FIELDS` (tuples become arrays, times ISO text)."""
    values = list(_VALUES(item))
    for index in _TIME_AT:
        if values[index] is not None:
            values[index] = values[index].isoformat()
    return _ENCODE_ROW(values).encode("utf-8")


def pack(facts: Facts, model: str, subjects: Subjects | None = None) -> bytes:
    """The facts as one compact value for the cache (embeddings quantised to int8).

    Layout: header; JSON of what the value holds (model, dimension, item fields, each
    fact's text, language, slot, id and contester, and with `subjects` what ranking
    reads of each fact under that vocabulary, `Facts.features`); where each fact's JSON
    row ends (uint32); the rows; one float32 factor per fact; the int8 codes, a row per
    fact. (A value without the features, or with another vocabulary's, reads the same:
    ranking derives them.)
    """
    features = facts.features(subjects).packed() if subjects is not None and facts else None
    rows = [_row(item) for item in facts.items]
    meta = json.dumps(
        {
            "model": model,
            "dim": int(facts.matrix.shape[1]) if len(facts) else 0,
            "fields": _FIELDS,
            "texts": facts.texts,
            "langs": facts.langs,
            "slots": facts.slots,
            "ids": facts.ids,
            "contested": facts.contested,
            **({"features": features} if features is not None else {}),
        },
        ensure_ascii=False,
        separators=(",", ":"),
    ).encode("utf-8")
    ends = np.cumsum([len(row) for row in rows], dtype=np.uint32)
    codes, factors = int8_codes(facts.matrix)  # a factor per row: 1 / |codes|
    header = _HEADER.pack(_MAGIC, _VERSION, len(facts), len(meta))
    return b"".join([header, meta, ends.tobytes(), *rows, factors.tobytes(), codes.tobytes()])


def unpack(data: bytes, namespace: str, model: str) -> Facts | None:
    """The facts packed by `pack`; None when the value is not one this version reads, or
    was embedded by another model than `model` (then the store is asked instead)."""
    try:
        magic, version, count, meta_len = _HEADER.unpack_from(data)
        if magic != _MAGIC or version != _VERSION:
            return None
        offset = _HEADER.size
        meta: dict[str, Any] = json.loads(data[offset : offset + meta_len])
        columns: Columns = (
            meta["texts"],
            meta["langs"],
            meta["slots"],
            meta["ids"],
            meta["contested"],
        )
        if (
            meta.get("model") != model
            or tuple(meta.get("fields", ())) != _FIELDS
            or any(len(column) != count for column in columns)
        ):
            return None
        dim = int(meta["dim"])
        offset += meta_len
        ends = np.frombuffer(data, dtype=np.uint32, count=count, offset=offset).astype(np.int64)
        offset += 4 * count
        first = offset
        offset += int(ends[-1]) if count else 0
        factors = np.frombuffer(data, dtype=np.float32, count=count, offset=offset)
        offset += 4 * count
        codes = np.frombuffer(data, dtype=np.int8, count=count * dim, offset=offset)
    except (ValueError, KeyError, TypeError, struct.error):
        return None
    starts = np.concatenate([[0], ends[:-1]]) if count else ends
    bounds = np.stack([starts, ends], axis=1) + first
    matrix: Vector = codes.reshape(count, dim).astype(np.float32)
    matrix *= factors[:, None]
    facts = Facts(_LazyItems(data, bounds, namespace), matrix, columns)
    if "features" in meta:
        facts._features = FactFeatures.unpacked(meta["features"], count)
    return facts


def _item(row: Sequence[Any], namespace: str) -> MemoryItem:
    values: dict[str, Any] = {}
    for name, value in zip(_FIELDS, row, strict=True):
        if name in _TIMES and isinstance(value, str):
            value = datetime.fromisoformat(value)
        elif isinstance(value, list):
            value = tuple(value)  # as the store reads JSON lists
        values[name] = value
    return MemoryItem(namespace=namespace, **values)


__all__ = ["Facts", "pack", "unpack"]
