"""The memory engine's exceptions."""

from __future__ import annotations


class MemoryEngineError(Exception):
    """Base class of every error the memory engine raises on purpose."""


class StoreUnavailable(MemoryEngineError):
    """The database could not be reached or failed; nothing was written."""


class InvalidSlotValue(MemoryEngineError, ValueError):
    """`update_profile` got a slot or value that the profile schema does not allow."""


class InvalidNamespace(MemoryEngineError, ValueError):
    """Not a namespace: not text, empty, too long, or with characters no id has (a lone
    surrogate, a control or invisible format character). Raised by writes and by reads
    other than `recall`/`retrieve`, which answer "nothing remembered" instead."""
