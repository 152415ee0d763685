"""Round 18: a learned decision for numbers only the rules' guess reads as amounts.

The rules refuse a bare number that nothing explains (the last line of
`memory.privacy.prices.priced`: "an unexplained number is an amount"). Seventeen rounds of
explanations did not converge: every fresh batch found ordinary sentences whose number is a
temperature, a distance or a count only by the rest of the clause. For exactly those facts,
the ones refused as "amount" by that guess and by no rule that names money
(`guessed_only`: the rules asked again with the guess switched off keep them), this layer
reads the whole fact by meaning, with the bundled e5 model the memory already uses.

The fact's embedding is compared with labelled exemplars (`amount_exemplars.json`: the
amounts and the benign sentences with numbers of the privacy corpus's development sets, never
a fresh or held-out set); the margin is the mean similarity of the `k` closest benign
sentences minus that of the `k` closest amounts. The fact is kept only when the margin is
above `threshold`, set by leave-one-set-out cross-validation on those sets to let none of
their guessed-only amounts through (round 18); a lower one, set on both sides in round 19, let
amounts of measured sets through (bench/README.md, rounds 18 and 19): when unsure, refuse.
The exemplars' embeddings are stored beside them (`amount_exemplars.npy`, int8, amounts first,
written by `bench/privacy_amount_exemplars.py`); one fact costs one embedding, and only facts
the guess alone refuses are embedded.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from functools import cached_property
from importlib import resources
from typing import Any

from memory.privacy.guessing import without_guessing
from memory.privacy.rules import scan
from memory.privacy.similarity import ExemplarMargin, Matrix, exemplar_vectors

EXEMPLARS = "amount_exemplars.json"
VECTORS = "amount_exemplars.npy"


def guessed_only(text: str, verdict: str | None = None) -> bool:
    """Whether the rules refuse `text` as an amount only because a number in it is unexplained;
    `verdict`: what `scan` already said of it (read again when not given)."""
    if (scan(text) if verdict is None else verdict) != "amount":
        return False
    with without_guessing():
        return scan(text) is None


def load_amount_exemplars() -> dict[str, Any]:
    """The exemplar file: model name, k, threshold, the sets, and the two lists of sentences."""
    text = resources.files("memory.privacy").joinpath(EXEMPLARS).read_text(encoding="utf-8")
    doc: dict[str, Any] = json.loads(text)
    return doc


class AmountSimilarity(ExemplarMargin):
    """Whether facts refused only by the guess read as numbers that are not money (see the
    module docstring)."""

    @cached_property
    def _model(self) -> tuple[Matrix, Matrix, int, float]:
        doc = load_amount_exemplars()
        count = len(doc["amounts"])
        amounts, benign = exemplar_vectors(VECTORS, count, count + len(doc["benign"]))
        return amounts, benign, int(doc["k"]), float(doc["threshold"])

    def margins(self, texts: Sequence[str]) -> list[float]:
        """For each text, how much closer it is to the benign exemplars than to the amounts."""
        if not texts:
            return []
        amounts, benign, k, _ = self._model
        return self._margin(texts, benign, amounts, k)

    def keeps(self, texts: Sequence[str]) -> list[bool]:
        """For each text the guess alone refuses, whether it reads as no amount."""
        threshold = self._model[3]
        return [margin > threshold for margin in self.margins(texts)]


_shared_lock = threading.Lock()
_shared: AmountSimilarity | None = None


def shared_amount_similarity() -> AmountSimilarity:
    """One per process: the exemplars are read once, and the model is the memory's own."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = AmountSimilarity()
        return _shared


__all__ = [
    "EXEMPLARS",
    "VECTORS",
    "AmountSimilarity",
    "guessed_only",
    "load_amount_exemplars",
    "shared_amount_similarity",
]
