"""The policy component's tables, in the memory database (`memory.migrations`).

- `travel_policies`: every version of every organisation's policy, as its YAML was
  given, with who set it and when (never updated: a change is a new version);
- `policy_people`: a person's grade and department, with who set them and when;
- `policy_audit`: decisions, refused decisions, requests, policy and grade changes, and
  travel admins' reads of a colleague's memory, per organisation;
- `approval_requests`: an out-of-policy trip waiting for, or given, a decision; at most
  one pending per trip; `reply_to` is where it was asked (a channel's own address of
  the thread, with the asker's language and the decider's), so the outcome is told there;
  `told`, for an expired or decided one, whether its traveller was told ('' never claimed:
  an expiry not told yet, or a decision made by a process of the release before, which
  told it at the click; 'telling' while a process tells it, since `told_at`, under the
  claim `told_by`; 'retry' after a try that failed for a passing reason, `tell_tries`
  so far, the next not before `tell_after`;
  `tell_unsure_since`, when a try may have reached them; then what became of it:
  `bot.policy.tellings`).
"""

from __future__ import annotations

from memory.migrations import Migration, migrate
from memory.store import Backend

COMPONENT = "policy"


def _tables(time: str) -> tuple[str, ...]:
    return (
        f"""CREATE TABLE IF NOT EXISTS travel_policies (
            org TEXT NOT NULL,
            version INTEGER NOT NULL,
            body TEXT NOT NULL,
            set_by TEXT NOT NULL,
            set_at {time} NOT NULL,
            PRIMARY KEY (org, version)
        )""",
        f"""CREATE TABLE IF NOT EXISTS policy_people (
            namespace TEXT PRIMARY KEY,
            org TEXT NOT NULL,
            grade TEXT NOT NULL,
            department TEXT,
            set_by TEXT NOT NULL,
            set_at {time} NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS policy_people_org ON policy_people (org)",
        f"""CREATE TABLE IF NOT EXISTS policy_audit (
            id TEXT PRIMARY KEY,
            org TEXT NOT NULL,
            at {time} NOT NULL,
            kind TEXT NOT NULL,
            actor TEXT NOT NULL,
            subject TEXT,
            trip_id TEXT,
            request_id TEXT,
            detail TEXT NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS policy_audit_org ON policy_audit (org, at)",
        f"""CREATE TABLE IF NOT EXISTS approval_requests (
            id TEXT PRIMARY KEY,
            org TEXT NOT NULL,
            trip_id TEXT NOT NULL,
            trip TEXT NOT NULL,
            traveller TEXT NOT NULL,
            requester TEXT NOT NULL,
            choice TEXT NOT NULL,
            breaks TEXT NOT NULL,
            reason TEXT NOT NULL,
            approvers TEXT NOT NULL,
            policy_version INTEGER NOT NULL,
            state TEXT NOT NULL,
            created_at {time} NOT NULL,
            expires_at {time} NOT NULL,
            decided_by TEXT,
            decided_at {time},
            note TEXT NOT NULL DEFAULT ''
        )""",
        "CREATE INDEX IF NOT EXISTS approval_requests_org ON approval_requests (org, state)",
        "CREATE INDEX IF NOT EXISTS approval_requests_due ON approval_requests (state, expires_at)",
        "CREATE UNIQUE INDEX IF NOT EXISTS approval_requests_one_pending "
        "ON approval_requests (trip_id) WHERE state = 'pending'",
    )


# The loop of each process serving platforms asks each minute, and the answer is nearly
# always "none": equality on both columns and the order, so both databases answer from
# the index alone without reading the expired rows already told (a partial index is
# not picked by SQLite's planner without statistics).
_UNTOLD = (
    "CREATE INDEX IF NOT EXISTS approval_requests_untold "
    "ON approval_requests (state, told, decided_at)"
)

# Decisions made before migration 8 were told at the click, never recorded: marked as
# told, so the loop that now also tells decisions does not tell them again.
_DECIDED_BEFORE = (
    "UPDATE approval_requests SET told = 'before' "
    "WHERE state IN ('approved', 'rejected') AND told = ''"
)


POLICY_MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        version=1,
        description="travel policies (versioned), grades, the audit log and approval requests",
        sqlite=_tables("TEXT"),
        postgres=_tables("TIMESTAMPTZ"),
    ),
    Migration(
        version=2,
        description="where an approval was asked (the thread its outcome is told in)",
        sqlite=("ALTER TABLE approval_requests ADD COLUMN reply_to TEXT NOT NULL DEFAULT '{}'",),
        postgres=(
            "ALTER TABLE approval_requests ADD COLUMN IF NOT EXISTS reply_to TEXT NOT NULL "
            "DEFAULT '{}'",
        ),
    ),
    Migration(
        version=3,
        description="whether a traveller was told of an expiry (told once, by one process)",
        sqlite=(
            "ALTER TABLE approval_requests ADD COLUMN told TEXT NOT NULL DEFAULT ''",
            # Requests settled before: their outcome was told when they were (or never
            # will be); the sweep tells only what expires from now on.
            "UPDATE approval_requests SET told = 'before' WHERE state <> 'pending'",
        ),
        postgres=(
            "ALTER TABLE approval_requests ADD COLUMN IF NOT EXISTS told TEXT NOT NULL DEFAULT ''",
            "UPDATE approval_requests SET told = 'before' WHERE state <> 'pending'",
        ),
    ),
    Migration(
        version=4,
        description="the expired requests nobody has told yet, for the serve-side loop",
        sqlite=(_UNTOLD,),
        postgres=(_UNTOLD,),
    ),
    Migration(
        version=5,
        description="when a telling was claimed (a claim whose process died is taken again)",
        # A claim made before (NULL) counts as long ago: taken again at the next tick.
        sqlite=("ALTER TABLE approval_requests ADD COLUMN told_at TEXT",),
        postgres=("ALTER TABLE approval_requests ADD COLUMN IF NOT EXISTS told_at TIMESTAMPTZ",),
    ),
    Migration(
        version=6,
        description="who holds a telling's claim (only they record its outcome), and its "
        "retries after a platform's passing failure",
        sqlite=(
            "ALTER TABLE approval_requests ADD COLUMN told_by TEXT",
            "ALTER TABLE approval_requests ADD COLUMN tell_tries INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE approval_requests ADD COLUMN tell_after TEXT",
        ),
        postgres=(
            "ALTER TABLE approval_requests ADD COLUMN IF NOT EXISTS told_by TEXT",
            "ALTER TABLE approval_requests ADD COLUMN IF NOT EXISTS tell_tries INTEGER "
            "NOT NULL DEFAULT 0",
            "ALTER TABLE approval_requests ADD COLUMN IF NOT EXISTS tell_after TIMESTAMPTZ",
        ),
    ),
    Migration(
        version=7,
        description="since when a telling may have reached its traveller (a platform that "
        "drops a repeat of the same send for a while lets it be sent again until then)",
        sqlite=("ALTER TABLE approval_requests ADD COLUMN tell_unsure_since TEXT",),
        postgres=(
            "ALTER TABLE approval_requests ADD COLUMN IF NOT EXISTS tell_unsure_since TIMESTAMPTZ",
        ),
    ),
    Migration(
        version=8,
        description="a decision's telling is claimed and retried as an expiry's is; the "
        "decisions made before were told when they were made",
        sqlite=(_DECIDED_BEFORE,),
        postgres=(_DECIDED_BEFORE,),
    ),
)


class Tables:
    """Creates the component's tables on first use, once per object."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self._migrated = False

    def ready(self) -> None:
        if not self._migrated:
            migrate(self.backend, COMPONENT, POLICY_MIGRATIONS)
            self._migrated = True


__all__ = ["COMPONENT", "POLICY_MIGRATIONS", "Tables"]
