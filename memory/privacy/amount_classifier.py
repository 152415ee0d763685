"""Round 21: a trained reading of numbers the rules refuse as amounts without naming money.

Twenty rounds of rules and a kNN over exemplars (`memory.privacy.amount_similarity`) did not
converge on the benign side: each fresh set said a height, a room or a speed limit in a way
no rule had seen ("about 2,700 up", "shuts above 1,800", "住3308"). This layer is a logistic
regression trained by `bench/privacy_amount_classifier.py` on the privacy corpus's tuned sets
(the amounts against the benign sentences that hold a number). It reads the fact's e5
embedding (the bundled model the memory and the other layers use; the embedder caches it, so
the instruction layer does not embed the fact again) and a few cheap features of its numbers:
how many digits, thousands separators, decimals, round numbers, a scale (k, 万), a unit after
it, Chinese numerals, where it stands.

It only adjudicates facts the rules refuse as "amount" where nothing in the fact names money
(`adjudicable`): no currency, no money word (budget, fare, 费, 补贴 ...), no paying verb (spent,
paid, 花了 ...). Identifiers, cards, passwords and currency words are never its business. The
fact is kept only when the model's probability that it is no amount is above the threshold,
set by leave-one-set-out cross-validation over the tuned sets (bench/README.md, round 21); when
unsure, refuse. Weights: `amount_classifier.json` (read once, on the first fact this layer decides).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Sequence
from functools import cached_property
from importlib import resources
from typing import Any

import numpy as np

from memory.privacy.money import CANDIDATE, EXPLICIT, MONEY_WORD, NOT_MONEY
from memory.privacy.reports import reported_price
from memory.privacy.similarity import ExemplarMargin, Matrix
from memory.privacy.stated import stated_amounts
from memory.privacy.text import normalise
from memory.privacy.vocabulary import PAYING_EN, PAYING_PHRASAL, PAYING_ZH

WEIGHTS = "amount_classifier.json"

F = re.ASCII | re.IGNORECASE
# Verbs that say money changed hands, wherever they stand in the fact.
_PAYING = re.compile(
    rf"(?<![a-z])(?:{PAYING_EN}|{PAYING_PHRASAL}|spends|spending|pays|tip|tips|blew|billed|expensed|reimbursed"
    r"|came\s+(?:out\s+)?(?:to|at)|comes\s+(?:out\s+)?(?:to|at)|ran\s+(?:me|us)|runs\s+(?:me|us)"
    r"|set\s+(?:me|us)\s+back|totall?ed|all[\s-]in|in\s+total|altogether|earn\w*|take[\s-]home)"
    rf"(?![a-z])|{PAYING_ZH}|一共|总共|共计|合计|花|付|掏|赚|挣",
    F,
)
_SCALE = re.compile(r"(?:k|w|千|万|hundred|thousand|grand)\Z", re.IGNORECASE)
_CJK = re.compile(r"[\u4e00-\u9fff]")
_ZH_NUMERAL = re.compile(r"[零〇一二两三四五六七八九十百千万]")
_WORD = re.compile(r"[A-Za-z\u4e00-\u9fff]")


def names_money(text: str) -> bool:
    """Whether anything in `text` names money: a currency, a money word or a paying verb."""
    folded = normalise(text).text
    return bool(
        EXPLICIT.search(folded)
        or MONEY_WORD.search(folded)
        or _PAYING.search(folded)
        # round 27: a price reported of a thing bought ("the museum is 12 to get in")
        or any(reported_price(folded, *match.span()) for match in CANDIDATE.finditer(folded))
        # round 28: a price stated as a range, a total, a fare ("hostels ~25-30", "厕所五毛")
        or next(stated_amounts(folded), None) is not None
    )


def adjudicable(text: str, verdict: str | None) -> bool:
    """Whether this layer decides `text`: the rules refuse it as an amount and nothing in it
    names money."""
    return verdict == "amount" and not names_money(text)


def _digits(number: str) -> int:
    return sum(ch.isdigit() for ch in number)


def cheap_features(text: str) -> list[float]:
    """What the numbers of `text` look like, each scaled to about 0..1 (see the module
    docstring); the order is the one of `FEATURES`."""
    folded = normalise(text).text
    found = list(CANDIDATE.finditer(folded))
    if not found:
        return [0.0] * len(FEATURES)
    main = max(found, key=lambda match: _digits(match.group()))
    number = main.group().strip()
    bare = number.replace(",", "").split(".")[0].rstrip("kKwW千万 ")
    rest = folded[main.end() :]
    return [
        min(_digits(number), 8) / 5.0,
        float("," in number),
        float("." in number),
        float(len(bare) >= 2 and bare.endswith("0")),
        float(len(bare) >= 3 and bare.endswith("00")),
        min(len(found), 3) / 3.0,
        float(_SCALE.search(number) is not None),
        float(_CJK.search(text) is not None),
        float(_ZH_NUMERAL.search(text) is not None),
        float(any(NOT_MONEY.match(folded, match.end()) for match in found)),
        float(EXPLICIT.search(folded) is not None),
        float(MONEY_WORD.search(folded) is not None),
        float(_PAYING.search(folded) is not None),
        min(len(folded), 120) / 60.0,
        float(not _WORD.search(rest)),
        float(not _WORD.search(folded[: main.start()])),
    ]


FEATURES = (
    "digits",
    "thousands_separator",
    "decimal",
    "round",
    "hundreds",
    "numbers",
    "scale",
    "chinese",
    "chinese_numeral",
    "unit_after",
    "currency",
    "money_word",
    "paying_verb",
    "length",
    "number_last",
    "number_first",
)


def design(vectors: Matrix, texts: Sequence[str]) -> Matrix:
    """The model's inputs: each text's embedding beside its cheap features."""
    cheap = np.asarray([cheap_features(text) for text in texts], dtype=np.float32)
    return np.hstack([vectors, cheap.reshape(len(texts), len(FEATURES))]).astype(np.float32)


def load_weights() -> dict[str, Any]:
    """The weights file: model name, threshold, the sets trained on, weights and bias."""
    text = resources.files("memory.privacy").joinpath(WEIGHTS).read_text(encoding="utf-8")
    doc: dict[str, Any] = json.loads(text)
    return doc


class AmountClassifier(ExemplarMargin):
    """Whether facts the rules refuse as unnamed amounts are numbers that are not money (see
    the module docstring)."""

    @cached_property
    def _model(self) -> tuple[Matrix, float, float]:
        doc = load_weights()
        if list(doc["features"]) != list(FEATURES):
            raise ValueError(f"{WEIGHTS} was trained on other features: retrain it")
        weights = np.asarray(doc["weights"], dtype=np.float32)
        return weights, float(doc["bias"]), float(doc["threshold"])

    def benign_probabilities(self, texts: Sequence[str]) -> list[float]:
        """For each text, the model's probability that its number is no amount."""
        if not texts:
            return []
        weights, bias, _ = self._model
        scores = design(self._embed(texts), texts) @ weights + bias
        return [float(value) for value in 1.0 / (1.0 + np.exp(-scores))]

    def keeps(self, texts: Sequence[str]) -> list[bool]:
        """For each text, whether it reads clearly as a number that is not money."""
        threshold = self._model[2]
        return [p > threshold for p in self.benign_probabilities(texts)]


_shared_lock = threading.Lock()
_shared: AmountClassifier | None = None


def shared_amount_classifier() -> AmountClassifier:
    """One per process: the weights are read once, and the model is the memory's own."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = AmountClassifier()
        return _shared


__all__ = [
    "FEATURES",
    "WEIGHTS",
    "AmountClassifier",
    "adjudicable",
    "cheap_features",
    "design",
    "load_weights",
    "names_money",
    "shared_amount_classifier",
]
