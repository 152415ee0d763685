"""Telling travellers what became of their approval request (approved, rejected or
expired): once, tried again while the platform fails for a passing reason, never again
once it may have shown.

A decision's telling is claimed by the deciding UPDATE itself and tried at once by the
decider's process (`ApprovalFlows.decide` through `decided`, whose card says what became
of it); an expiry's is claimed by each serving process's loop (`ApprovalFlows.tell_expired`,
`bot.flows.expiry`) or a late click (`late`). The loop also takes up every telling due
another try, of a decision as of an expiry. Each telling's outcome is recorded under its
claim only (`bot.policy.tellings`). One try is the post in the thread where the traveller
asked; for an expiry, when that did not surely arrive, once more one-to-one (no decider
is there to pass it on, as one is for a decision), saying why it comes there. What the
try comes to:

- `sent`: a post arrived;
- `unconfirmed`: one may have arrived (the platform took it, no answer came): never sent
  again, so the traveller never reads it twice in the same place; except on a platform
  that drops a repeat of the same send for a while (a messenger's `resend_window`):
  there it is tried again, with the same keys, within that while
  (`bot.policy.tellings`), then stays `unconfirmed`;
- `unreachable`: the platform refused every post for good (the channel read its
  documented "cannot reach this person/chat" codes and logged what an admin must do):
  not tried again, logged here too;
- its outcome is recorded again, after a short wait, a few times while the store is
  unavailable (`SETTLE_WAITS`, each past the store's refusal window: `settle_waits`):
  a claim left to lapse would be taken again and its post, which may have arrived,
  sent again;
- a try that broke off (an error between the claim and its outcome) is settled all the
  same: `retry` when no post arrived or may have, else what its posts say; one
  request's failure never keeps the others of a tick untold;
- `retry`: nothing arrived and something may pass (a network error, a 503, a rate
  limit): the loop tries again after a wait that doubles, up to `APPROVAL_TELL_ATTEMPTS`
  tries in all, then `failed` (logged).

A decision whose later tries (the ones the decider's card announced) end `failed`,
`unreachable` or `unconfirmed` is passed to its decider: one message one-to-one, in the
language they clicked in, asking them to tell (or check with) the traveller
(`ask_decider`; `{platform}_approval_decider_asked_total{outcome}`): never silence.

Counted in `{platform}_approval_expiry_told_total{outcome}` and
`{platform}_approval_decision_told_total{outcome}`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from bot.flows.approval_words import COUNTED
from bot.flows.messengers import Messenger, Messengers, Sent, person_id, resend_window
from bot.flows.views import Notice, Outcome
from bot.messages import t
from memory.errors import MemoryEngineError, StoreUnavailable
from memory.lang import Lang

if TYPE_CHECKING:
    from bot.metrics import Metrics
    from bot.policy.approvals import Approvals
    from bot.policy.requests import ApprovalRequest

log = logging.getLogger(__name__)
EXPIRED = "expired"
# The waits (seconds) before recording a telling's outcome again while the store fails;
# each at least the store's refusal window after a failure (`settle_waits`).
SETTLE_WAITS = (0.5, 1.0, 2.5)


class OutcomeTelling:
    """Tells travellers the outcome of their requests (see the module docstring). `tell`
    posts the outcome in the thread (`ApprovalFlows.tell`)."""

    def __init__(
        self,
        *,
        approvals: Approvals,
        messengers: Messengers,
        metrics: Metrics,
        tell: Callable[[ApprovalRequest], Sent],
    ) -> None:
        self.approvals = approvals
        self.messengers = messengers
        self.metrics = metrics
        self.tell = tell
        self.sleep = time.sleep

    def untold(self, stopping: Callable[[], bool]) -> int:
        """Tell each traveller due a telling on a platform this process serves (read alone:
        another's backlog never hides them), until `stopping()`; how many were tried."""
        starting, or_none_of = self.messengers.owned()
        due = self.approvals.untold(starting=starting, or_none_of=or_none_of)
        tried = 0
        for asked in due:
            if stopping():
                break
            try:
                tried += self.once(asked)
            except Exception as exc:  # one request's failure never stops the others'
                log.warning("could not tell a traveller an outcome (%s)", type(exc).__name__)
        return tried

    def once(self, asked: ApprovalRequest) -> int:
        """Tell `asked`'s traveller if this process takes the claim; 1 when it tried."""
        messenger = self.messengers.of(asked.traveller)
        if messenger is None:
            return 0
        claim = self.approvals.claim_telling(asked.id)
        if claim is None:
            return 0
        self._under(messenger, asked, claim, [], later=True)
        return 1

    def decided(self, asked: ApprovalRequest, claim: str) -> tuple[Sent, str | None]:
        """Tell the traveller the decision `asked` now holds, under the deciding UPDATE's
        `claim`: what became of the post and what was recorded (`retry`: the loop tries
        again; None: nothing recorded, the claim lapses and a process that serves them
        takes it after `CLAIM_TTL`, as when no messenger for the traveller is here)."""
        messenger = self.messengers.of(asked.traveller)
        if messenger is None:
            return Sent.NOT_DELIVERED, None
        ends: list[Sent] = []
        try:
            recorded = self._under(messenger, asked, claim, ends)
        except (StoreUnavailable, MemoryEngineError) as exc:  # the claim lapses: retaken
            log.warning("could not record a decision's telling (%s)", type(exc).__name__)
            recorded = None
        return (ends[0] if ends else Sent.NOT_DELIVERED), recorded

    def late(self, asked: ApprovalRequest) -> None:
        """A click found `asked` expired: its traveller hears now rather than at the next
        loop; a store failure leaves the telling to that loop."""
        try:
            self.once(asked)
        except (StoreUnavailable, MemoryEngineError) as exc:
            log.warning("could not tell a traveller of an expiry (%s)", type(exc).__name__)

    def _under(
        self,
        messenger: Messenger,
        asked: ApprovalRequest,
        claim: str,
        ends: list[Sent],
        *,
        later: bool = False,
    ) -> str | None:
        """One try under `claim`, settled; what was recorded (None: the claim was taken
        back). `later`: not the decider's own try, whose card says what became of it."""
        window = resend_window(messenger)
        try:
            if window and self.approvals.tellings.unsure_past(asked.id, window):
                outcome = "unconfirmed"  # too late to send again: it might show twice
            else:
                outcome = _outcome(self._try(messenger, asked, ends))
        except Exception as exc:  # settled all the same: else retried every CLAIM_TTL
            outcome = _outcome_cut(ends)
            log.warning(
                "telling a traveller an outcome broke off (%s); recorded as %s",
                type(exc).__name__,
                outcome,
            )
        recorded = self._settle(asked.id, outcome, claim, window)
        name = messenger.platform.name
        what = "expiry" if asked.state == EXPIRED else "decision"
        if recorded is not None:
            self.metrics.inc(f"{name}_approval_{what}_told_total", outcome=recorded)
        if recorded == "unreachable":
            log.warning(
                "%s cannot reach the traveller of an approval request's %s: not tried "
                "again (the channel's warning says what an admin must fix)",
                name,
                what,
            )
        elif recorded == "failed":
            log.warning(
                "telling a traveller on %s the %s of their approval request failed on "
                "every try; not tried again (check the platform's status and the app's "
                "permissions; the trip shows its state wherever trips are shown)",
                name,
                what,
            )
        if later and what == "decision" and recorded in ("failed", "unreachable", "unconfirmed"):
            self.ask_decider(asked, recorded)  # their card said the traveller would be told
        return recorded

    def _settle(self, request_id: str, outcome: str, claim: str, window: timedelta) -> str | None:
        """`mark_told`, again after each of `SETTLE_WAITS` while the store is unavailable (a
        locked SQLite file, a dropped connection): a claim left to lapse is taken again
        after `CLAIM_TTL` and its post, which may have gone out, sent again. Run where
        the telling runs (the task pool, the loop's thread), never on an ack path."""
        for wait in (*settle_waits(self.approvals.backend), None):
            try:
                return self.approvals.mark_told(
                    request_id, outcome, claim=claim, resend_within=window
                )
            except StoreUnavailable as exc:
                if wait is None:
                    raise
                log.warning("could not record a telling (%s); again", type(exc).__name__)
                self.sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover

    def ask_decider(self, asked: ApprovalRequest, recorded: str) -> None:
        """Ask whoever decided `asked` to tell its traveller themselves, one-to-one in
        their language: a later try ended `recorded` (`failed`, `unreachable`, or
        `unconfirmed`: to check with them) after their card said it would be told."""
        decider = asked.decided_by or ""
        messenger = self.messengers.of(decider) if decider else None
        if messenger is None:
            log.warning("cannot ask the decider to tell the traveller: no channel serves them")
            return
        lang: Lang = "zh" if asked.reply_to.get("dl", asked.reply_to.get("l")) == "zh" else "en"
        key = (
            "approval_decider_unconfirmed" if recorded == "unconfirmed" else "approval_decider_tell"
        )
        words = {
            "traveller": messenger.platform.mention(person_id(asked.traveller)),
            "trip": asked.trip,
            "choice": asked.choice,
            "state": t(f"trip_state_{asked.state}", lang),
        }
        notice = Notice(key, lang, words)
        try:
            sent = messenger.to_person(
                decider,
                Outcome(notice, text=notice.text(), private=False),
                key=f"approval:{asked.id}:decider",
            )
        except Exception as exc:  # logged below: the trip shows its state wherever shown
            log.warning("could not ask a decider to tell a traveller (%s)", type(exc).__name__)
            sent = Sent.NOT_DELIVERED
        name = messenger.platform.name
        self.metrics.inc(f"{name}_approval_decider_asked_total", outcome=COUNTED[sent])
        if sent.missed:
            log.warning(
                "neither the traveller nor the decider of an approval request on %s could be "
                "told its %s (the trip shows its state wherever trips are shown)",
                name,
                asked.state,
            )

    def _try(self, messenger: Messenger, asked: ApprovalRequest, ends: list[Sent]) -> list[Sent]:
        """One try: the thread's post and, for an expiry that did not surely arrive, the
        direct one; what became of each (also in `ends`, each as soon as its post
        answered: `tell` and `to_person` catch their platform's errors, so an error
        escaping them came before their post). Not sent again in the thread when it may
        have arrived: a post the platform may have taken would show twice."""
        told = self.tell(asked)
        ends.append(told)
        if told is Sent.DELIVERED or asked.state != EXPIRED or not thread_of(asked):
            return [told]
        outcome = told_notice(messenger, asked, "approval_told_expired_direct")
        key = f"approval:{asked.id}:told:expired:direct"
        try:
            again = messenger.to_person(asked.traveller, outcome, key=key)
        except Exception as exc:  # the expiry stands whatever the platform does
            log.warning("could not tell a traveller of an expiry (%s)", type(exc).__name__)
            again = Sent.NOT_DELIVERED
        ends.append(again)
        name = messenger.platform.name
        self.metrics.inc(f"{name}_approval_expiry_direct_total", outcome=COUNTED[again])
        return [told, again]


def settle_waits(backend: object) -> tuple[float, ...]:
    """`SETTLE_WAITS`, each stretched past `backend`'s refusal window (PostgreSQL refuses
    every call for `retry_after` seconds after a failure without asking the server):
    else every try again would be refused unasked and the claim lapse all the same."""
    window = getattr(backend, "retry_after", 0.0)
    window = float(window) if isinstance(window, int | float) else 0.0
    return tuple(max(wait, window + 0.25) for wait in SETTLE_WAITS)


def thread_of(asked: ApprovalRequest) -> dict[str, Any]:
    """Where `asked` was asked (the channel's address of the thread), without the
    languages kept beside it (the asker's, `l`, and the decider's, `dl`)."""
    return {k: v for k, v in asked.reply_to.items() if k not in ("l", "dl")}


def told_notice(messenger: Messenger, asked: ApprovalRequest, key: str) -> Outcome:
    """The traveller's notice `key` of `asked`'s outcome, in the language they asked in."""
    lang: Lang = "zh" if asked.reply_to.get("l") == "zh" else "en"
    who = ""
    if asked.decided_by and asked.decided_by != "system":
        who = messenger.platform.mention(person_id(asked.decided_by))
    told = Notice(key, lang, {"who": who, "trip": asked.trip, "choice": asked.choice})
    return Outcome(told, text=told.text(), private=False)


def _outcome(ends: list[Sent]) -> str:
    """What a try's posts come to (see the module docstring)."""
    if Sent.DELIVERED in ends:
        return "sent"
    if Sent.UNCONFIRMED in ends:
        return "unconfirmed"
    if all(end is Sent.UNREACHABLE for end in ends):
        return "unreachable"
    return "retry"


def _outcome_cut(ends: list[Sent]) -> str:
    """What a try that broke off comes to: `retry` when nothing arrived or may have,
    else as its posts so far say (never sent again)."""
    if Sent.DELIVERED not in ends and Sent.UNCONFIRMED not in ends:
        return "retry"
    return _outcome(ends)


__all__ = ["OutcomeTelling", "settle_waits", "thread_of", "told_notice"]
