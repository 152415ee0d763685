"""What ranking reads of each fact besides its vector, derived once per set of facts.

`memory.ranking.rank_scores` needs, for every fact, whether it is in Chinese and which
subjects it is about (`memory.subjects`). Both depend only on the fact (its text,
language and slot) and the vocabulary, never on the request, so they are derived once
when a set of facts is first ranked (`Facts.features`) and kept in the facts' cache
entry (`memory.facts.pack`): a warmed traveller's recall then reads no fact's text to
rank it, and the scoring formula runs over whole arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from memory.lang import detect_lang
from memory.subjects import Subjects

# Subjects a cached entry can carry as one integer per fact.
MAX_PACKED_SUBJECTS = 62


@dataclass(frozen=True, slots=True, eq=False)
class FactFeatures:
    """Per fact: `zh[i]` (the fact is in Chinese, as ranking reads its language) and
    `about[i, j]` (it is about subject `names[j]` of the vocabulary `vocabulary`, a
    `Subjects.fingerprint`); `counts[j]`: how many facts are about subject j."""

    vocabulary: str
    names: tuple[str, ...]
    zh: npt.NDArray[np.bool_]
    about: npt.NDArray[np.bool_]
    counts: npt.NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.zh)

    def column(self, name: str) -> int:
        return self.names.index(name)

    def fits(self, subjects: Subjects, count: int) -> bool:
        """Whether these were derived with `subjects` for `count` facts (a damaged cache
        value that names other subjects does not fit: derived again, never a crash)."""
        return (
            self.vocabulary == subjects.fingerprint
            and self.names == subjects.names
            and len(self.zh) == count
        )

    @classmethod
    def of(
        cls,
        vocabulary: str,
        names: Sequence[str],
        zh: npt.NDArray[np.bool_],
        about: npt.NDArray[np.bool_],
    ) -> FactFeatures:
        return cls(vocabulary, tuple(names), zh, about, about.sum(axis=0, dtype=np.int64))

    # -- as kept in a cache entry ----------------------------------------------------

    def packed(self) -> dict[str, object] | None:
        """JSON-ready: each fact's subjects as one integer (bit j: `names[j]`); None
        when the vocabulary has too many subjects for that."""
        if len(self.names) > MAX_PACKED_SUBJECTS:
            return None
        weights = np.left_shift(np.int64(1), np.arange(len(self.names), dtype=np.int64))
        masks = self.about.astype(np.int64) @ weights if len(self.names) else np.zeros(len(self))
        return {
            "vocabulary": self.vocabulary,
            "names": self.names,
            "zh": self.zh.astype(np.int8).tolist(),
            "about": np.asarray(masks, dtype=np.int64).tolist(),
        }

    @classmethod
    def unpacked(cls, raw: object, count: int) -> FactFeatures | None:
        """What `packed` gave, for `count` facts; None when it does not read as that."""
        if not isinstance(raw, dict):
            return None
        try:
            names = [str(n) for n in raw["names"]]
            zh = np.asarray(raw["zh"], dtype=np.int8)
            masks = np.asarray(raw["about"], dtype=np.int64)
            if len(names) > MAX_PACKED_SUBJECTS or zh.shape != (count,) or masks.shape != (count,):
                return None
            bits = np.arange(len(names), dtype=np.int64)
            about = ((masks[:, None] >> bits) & 1).astype(bool)
            return cls.of(str(raw["vocabulary"]), names, zh.astype(bool), about)
        except (KeyError, TypeError, ValueError, OverflowError):
            return None


def fact_features(
    texts: Sequence[str],
    langs: Sequence[str],
    slots: Sequence[str | None],
    subjects: Subjects,
) -> FactFeatures:
    """The features of these facts (`texts[i]`, `langs[i]` — "" when unknown, then read
    from the text — and `slots[i]`) under the vocabulary `subjects`."""
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
    return FactFeatures.of(subjects.fingerprint, names, zh, about)


__all__ = ["FactFeatures", "fact_features"]
