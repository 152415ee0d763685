"""Where in Bailian a deployment keeps its memory: `MEMORY_DSN=bailian://...`.

`bailian://{memory_library_id}?project_id={project_id}`; the library `default` is the
account's default library (the id is then left out of every call, as the API documents),
and without `project_id` the library's default memory rule is used.

Bailian's `user_id` (the "memory entity", at most 64 characters) is our namespace, so
one traveller's memory is one entity. A namespace longer than that, or with characters
outside a conservative set, is sent as `ns-` and its SHA-256 instead (the same namespace
always maps to the same id).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

SCHEME = "bailian"
MAX_USER_ID = 64
MAX_LIBRARY_ID = 32
_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_USER_ID = re.compile(r"^[A-Za-z0-9_.:@-]{1,64}$")


@dataclass(frozen=True, slots=True)
class BailianTarget:
    """A memory library (None: the account's default) and a memory rule (None: default)."""

    library_id: str | None = None
    project_id: str | None = None

    @classmethod
    def from_dsn(cls, dsn: str) -> BailianTarget:
        parts = urlsplit(dsn)
        if parts.scheme != SCHEME:
            raise ValueError("a Bailian MEMORY_DSN starts with bailian://")
        library = parts.netloc or parts.path.strip("/")
        if parts.netloc and parts.path not in ("", "/"):
            library = ""
        if not library:
            raise ValueError(
                "MEMORY_DSN=bailian://{memory_library_id}: name the library, or 'default'"
            )
        if len(library) > MAX_LIBRARY_ID or not _ID.match(library):
            raise ValueError(
                f"MEMORY_DSN: the memory library id must be at most {MAX_LIBRARY_ID} "
                "letters, digits, '-' or '_'"
            )
        query = parse_qs(parts.query, keep_blank_values=True)
        unknown = set(query) - {"project_id"}
        if unknown:
            raise ValueError(f"MEMORY_DSN: unknown option(s) {', '.join(sorted(unknown))}")
        project = (query.get("project_id") or [""])[-1].strip() or None
        if project is not None and not _ID.match(project):
            raise ValueError("MEMORY_DSN: project_id must be letters, digits, '-' or '_'")
        return cls(None if library == "default" else library, project)

    def scope(self) -> dict[str, str]:
        """The library field for request bodies and queries ({} for the default library)."""
        return {"memory_library_id": self.library_id} if self.library_id else {}


def is_bailian_dsn(dsn: str) -> bool:
    return dsn.startswith(f"{SCHEME}://")


def user_id(namespace: str) -> str:
    """The Bailian memory entity of a namespace (see the module docstring)."""
    if _USER_ID.match(namespace):
        return namespace
    return "ns-" + hashlib.sha256(namespace.encode("utf-8", "surrogatepass")).hexdigest()[:61]


__all__ = ["BailianTarget", "is_bailian_dsn", "user_id"]
