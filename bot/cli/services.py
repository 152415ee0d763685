"""The outside services a one-shot command needs, checked before it starts, in one line.

A one-shot command (`memory ...`, `trips ...`, `warm --once`, the terminal console) whose
PostgreSQL does not answer says so in one line naming the host, the port and the variable
that points there, and exits 2: no driver warnings, and no "retrying shortly" when nothing
will retry. The served processes (`serve`, `socket`, `clock`, ...) never check: they
start, and the store keeps retrying, as a database that is down at start-up must only
degrade recall there.

`quiet_libraries` keeps the libraries' own retry chatter (the openai client's "Retrying
request", httpx's request lines, psycopg's pool warnings) off the terminal of a one-shot
command, which says what failed in its own words; `--log-level DEBUG` shows it all.
"""

from __future__ import annotations

import logging

from bot.messages import t
from bot.settings import Settings
from memory.lang import Lang

CONNECT_TIMEOUT_SECONDS = 3
# Loggers whose INFO lines are a library's progress, and the level a one-shot command shows.
CHATTY = {"openai": logging.WARNING, "httpx": logging.WARNING, "psycopg.pool": logging.ERROR}


def quiet_libraries(level: str) -> None:
    """Raise the chatty libraries' loggers to `CHATTY`, unless `level` is DEBUG."""
    if level == "DEBUG":
        return
    for name, quiet in CHATTY.items():
        logging.getLogger(name).setLevel(quiet)


def memory_problem(settings: Settings, lang: Lang = "en") -> str | None:
    """Why the memory database cannot be reached (one line, in `lang`), or None."""
    return database_problem(settings.memory_dsn, "MEMORY_DSN", lang)


def trips_problem(settings: Settings, lang: Lang = "en") -> str | None:
    """Why the trips database (`TRIPS_DSN`, else `MEMORY_DSN`) cannot be reached, or None."""
    variable = "TRIPS_DSN" if settings.trips_dsn.strip() else "MEMORY_DSN"
    return database_problem(settings.trips_database, variable, lang)


def database_problem(dsn: str, variable: str, lang: Lang = "en") -> str | None:
    """Why the PostgreSQL database at `dsn` cannot be reached, e.g. "cannot connect to
    PostgreSQL at 127.0.0.1:5999 (MEMORY_DSN): connection refused"; None when it answers
    or `dsn` is no PostgreSQL URL. The DSN itself (its password) is never repeated."""
    if not dsn.startswith(("postgresql://", "postgres://")):
        return None
    import psycopg

    try:
        with psycopg.connect(dsn, connect_timeout=CONNECT_TIMEOUT_SECONDS, autocommit=True):
            return None
    except psycopg.Error as exc:
        where, reason = _where(dsn), _reason(exc)  # the driver's reason stays its own words
        return t("cli_database_unreachable", lang, where=where, variable=variable, reason=reason)


def _where(dsn: str) -> str:
    """`host:port` of a PostgreSQL URL, with libpq's defaults."""
    from psycopg.conninfo import conninfo_to_dict

    try:
        params = conninfo_to_dict(dsn)
    except Exception:  # psycopg.ProgrammingError for a URL libpq cannot parse
        return "(an address libpq cannot read)"
    host = str(params.get("host") or params.get("hostaddr") or "localhost")
    return f"{host}:{params.get('port') or 5432}"


def _reason(exc: Exception) -> str:
    """The driver's reason, short: "connection refused", 'database "x" does not exist'."""
    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    reason = first.rpartition("failed: ")[2].strip() or first
    reason = reason.removeprefix("FATAL:").strip()
    return reason[:1].lower() + reason[1:]


__all__ = [
    "database_problem",
    "memory_problem",
    "quiet_libraries",
    "trips_problem",
]
