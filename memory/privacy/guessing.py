"""Whether the rules may guess that an unexplained number is an amount (round 18).

The last line of `memory.privacy.prices.priced` reads a bare number nothing explains as money.
`memory.privacy.amount_similarity` asks the rules once more with that guess switched off
(`without_guessing`), to tell facts refused only by the guess from facts refused by a rule
that names money; only the former are given to the learned decision.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_GUESSING: ContextVar[bool] = ContextVar("privacy_guessing", default=True)


def guessing() -> bool:
    """Whether an unexplained number may be read as an amount (True unless switched off)."""
    return _GUESSING.get()


@contextmanager
def without_guessing() -> Iterator[None]:
    """Within this block the rules read an unexplained number as no amount."""
    token = _GUESSING.set(False)
    try:
        yield
    finally:
        _GUESSING.reset(token)


__all__ = ["guessing", "without_guessing"]
