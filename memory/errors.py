"""The memory engine's exceptions."""

from __future__ import annotations


class MemoryEngineError(Exception):
    """Base class of every error the memory engine raises on purpose."""


class StoreUnavailable(MemoryEngineError):
    """The database could not be reached or failed; nothing was written."""


class InvalidSlotValue(MemoryEngineError, ValueError):
    """`update_profile` got a slot or value that the profile schema does not allow."""
