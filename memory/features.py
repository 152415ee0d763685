"""What ranking reads of each fact besides its vector, derived once per set of facts.

`memory.ranking.rank_scores` needs, for every fact, whether it is in Chinese and which
subjects it is about (`memory.subjects`), and its nearest facts in the same namespace.
None of these depends on the request, so they are derived once when a set of facts is
first ranked (`Facts.features`) and kept in the facts' cache entry
(`memory.facts.pack`): a warmed traveller's recall then reads no fact's text to rank it,
and the scoring formula runs over whole arrays.

*Subjects from the neighbours.* The vocabulary misses words ("Gentle hikes" names no
leisure word a request shares; "睡觉要遮光窗帘" no lodging word), and then the subject
boost lifts every fact about what the request asks over the one it needs. A fact is
therefore also partly about what its `NEIGHBOURS` nearest facts (by their stored
vectors) are about: `weight[i, s]` is 1 when fact i's own words or slot name subject s,
else `NEIGHBOUR_SHARE` times the share of its neighbours that do, provided at least
`NEIGHBOUR_QUORUM` of them do (bench/README.md, "Ranking: subjects from a fact's nearest
facts" and "Ranking: neighbours that agree"). Rarity (`counts`) stays that of the facts'
own words.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from memory.lang import detect_lang
from memory.subjects import Subjects

# Subjects a cached entry can carry as one integer per fact.
MAX_PACKED_SUBJECTS = 62
# How many nearest facts lend a fact their subjects, and at what share of a subject
# named by the fact itself (dev-tuned: 2-4 neighbours, 0.4-0.6 are a plateau).
NEIGHBOURS = 3
NEIGHBOUR_SHARE = 0.5
# How many of those neighbours must name a subject before it is lent (all of them when a
# namespace has fewer facts). One neighbour alone lent a sixth of a subject to many facts,
# a crowd that pushed needed facts out of the top 3 (dev-tuned: 2 of 3, bench/README.md).
NEIGHBOUR_QUORUM = 2


class FactFeatures:
    """Per fact: `zh[i]` (the fact is in Chinese, as ranking reads its language),
    `about[i, j]` (its words or slot are about subject `names[j]` of the vocabulary
    `vocabulary`, a `Subjects.fingerprint`), `near[i]` (the positions of its nearest
    facts) and `weight[i, j]` (how much it counts as about subject j, with what its
    neighbours are about); `counts[j]`: how many facts are about subject j.

    A request reads the weights of the one to three subjects it is about
    (`weight_of`), each made when first read: a recall from a cache entry does not
    make the whole facts-by-subjects matrix."""

    __slots__ = ("_columns", "about", "counts", "names", "near", "vocabulary", "zh")

    def __init__(
        self,
        vocabulary: str,
        names: tuple[str, ...],
        zh: npt.NDArray[np.bool_],
        about: npt.NDArray[np.bool_],
        counts: npt.NDArray[np.int64],
        near: npt.NDArray[np.int64],
    ) -> None:
        self.vocabulary = vocabulary
        self.names = names
        self.zh = zh
        self.about = about
        self.counts = counts
        self.near = near
        self._columns: dict[int, npt.NDArray[np.float64]] = {}

    def __len__(self) -> int:
        return len(self.zh)

    def column(self, name: str) -> int:
        return self.names.index(name)

    def weight_of(self, j: int) -> npt.NDArray[np.float64]:
        """`weight[:, j]`, made on first use and kept."""
        made = self._columns.get(j)
        if made is None:
            own = self.about[:, j]
            made = own.astype(np.float64)
            width = self.near.shape[1]
            if width:
                naming = own[self.near].sum(axis=1)
                quorum = min(NEIGHBOUR_QUORUM, width)
                lent = np.where(naming >= quorum, NEIGHBOUR_SHARE * naming / width, 0.0)
                made = np.maximum(made, lent)
            self._columns[j] = made
        return made

    @property
    def weight(self) -> npt.NDArray[np.float64]:
        """Every fact's weight for every subject (`weight_of` for each column)."""
        columns = [self.weight_of(j) for j in range(len(self.names))]
        if not columns:
            return np.zeros((len(self), 0), dtype=np.float64)
        return np.stack(columns, axis=1)

    def fits(self, subjects: Subjects, count: int) -> bool:
        """Whether these were derived with `subjects` for `count` facts (a damaged cache
        value that names other subjects does not fit: derived again, never a crash)."""
        return (
            self.vocabulary == subjects.fingerprint
            and self.names == subjects.names
            and len(self.zh) == count
            and self.near.shape[0] == count
        )

    @classmethod
    def of(
        cls,
        vocabulary: str,
        names: Sequence[str],
        zh: npt.NDArray[np.bool_],
        about: npt.NDArray[np.bool_],
        near: npt.NDArray[np.int64] | None = None,
    ) -> FactFeatures:
        """`near`: each fact's nearest facts, a row of positions per fact (none when
        omitted, so facts count as about their own subjects only)."""
        if near is None:
            near = np.zeros((len(zh), 0), dtype=np.int64)
        counts = about.sum(axis=0, dtype=np.int64)
        return cls(vocabulary, tuple(names), zh, about, counts, near)

    # -- as kept in a cache entry ----------------------------------------------------

    def packed(self) -> tuple[dict[str, object], bytes] | None:
        """What a cache entry keeps (`memory.facts.pack`): JSON-ready names, and the
        per-fact arrays as bytes (`packed_size`): whether each fact is in Chinese (int8),
        its subjects as one integer (int64, bit j: `names[j]`) and its nearest facts
        (int32, `NEIGHBOURS` a fact or fewer). None when the vocabulary has too many
        subjects for one integer."""
        if len(self.names) > MAX_PACKED_SUBJECTS:
            return None
        weights = np.left_shift(np.int64(1), np.arange(len(self.names), dtype=np.int64))
        masks = self.about.astype(np.int64) @ weights if len(self.names) else np.zeros(len(self))
        arrays = [
            self.zh.astype(np.int8),
            np.asarray(masks, dtype="<i8"),
            self.near.astype("<i4"),
        ]
        meta = {"vocabulary": self.vocabulary, "names": self.names, "k": self.near.shape[1]}
        return meta, b"".join(a.tobytes() for a in arrays)

    @staticmethod
    def packed_size(count: int, width: int) -> int:
        """How many bytes `packed` gives for `count` facts of `width` neighbours each."""
        return count * (1 + 8 + 4 * width)

    @classmethod
    def unpacked(cls, meta: object, data: bytes, offset: int, count: int) -> FactFeatures | None:
        """What `packed` gave for `count` facts, its bytes at `offset` in `data`; None
        when it does not read as that."""
        if not isinstance(meta, dict):
            return None
        try:
            names = tuple(str(n) for n in meta["names"])
            width = int(meta["k"])
            if len(names) > MAX_PACKED_SUBJECTS or width < 0:
                return None
            zh = np.frombuffer(data, dtype=np.int8, count=count, offset=offset)
            offset += count
            # A copy (aligned): numpy buffers an array at an odd offset in `data`.
            masks = np.frombuffer(data, dtype="<i8", count=count, offset=offset).astype(np.int64)
            offset += 8 * count
            near = np.frombuffer(data, dtype="<i4", count=count * width, offset=offset)
            near = near.reshape(count, width).astype(np.int64)
            if near.size and (near.min() < 0 or near.max() >= count):
                return None
            bits = np.arange(len(names), dtype=np.int64)
            about = ((masks[:, None] >> bits) & 1).astype(bool)
            return cls.of(str(meta["vocabulary"]), names, zh.astype(bool), about, near)
        except (KeyError, TypeError, ValueError, OverflowError):
            return None


def int8_codes(
    vectors: npt.NDArray[np.float32],
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float32]]:
    """The cache's encoding of unit vectors (`memory.facts.pack`): int8 codes, scaled per
    row to its largest component, and the factor per row that makes a unit vector again.
    Encoding a decoded row gives the same codes."""
    matrix = np.asarray(vectors, dtype=np.float32)
    peaks = np.abs(matrix).max(axis=1) if len(matrix) else np.zeros(0, dtype=np.float32)
    codes = np.rint(matrix * np.where(peaks > 0, 127.0 / peaks, 1.0)[:, None])
    codes = codes.clip(-127, 127).astype(np.int8)
    lengths = np.linalg.norm(codes.astype(np.float32), axis=1)
    factors = np.where(lengths > 0, 1.0 / np.maximum(lengths, 1e-12), 0.0).astype(np.float32)
    return codes, factors


# Tiles of the facts-by-facts product small enough for the BLAS library to compute each
# on the calling thread: one product of 200 facts by 200 would wake its worker threads,
# which then compete with the request's embedding running beside it (a miss went from
# ~1 ms to ~4-5 ms beyond the embedding on two cores).
_TILE_ROWS, _TILE_COLUMNS = 32, 20


def _products(whole: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """`whole @ whole.T`, tile by tile. The rows hold int8 codes, so every entry is an
    integer below 2**24 and exact whatever the order of the sums."""
    count = whole.shape[0]
    out = np.empty((count, count), dtype=np.float32)
    for top in range(0, count, _TILE_ROWS):
        rows = whole[top : top + _TILE_ROWS]
        for left in range(0, count, _TILE_COLUMNS):
            columns = whole[left : left + _TILE_COLUMNS]
            out[top : top + _TILE_ROWS, left : left + _TILE_COLUMNS] = rows @ columns.T
    return out


def nearest(vectors: npt.NDArray[np.float32], k: int = NEIGHBOURS) -> npt.NDArray[np.int64]:
    """For each row of `vectors` (L2-normalised), the positions of the `k` other rows
    closest to it by cosine (fewer when there are fewer facts), in no particular order.
    Read from the vectors as the cache keeps them (`int8_codes`), so that facts from the
    store and from a cache entry have the same neighbours."""
    count = vectors.shape[0]
    k = min(k, count - 1)
    if k <= 0:
        return np.zeros((count, 0), dtype=np.int64)
    codes, factors = int8_codes(vectors)
    sims = (
        _products(codes.astype(np.float32)) * factors[None, :]
    )  # row i's own factor orders nothing
    np.fill_diagonal(sims, -np.inf)
    rows = np.arange(count)
    near = np.empty((count, k), dtype=np.int64)
    for column in range(k):  # k is small: k passes of argmax beat a partition
        best = sims.argmax(axis=1)
        near[:, column] = best
        sims[rows, best] = -np.inf
    return np.sort(near, axis=1)


def fact_features(
    texts: Sequence[str],
    langs: Sequence[str],
    slots: Sequence[str | None],
    subjects: Subjects,
    vectors: npt.NDArray[np.float32],
) -> FactFeatures:
    """The features of these facts (`texts[i]`, `langs[i]` — "" when unknown, then read
    from the text — `slots[i]` and their stored `vectors[i]`) under the vocabulary
    `subjects`."""
    count = len(texts)
    names = subjects.names
    column = {name: j for j, name in enumerate(names)}
    zh = np.fromiter(
        ((x or detect_lang(t)).startswith("zh") for t, x in zip(texts, langs, strict=True)),
        dtype=bool,
        count=count,
    )
    about = np.zeros((count, len(names)), dtype=bool)
    for i, (text, slot) in enumerate(zip(texts, slots, strict=True)):
        for name in subjects.of(text, slot):
            about[i, column[name]] = True
    return FactFeatures.of(subjects.fingerprint, names, zh, about, nearest(vectors))


__all__ = ["FactFeatures", "fact_features", "int8_codes", "nearest"]
