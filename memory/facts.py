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

Everything a recall reads of every fact is fixed-size binary (numpy arrays straight
from the value) or one UTF-8 run of the distinct strings, sliced once: reading 500 facts
parses no JSON but a few hundred bytes of names (version 3 parsed every column and the
features as JSON, ~0.4 ms at 500 facts). A value of another version is a miss
(`unpack` gives None) and the recall that missed writes this version over it.
"""

from __future__ import annotations

import dataclasses
import json
import operator
import struct
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any, cast, overload

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
# The layout's version: a value of another version (written before a deploy, or by a
# process not yet upgraded) reads as a miss, and the recall that missed writes this one.
_VERSION = 4
_HEADER = struct.Struct("<4sBIII")  # magic, version, count, dimension, length of the JSON

# The fields of `MemoryItem` that `Facts` keeps as columns, in the order of `Columns`:
# in the value once each, as positions in a table of distinct strings.
_COLUMNS = ("text", "lang", "slot", "id", "contested_by")
# What a cached fact's own row keeps: every other field of `MemoryItem` that a current
# fact can have (its namespace is the cache key's; a score is given by ranking). The
# names are in the packed value, so a value written with other fields reads as a miss.
_FIELDS = tuple(
    f.name
    for f in dataclasses.fields(MemoryItem)
    if f.name
    not in ("namespace", "score", "invalid_at", "superseded_by", "invalid_reason", *_COLUMNS)
)
# The columns that never hold None (`Columns`): texts, languages, ids.
_NEVER_NONE = (0, 1, 3)
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
        columns: Columns = (
            [self.texts[i] for i in rows],
            [self.langs[i] for i in rows],
            [self.slots[i] for i in rows],
            [self.ids[i] for i in rows],
            [self.contested[i] for i in rows],
        )
        return Facts(
            items.rows(rows, columns)
            if isinstance(items, _LazyItems)
            else [items[i] for i in rows],
            self.matrix[list(rows)],
            columns,
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
        columns: Columns,
        built: list[MemoryItem | None] | None = None,
    ) -> None:
        self._data = data
        self._bounds = bounds  # (count, 2): where each row starts and ends in `data`
        self._built: list[MemoryItem | None] = built if built is not None else [None] * len(bounds)
        self._namespace = namespace
        self._columns = columns  # the items' fields kept apart from their rows

    def rows(self, rows: Sequence[int], columns: Columns) -> _LazyItems:
        """The items at these positions (`columns`: theirs), still built when read."""
        return _LazyItems(
            self._data,
            self._bounds[list(rows)],
            self._namespace,
            columns,
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
                own = [column[index] for column in self._columns]
                item = _item(row, own, self._namespace)
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

    Layout: header; a small JSON part (model, the rows' field names, section sizes, and
    with `subjects` the vocabulary's names); then fixed-size arrays, read without
    parsing: where each distinct string ends (uint32, in characters), each fact's text,
    language, slot, id and contester as positions in those strings (int32, a column
    after another; -1: None), where each fact's JSON row ends (uint32), what ranking
    reads of each fact under `subjects` (`FactFeatures.packed`), one float32 factor per
    fact and the int8 codes, a row per fact; then the distinct strings (UTF-8, one after
    another) and the rows (the item's other fields, read only when an item is built).
    (A value without the features, or with another vocabulary's, reads the same:
    ranking derives them.)
    """
    count = len(facts)
    features = facts.features(subjects).packed() if subjects is not None and facts else None
    columns = (facts.texts, facts.langs, facts.slots, facts.ids, facts.contested)
    table: dict[str, int] = {}
    positions = np.fromiter(
        (-1 if v is None else table.setdefault(v, len(table)) for c in columns for v in c),
        dtype="<i4",
        count=5 * count,
    )
    strings = "".join(table).encode("utf-8", "surrogatepass")
    string_ends = np.cumsum([len(v) for v in table], dtype="<u4")
    rows = [_row(item) for item in facts.items]
    row_ends = np.cumsum([len(row) for row in rows], dtype="<u4")
    codes, factors = int8_codes(facts.matrix)  # a factor per row: 1 / |codes|
    meta = {
        "model": model,
        "fields": _FIELDS,
        "strings": len(table),
        "string_bytes": len(strings),
        **({"features": features[0]} if features is not None else {}),
    }
    head = json.dumps(meta, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    dim = int(facts.matrix.shape[1]) if count else 0
    return b"".join(
        [
            _HEADER.pack(_MAGIC, _VERSION, count, dim, len(head)),
            head,
            string_ends.tobytes(),
            positions.tobytes(),
            row_ends.tobytes(),
            features[1] if features is not None else b"",
            factors.astype("<f4").tobytes(),
            codes.tobytes(),
            strings,
            *rows,
        ]
    )


def unpack(data: bytes, namespace: str, model: str) -> Facts | None:
    """The facts packed by `pack`; None when the value is not one this version reads, or
    was embedded by another model than `model` (then the store is asked instead)."""
    try:
        magic, version, count, dim, meta_len = _HEADER.unpack_from(data)
        if magic != _MAGIC or version != _VERSION:
            return None
        offset = _HEADER.size
        meta: dict[str, Any] = json.loads(data[offset : offset + meta_len])
        if meta.get("model") != model or tuple(meta.get("fields", ())) != _FIELDS:
            return None
        offset += meta_len
        distinct = int(meta["strings"])
        string_ends = np.frombuffer(data, dtype="<u4", count=distinct, offset=offset)
        offset += 4 * distinct
        positions = np.frombuffer(data, dtype="<i4", count=5 * count, offset=offset)
        offset += 4 * 5 * count
        row_ends = np.frombuffer(data, dtype="<u4", count=count, offset=offset).astype(np.int64)
        offset += 4 * count
        features = None
        if "features" in meta:
            features = FactFeatures.unpacked(meta["features"], data, offset, count)
            offset += FactFeatures.packed_size(count, int(meta["features"]["k"]))
        # Copied (aligned): numpy takes a slower, buffered path for an array at an
        # odd offset in `data` (callgrind: ~12% of unpacking at 100 facts).
        factors = np.frombuffer(data, dtype="<f4", count=count, offset=offset).copy()
        offset += 4 * count
        codes = np.frombuffer(data, dtype=np.int8, count=count * dim, offset=offset)
        offset += count * dim
        text = data[offset : offset + int(meta["string_bytes"])].decode("utf-8", "surrogatepass")
        first = offset + int(meta["string_bytes"])
        ends = string_ends.tolist()
        by_column = positions.reshape(5, count)
        if (
            first + (int(row_ends[-1]) if count else 0) != len(data)
            or (ends[-1] if ends else 0) != len(text)
            or (count and (by_column.min() < -1 or by_column.max() >= distinct))
            or (count and by_column[_NEVER_NONE, :].min() < 0)
        ):
            return None
    except (ValueError, KeyError, TypeError, struct.error):
        return None
    # Each string sliced once from the decoded text; None at position -1 (the last).
    table: list[str | None] = list(map(text.__getitem__, map(slice, [0, *ends[:-1]], ends)))
    table.append(None)
    columns = cast(Columns, tuple(_column(table, positions) for positions in by_column))
    starts = np.concatenate([[0], row_ends[:-1]]) if count else row_ends
    bounds = np.stack([starts, row_ends], axis=1) + first
    matrix: Vector = codes.reshape(count, dim).astype(np.float32)
    matrix *= factors[:, None]
    facts = Facts(_LazyItems(data, bounds, namespace, columns), matrix, columns)
    facts._features = features
    return facts


def _column(table: list[str | None], positions: npt.NDArray[np.int32]) -> tuple[str | None, ...]:
    """The values at `positions` in `table`: one value repeated when they are all the
    same (no slot, no contester, one language: most columns of most travellers)."""
    if len(positions) and positions.min() == positions.max():
        return (table[int(positions[0])],) * len(positions)
    return tuple(map(table.__getitem__, positions.tolist()))


def _item(row: Sequence[Any], own: Sequence[Any], namespace: str) -> MemoryItem:
    """The item of a packed row, `own`: its values of `_COLUMNS`."""
    values: dict[str, Any] = dict(zip(_COLUMNS, own, strict=True))
    for name, value in zip(_FIELDS, row, strict=True):
        if name in _TIMES and isinstance(value, str):
            value = datetime.fromisoformat(value)
        elif isinstance(value, list):
            value = tuple(value)  # as the store reads JSON lists
        values[name] = value
    return MemoryItem(namespace=namespace, **values)


__all__ = ["Facts", "pack", "unpack"]
