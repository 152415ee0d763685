"""Where in Bailian a deployment keeps its memory: the library and memory rule of
`MEMORY_DSN=bailian://...` (`BailianTarget`, read in `memory.dsn` with the other DSN
shapes), and the memory entity of each traveller.

Bailian's `user_id` (the "memory entity", at most 64 characters) is our namespace, so
one traveller's memory is one entity. A namespace longer than that, or with characters
outside a conservative set, is sent as `ns-` and its SHA-256 instead (the same namespace
always maps to the same id).
"""

from __future__ import annotations

import hashlib
import re

from memory.dsn import BailianTarget, is_bailian_dsn

MAX_USER_ID = 64
_USER_ID = re.compile(r"^[A-Za-z0-9_.:@-]{1,64}$")


def user_id(namespace: str) -> str:
    """The Bailian memory entity of a namespace (see the module docstring)."""
    if _USER_ID.match(namespace):
        return namespace
    return "ns-" + hashlib.sha256(namespace.encode("utf-8", "surrogatepass")).hexdigest()[:61]


__all__ = ["BailianTarget", "is_bailian_dsn", "user_id"]
