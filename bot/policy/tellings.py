"""Telling a traveller what became of their approval request (approved, rejected or
expired): claimed once, settled by its claimer. A decision's telling is claimed by the
deciding UPDATE itself (`Approvals.decide`), an expiry's by whoever tells it first.

The bookkeeping is `approval_requests.told` and the columns beside it (`bot.policy.schema`):

- `''`: never claimed: for an expiry, nobody has told the traveller yet; for a decision,
  one made by a process of the release before (a rolling deploy), which told it at the
  click and recorded nothing: it is never told again (`Approvals.untold`);
- `'telling'`: a process tells them, since `told_at`, under the claim `told_by` (a fresh
  random token per claim);
- `'retry'`: a try failed on the platform for a reason that passes (a network error, a
  503, a rate limit; never an answer that says it may have posted): the next is not
  before `tell_after`; `tell_tries` counts the tries;
- then what became of it: `sent`, `unconfirmed` (the platform may have shown it: never
  sent again, but see below), `unreachable` (the platform refused for good: it cannot
  reach this person or chat, only an admin can fix that), `failed` (still failing after
  the last try), or `before` (settled before its telling was recorded: migrations 3 and 8).

A claim older than `CLAIM_TTL` is its process's death: one other process takes it again.
Whatever the claimer then does, only the holder of the claim records an outcome (`settle`
compares `told_by`): a process thought dead that wakes up and answers late changes
nothing, so the outcome that stands is the one of whoever told last under a live claim.
Retries are in the database, so a restart keeps them; the wait doubles after each failed
try (`retry_seconds`, then twice that..., at most `MAX_RETRY_WAIT`).

A platform that drops a repeat of the same send for a while (the same key of the
caller's within an hour, say) lets a try that may have arrived be sent again within that while
(`resend_within`): `tell_unsure_since` keeps when the first such try was claimed (a
message of a process thought dead, whose claim was taken back, is at most `CLAIM_TTL`
older), and the telling is a `retry` while its next try starts more than twice
`CLAIM_TTL` (the longest a try takes) before that while ends; past it, or after
the last try, it is `unconfirmed` for good. Once a try may have arrived, no later try
records less than `unconfirmed`.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from memory.store import Backend

log = logging.getLogger(__name__)

# How long a telling may stay claimed before it counts as its process's death: far
# longer than a post and its one-to-one fallback take (each bounded by its timeouts).
CLAIM_TTL = timedelta(minutes=5)
MAX_RETRY_WAIT = timedelta(hours=1)
NO_RESEND = timedelta(0)  # a platform that shows every send: what may have arrived stays
TELLING, RETRY = "telling", "retry"
# What a settled telling may record; `retry` is not final: the loop tries again.
SETTLED = frozenset({"sent", "unconfirmed", "unreachable", "failed", RETRY})
# Not told yet: never claimed; a try to repeat whose time has come; or claimed (`told_at`)
# before the claim's time-out (NULL: a claim made before claims had a time). `told IN`
# first, so both databases search the `approval_requests_untold` index.
UNTOLD = (
    "told IN ('', 'telling', 'retry') AND (told = '' OR (told = 'retry' AND tell_after <= %s)"
    " OR (told = 'telling' AND (told_at IS NULL OR told_at < %s)))"
)


class Tellings:
    """Claims and outcomes of tellings on the approval requests' table (see above)."""

    def __init__(
        self,
        backend: Backend,
        *,
        clock: Callable[[], datetime],
        max_tries: int = 5,
        retry_seconds: float = 60.0,
    ) -> None:
        self.backend = backend
        self.clock = clock
        self.max_tries = max(1, max_tries)
        self.retry_wait = timedelta(seconds=retry_seconds)

    def untold(self) -> tuple[str, tuple[Any, ...]]:
        """The SQL (after an AND) that selects what may be claimed now, and its parameters."""
        now = self.clock()
        return UNTOLD, (self._t(now), self._t(now - CLAIM_TTL))

    def claim(self, request_id: str) -> str | None:
        """Take the telling of the request's traveller: the claim's token, to settle it
        with; None when another process (or this one) holds it or it is told."""
        where, params = self.untold()
        token = uuid.uuid4().hex
        with self.backend.transaction() as cur:
            cur.execute(
                self.backend.sql(
                    "UPDATE approval_requests SET told = 'telling', told_at = %s, told_by = %s "
                    f"WHERE id = %s AND {where}"
                ),
                (self._t(self.clock()), token, request_id, *params),
            )
            return token if cur.rowcount == 1 else None

    def unsure_past(self, request_id: str, within: timedelta) -> bool:
        """Whether a try of this telling may have arrived and another would no longer
        start early enough within `within` of it (see the module docstring)."""
        with self.backend.transaction() as cur:
            cur.execute(
                self.backend.sql("SELECT tell_unsure_since FROM approval_requests WHERE id = %s"),
                (request_id,),
            )
            row = cur.fetchone()
        if row is None or row[0] is None:
            return False
        return not self._resendable(self.backend.from_db_time(row[0]), self.clock(), within)

    def settle(
        self,
        request_id: str,
        claim: str,
        outcome: str,
        *,
        resend_within: timedelta = NO_RESEND,
    ) -> str | None:
        """Record what became of the telling under `claim`: `outcome` (one of `SETTLED`),
        or `failed` when a `retry` would be one try too many; what was recorded. None:
        the claim was taken back (this process was thought dead), nothing recorded.
        `resend_within`: how long the platform drops a repeat of the same send (a try
        that may have arrived is then tried again, see the module docstring)."""
        if outcome not in SETTLED:
            raise ValueError(f"not an outcome of a telling: {outcome}")
        held = "id = %s AND told = 'telling' AND told_by = %s"
        # Read, then one conditional write, each its own transaction: a read that a write
        # follows in one SQLite transaction cannot take the write lock once another
        # process wrote in between (it fails at once, whatever the busy timeout), and the
        # post already went out. Only the claim's holder changes `tell_tries`, so the
        # tries read are still the tries when the claim is still held.
        with self.backend.transaction() as cur:
            cur.execute(
                self.backend.sql(
                    "SELECT tell_tries, told_at, tell_unsure_since FROM approval_requests "
                    f"WHERE {held}"
                ),
                (request_id, claim),
            )
            row = cur.fetchone()
        if row is None:
            self._late(outcome)
            return None
        before = int(row[0] or 0)
        tries = before + 1
        now = self.clock()
        after = now + min(self.retry_wait * 2 ** (tries - 1), MAX_RETRY_WAIT)
        since = self.backend.from_db_time(row[2]) if row[2] is not None else None
        if since is None and outcome == "unconfirmed":
            since = self.backend.from_db_time(row[1]) if row[1] is not None else now
        if since is not None and outcome != "sent":  # a try may have arrived
            again = tries < self.max_tries and self._resendable(since, after, resend_within)
            outcome = RETRY if again else "unconfirmed"
        elif outcome == RETRY and tries >= self.max_tries:
            outcome = "failed"
        with self.backend.transaction() as cur:
            cur.execute(
                self.backend.sql(
                    "UPDATE approval_requests SET told = %s, tell_tries = %s, tell_after = %s, "
                    f"tell_unsure_since = %s WHERE {held} AND COALESCE(tell_tries, 0) = %s"
                ),
                (
                    outcome,
                    tries,
                    self._t(after),
                    self._t(since) if since is not None else None,
                    request_id,
                    claim,
                    before,
                ),
            )
            if cur.rowcount == 1:
                return outcome
        self._late(outcome)
        return None

    @staticmethod
    def _resendable(since: datetime, start: datetime, within: timedelta) -> bool:
        """Whether a try starting at `start` ends before the platform's `within` of
        `since` does (a try takes less than `CLAIM_TTL`). Twice that: `since` is when the
        first unsure try was claimed, and a process thought dead whose claim was taken back
        may have sent its message up to one `CLAIM_TTL` before it."""
        return within > NO_RESEND and start + 2 * CLAIM_TTL < since + within

    @staticmethod
    def _late(outcome: str) -> None:
        log.warning(
            "a telling's claim was taken back before its outcome (%s) was recorded; "
            "the outcome of the process that took it stands",
            outcome,
        )

    def _t(self, moment: datetime) -> Any:
        return self.backend.to_db_time(moment)


__all__ = ["CLAIM_TTL", "MAX_RETRY_WAIT", "NO_RESEND", "SETTLED", "UNTOLD", "Tellings"]
