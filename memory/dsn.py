"""The shapes of `MEMORY_DSN`: a SQLite file, a PostgreSQL server, or a Bailian memory
library (`bailian://{memory_library_id}?project_id={project_id}`).

Read here, apart from the stores and from `memory.bailian`, so the settings can check a
DSN when they load without importing a backend (and no backend's package imports back).

The library `default` is the account's default library (the id is then left out of every
call, as the API documents), and without `project_id` the library's default memory rule
is used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

# First hour (issue 12): a DSN's shape is checked when the settings load, so a typo is one
# clear line at start rather than a traceback later.
DSN_FORMS = (
    "sqlite:///path/to/memory.db, postgresql://user@host:5432/database or "
    "bailian://{memory_library_id}[?project_id=...]"
)
SCHEME = "bailian"
MAX_LIBRARY_ID = 32
_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


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


def dsn_problem(dsn: str) -> str | None:
    """Why `dsn` cannot be a `MEMORY_DSN`, or None when its shape is right."""
    if not dsn.strip():
        return f"empty; expected {DSN_FORMS}"
    if dsn.startswith("sqlite:///"):
        if not dsn.removeprefix("sqlite:///").strip():
            return f"a SQLite DSN names a file; expected {DSN_FORMS}"
        return None
    if dsn.startswith(("postgresql://", "postgres://")):
        problem = netloc_problem(dsn)
        return f"{problem}; expected {DSN_FORMS}" if problem else None
    if dsn.startswith("bailian:"):
        try:
            BailianTarget.from_dsn(dsn)
        except ValueError as exc:
            return str(exc).removeprefix("MEMORY_DSN: ").removeprefix("MEMORY_DSN=")
        return None
    if dsn.startswith("sqlite:"):
        return (
            "a SQLite DSN has three slashes before a relative path (four before an "
            f"absolute one); expected {DSN_FORMS}"
        )
    return f"unsupported database; expected {DSN_FORMS}"


def netloc_problem(url: str) -> str | None:
    """Why the port of `url` cannot be one, or None."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        return "the port is not a number from 0 to 65535"
    return None


__all__ = ["DSN_FORMS", "BailianTarget", "dsn_problem", "is_bailian_dsn", "netloc_problem"]
