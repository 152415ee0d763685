"""Checking the facts of one `Memory.record` call together.

`PrivacyGuard.check` gives one verdict per fact: the rules of `memory.privacy.scan`; then
pieces that only together form a number ("my number starts with 138 0013" … "and ends with
8000", within the call or against the person's stored facts); then, with a reviewer (the
fast model, `memory.privacy.review`), a second opinion on facts the rules pass that hold
digits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol

from memory.privacy.categories import Category
from memory.privacy.numbers import compact, pieces, shape
from memory.privacy.rules import DIGIT, scan
from memory.privacy.text import normalise

_REVIEWS_AT_ONCE = 4


class PrivacyReviewer(Protocol):
    """A second opinion on a fact the rules let pass: its category, or None when it is fine
    (or when the reviewer could not tell: then the rules' verdict stands)."""

    def review(self, text: str) -> Category | None: ...


class PrivacyGuard:
    """The rules, pieces across facts, and an optional reviewer (see the module docstring)."""

    def __init__(self, *, reviewer: PrivacyReviewer | None = None) -> None:
        self.reviewer = reviewer

    def check(
        self, facts: Sequence[str], stored: Callable[[], Iterable[str]] = tuple
    ) -> list[Category | None]:
        """One verdict per fact. `stored` gives the person's remembered facts; it is only
        called when a new fact offers a piece of a number."""
        verdicts: list[Category | None] = [scan(fact) for fact in facts]
        self._join_pieces(facts, verdicts, stored)
        reviewer = self.reviewer
        if reviewer is not None:
            asked = [
                index
                for index, fact in enumerate(facts)
                if verdicts[index] is None and DIGIT.search(normalise(fact).text)
            ]
            if asked:  # at once, so a call's wait is one review's timeout, not the sum
                with ThreadPoolExecutor(max_workers=min(len(asked), _REVIEWS_AT_ONCE)) as pool:
                    found = pool.map(lambda index: reviewer.review(facts[index]), asked)
                    for index, category in zip(asked, found, strict=True):
                        verdicts[index] = category
        return verdicts

    @staticmethod
    def _join_pieces(
        facts: Sequence[str], verdicts: list[Category | None], stored: Callable[[], Iterable[str]]
    ) -> None:
        """Refuse new facts whose pieces, next to each other or to stored pieces (oldest
        first, then this call's in order), make an ID, card or phone number."""
        new = [
            (index, part)
            for index, fact in enumerate(facts)
            for part in pieces(normalise(fact).text)
        ]
        if not any(verdicts[index] is None for index, _ in new):
            return
        old = [(None, part) for text in stored() for part in pieces(normalise(text).text)]
        sequence: list[tuple[int | None, str]] = [*old, *new]
        for size in (2, 3):
            for start in range(len(sequence) - size + 1):
                window = sequence[start : start + size]
                found = shape(compact("".join(part for _, part in window)))
                if found is None:
                    continue
                for index, _ in window:
                    if index is not None and verdicts[index] is None:
                        verdicts[index] = found


__all__ = ["PrivacyGuard", "PrivacyReviewer"]
