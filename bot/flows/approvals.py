"""Approvals where people talk: an out-of-policy choice, its reason, its approver's
decision and the traveller told, written once for every chat platform.

1. *Save trip* on a plan whose chosen option is out of policy (the option the traveller
   picked, or the plan's leading option of a leg) saves the trip and asks why
   (`ReasonForm`): the channel shows it as a form where its platform has one (a modal, a
   card form) or asks for a reply in the thread where it has none. The form carries the
   trip's id and where it was asked (`Request.where`).
2. The reason (`APPROVAL_REASON`) becomes an approval request (`bot.policy.approvals`):
   the trip goes `pending`, and each named approver of the traveller (the policy's, for
   their grade or department) gets `ApprovalView` one-to-one on the same platform: the
   trip, the rules broken in words, the reason, *Approve* / *Reject*. Asking again while
   one is pending (a double submit, a replay) asks nobody twice. The traveller is told
   what became of each card (`Sent`): sent, not sent (ask them or a travel admin), or
   unconfirmed (the platform may have it: tell them if they have not seen it).
3. A click on *Approve* / *Reject* (`APPROVE`, `REJECT`) decides once: only a named
   approver or a travel admin of the organisation may (anyone else is refused, in the
   audit log and `{platform}_approvals_total{outcome=refused}`); of two clicks, two
   approvers at once or a replay, exactly one decides, the others see the outcome that
   stands. The decider's card shows the outcome; the traveller is told in the thread
   where they asked (`Messenger.to_thread`), claimed with the decision and tried again
   on a later tick when the platform failed for a passing reason
   (`bot.flows.tellings`); when it was not delivered, is to be tried again or is
   unconfirmed, the decider's card and toast say so (the traveller may not know yet).
4. `sweep` (the clock) expires requests older than `APPROVAL_TTL_DAYS`; `tell_expired`
   (each serving process's loop, `bot.flows.expiry`; a late click at once) tells their
   travellers the same way, once, with what to do now; when the thread's post failed or
   is unconfirmed, once more one-to-one; a try the platform failed for a passing reason
   is tried again on a later tick (`bot.flows.tellings`).

A channel is a `Messenger` (it can post a view to a person, and into a thread it named)
and registers with the core's `Messengers`; nothing here names a platform.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.conversation.reply import PlanPart
from bot.flows.actions import APPROVAL_REASON, APPROVE, REJECT, Action, Request
from bot.flows.approval_words import (
    COUNTED,
    approval_body,
    asked_notice,
    card_text,
    reason_ask,
    state_line,
)
from bot.flows.exceptions import Exceptional, chosen, exceptions, trip_words
from bot.flows.messengers import Messenger, Messengers, Sent, person_id
from bot.flows.tellings import OutcomeTelling, thread_of, told_notice
from bot.flows.views import ApprovalView, Notice, Outcome, ReasonForm, Tone
from bot.messages import t
from bot.policy.orgs import org_of
from bot.policy.requests import ApprovalRequest, InvalidRequest
from bot.policy.rules import Break
from memory.errors import MemoryEngineError, StoreUnavailable
from memory.lang import Lang

if TYPE_CHECKING:
    from bot.metrics import Metrics
    from bot.planning.admins import AdminResolver
    from bot.planning.trips import Trip, TripStore
    from bot.platform import Platform
    from bot.policy.approvals import Approvals
    from bot.policy.store import PolicyBook

log = logging.getLogger(__name__)


class ApprovalFlows:
    """The approval flows (see the module docstring); each call reads or writes the
    database, so channels run them on the task pool."""

    def __init__(
        self,
        *,
        approvals: Approvals | None,
        policy: PolicyBook | None,
        trips: TripStore | None,
        admins: AdminResolver | None,
        metrics: Metrics,
        messengers: Messengers,
    ) -> None:
        self.approvals = approvals
        self.policy = policy
        self.trips = trips
        self.admins = admins
        self.metrics = metrics
        self.messengers = messengers

    @property
    def enabled(self) -> bool:
        return self.approvals is not None and self.policy is not None and self.trips is not None

    # -- 1. the reason ----------------------------------------------------------------------

    def ask_reason(
        self, request: Request, part: PlanPart, trip: Trip, options: Sequence[Exceptional]
    ) -> Outcome:
        """The form asking why `options` (out of policy) are needed for the saved `trip`."""
        lang = part.lang
        breaks = tuple(dict.fromkeys(b for c in options for b in c.breaks))
        choice = tuple(c.option for c in options)
        submit = Action(
            APPROVAL_REASON,
            {
                "trip": trip.id,
                "t": trip_words(part),
                "ch": list(choice),
                "br": list(breaks),
                "l": lang,
                "w": dict(request.where),
            },
        )
        form = ReasonForm(
            lang=lang, trip=trip_words(part), choice=choice, breaks=breaks, submit=submit
        )
        return Outcome(form, text=reason_ask(form), tone="warning", private=True)

    # -- 2. the request ---------------------------------------------------------------------

    def submit(self, request: Request) -> Outcome:
        """The reason given: ask the traveller's approvers (see the module docstring)."""
        data = request.action.data
        lang: Lang = "zh" if data.get("l") == "zh" else "en" if data.get("l") else request.lang
        if not self.enabled or self.trips is None or self.policy is None:
            return _say(Notice("approval_unavailable", lang), "error")
        assert self.approvals is not None
        name = request.platform.name
        try:
            trip = self.trips.get(str(data.get("trip") or ""))
        except (StoreUnavailable, MemoryEngineError):
            return _say(Notice("approval_unavailable", lang), "error")
        if trip is None:
            return _say(Notice("approval_unknown", lang), "warning")
        if not self._may_ask(request, trip.namespace):
            self.metrics.inc(f"{name}_approvals_total", outcome="not_allowed")
            return _say(Notice("approval_not_allowed", lang), "error")
        words = str(data.get("t") or trip.shown_destination)
        choice = [str(c) for c in data.get("ch") or []]
        breaks = [str(b) for b in data.get("br") or []]
        approvers = self.policy.approvers(trip.namespace)
        current = self.policy.current(org_of(trip.namespace))
        if not approvers or current is None:
            return _say(Notice("approval_no_approver", lang), "error")
        given = data.get("w")
        where: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
        try:
            asked, created = self.approvals.request(
                trip_id=trip.id,
                trip=words,
                traveller=trip.namespace,
                requester=request.namespace,
                choice="; ".join(choice),
                breaks=[Break.stated(b) for b in breaks],
                reason=str(data.get("reason") or ""),
                approvers=approvers,
                policy_version=current.version,
                reply_to={**where, "l": lang},
            )
        except InvalidRequest as exc:
            if exc.code.startswith("reason_"):
                form = replace(
                    reason_form(request.action), lang=lang, trip=words, error=f"approval_{exc.code}"
                )
                return Outcome(form, text=t(form.error or "", lang), tone="error", private=True)
            return _say(Notice("approval_not_allowed", lang), "error")
        except (StoreUnavailable, MemoryEngineError) as exc:
            log.warning("could not ask for an approval (%s)", type(exc).__name__)
            return _say(Notice("approval_unavailable", lang), "error")
        if not created:
            self.metrics.inc(f"{name}_approvals_total", outcome="duplicate")
            pending = Notice("approval_already_pending", lang, {"trip": words})
            return Outcome(pending, text=pending.text(), replace=True)
        self.metrics.inc(f"{name}_approvals_total", outcome="requested")
        messenger = self.messengers.of(trip.namespace)
        card = self.card(asked, request.platform, lang)
        ends: dict[str, Sent] = {}
        for approver in asked.approvers:
            ends[approver] = Sent.NOT_DELIVERED
            try:
                if messenger is not None:
                    ends[approver] = messenger.to_person(
                        approver,
                        Outcome(card, text=card_text(card), private=False),
                        key=f"approval:{asked.id}:ask:{approver}",
                    )
            except Exception as exc:  # the request stands; an admin can still decide
                log.warning("an approval request was not delivered (%s)", type(exc).__name__)
            self.metrics.inc(f"{name}_approval_cards_total", outcome=COUNTED[ends[approver]])
        told = asked_notice(ends, request.platform, words, lang)
        tone: Tone = "success" if told.key == "approval_sent" else "warning"
        return Outcome(told, text=told.text(), tone=tone, replace=True, private=False)

    def card(self, asked: ApprovalRequest, platform: Platform, lang: Lang) -> ApprovalView:
        """The approver's card for `asked`: buttons while pending, the outcome after."""
        pending = asked.state == "pending"
        decided = asked.decided_by
        return ApprovalView(
            lang=lang,
            request_id=asked.id,
            trip=asked.trip,
            traveller=platform.mention(person_id(asked.traveller)),
            choice=asked.choice,
            breaks=tuple(b.text(lang) for b in asked.breaks),
            reason=asked.reason,
            state=asked.state,
            expires=asked.expires_at.date().isoformat(),
            approve=Action(APPROVE, {"id": asked.id}) if pending else None,
            reject=Action(REJECT, {"id": asked.id}) if pending else None,
            decided_by=platform.mention(person_id(decided))
            if decided and decided != "system"
            else None,
        )

    # -- 3. the decision --------------------------------------------------------------------

    def decide(self, request: Request) -> Outcome:
        """*Approve* or *Reject*, once (see the module docstring)."""
        lang, name = request.lang, request.platform.name
        if self.approvals is None:
            return _say(Notice("approval_unavailable", lang), "error")
        approve = request.action.name == APPROVE
        is_admin = self.admins is not None and self.admins.is_admin(
            request.scope, request.user, request.admins
        )
        try:
            decision = self.approvals.decide(
                str(request.action.data.get("id") or ""),
                decider=request.namespace,
                approve=approve,
                is_admin=is_admin,
                lang=lang,
            )
        except (StoreUnavailable, MemoryEngineError) as exc:
            log.warning("could not decide an approval (%s)", type(exc).__name__)
            return _say(Notice("approval_unavailable", lang), "error")
        self.metrics.inc(f"{name}_approvals_total", outcome=decision.outcome)
        asked = decision.request
        if asked is None:
            return _say(Notice("approval_unknown", lang), "warning")
        if decision.outcome == "refused":
            return _say(Notice("approval_not_yours", lang), "error")
        card = self.card(asked, request.platform, lang)
        if not decision.decided:
            if decision.outcome == "expired":  # a late click: tell the traveller now, once
                self._tell_late(asked)
            toast = t("approval_already_decided", lang)
            return Outcome(card, text=card_text(card), toast=toast, tone="warning", replace=True)
        tone: Tone = "success" if approve else "warning"
        note = self._tell_decided(asked, decision.claim)
        if note is None:
            return Outcome(card, text=card_text(card), tone=tone, replace=True, private=False)
        card = replace(card, note=note)  # the traveller may not know yet: say so
        return Outcome(
            card,
            text=card_text(card),
            toast=t(note, lang),
            tone="warning",
            replace=True,
            private=False,
        )

    def tell(self, asked: ApprovalRequest) -> Sent:
        """Tell the traveller the outcome of `asked`, in the thread where it was asked
        (one-to-one when the channel named no thread); what became of it (each try
        counted in `{platform}_approval_told_total`; each telling's end in
        `bot.flows.tellings`' counters)."""
        messenger = self.messengers.of(asked.traveller)
        if messenger is None:
            return Sent.NOT_DELIVERED
        told = self._tell(messenger, asked)
        try:  # nothing after the post may hide that it went out (`bot.flows.tellings`)
            name = messenger.platform.name
            self.metrics.inc(f"{name}_approval_told_total", outcome=COUNTED[told])
        except Exception as exc:
            log.warning("could not count a telling (%s)", type(exc).__name__)
        return told

    def _tell(self, messenger: Messenger, asked: ApprovalRequest) -> Sent:
        where = thread_of(asked)
        outcome = told_notice(messenger, asked, f"approval_told_{asked.state}")
        key = f"approval:{asked.id}:told:{asked.state}"
        try:
            if where:
                return messenger.to_thread(where, outcome, key=key)
            return messenger.to_person(asked.traveller, outcome, key=key)
        except Exception as exc:  # a platform's failure never undoes the decision
            log.warning("could not tell a traveller an approval's outcome (%s)", type(exc).__name__)
            return Sent.NOT_DELIVERED

    # -- 4. expiry --------------------------------------------------------------------------

    def sweep(self) -> int:
        """Expire the requests whose time is up, then tell their travellers
        (`tell_expired`; its failure is logged apart, never the sweep's); how many
        expired. Nothing in production calls it: there the clock only expires
        (`expire_due`, `bot.compose.parts.start_warm_clock`) and each serving process's
        loop tells (`bot.flows.expiry`); it is both steps at once for tests and tools."""
        if self.approvals is None:
            return 0
        expired = self.approvals.expire_due()
        try:
            self.tell_expired()
        except Exception:  # the expiry stands; the next sweep or loop tells
            log.exception("telling travellers of expired approvals failed")
        return len(expired)

    def tell_expired(self, stopping: Callable[[], bool] = lambda: False) -> int:
        """Tell each expired request's traveller nobody has told yet, and each traveller
        whose telling (of an expiry or a decision) is due another try, on a platform this
        process serves, once (claimed in the database), until `stopping()`; how many
        (`bot.flows.tellings`). Nothing to tell: one indexed query."""
        telling = self._telling()
        return telling.untold(stopping) if telling is not None else 0

    def _tell_late(self, asked: ApprovalRequest) -> None:
        telling = self._telling()
        if telling is not None:
            telling.late(asked)

    def _tell_decided(self, asked: ApprovalRequest, claim: str | None) -> str | None:
        """Tell the traveller a decision just made, under its `claim`; the note for the
        decider's card when the traveller may not know yet (None: told). No process of
        this deployment serves their platform: nobody will tell them, so the decider."""
        if not self.messengers.served_anywhere(asked.traveller):
            return "approval_traveller_not_delivered"
        telling = self._telling()
        if telling is None or claim is None:  # a process serving them takes it later
            return "approval_traveller_retrying"
        told, recorded = telling.decided(asked, claim)
        if told is Sent.DELIVERED:
            return None
        if told is Sent.UNCONFIRMED:
            return "approval_traveller_unconfirmed"
        if recorded in ("retry", None):  # None: the claim lapses, the loop takes it again
            return "approval_traveller_retrying"
        return "approval_traveller_not_delivered"

    def _telling(self) -> OutcomeTelling | None:
        if self.approvals is None or not self.messengers:
            return None
        return OutcomeTelling(
            approvals=self.approvals,
            messengers=self.messengers,
            metrics=self.metrics,
            tell=self.tell,
        )

    # -- who ----------------------------------------------------------------------------------

    def _may_ask(self, request: Request, traveller: str) -> bool:
        """The traveller, or a travel admin of the same workspace (the save trip rule)."""
        if request.namespace == traveller:
            return True
        if not request.platform.in_workspace(traveller, request.tenant):
            return False
        admins = self.admins
        return admins is not None and admins.is_admin(request.scope, request.user, request.admins)


def reason_form(submit: Action) -> ReasonForm:
    """The reason form whose answer goes with `submit` (the `APPROVAL_REASON` action
    `ask_reason` made, as a code or a modal kept it), to ask again: a channel's button
    that opens the form, or an answer refused."""
    data = submit.data
    return ReasonForm(
        lang="zh" if data.get("l") == "zh" else "en",
        trip=str(data.get("t") or ""),
        choice=tuple(str(c) for c in data.get("ch") or []),
        breaks=tuple(str(b) for b in data.get("br") or []),
        submit=Action(APPROVAL_REASON, {k: v for k, v in data.items() if k != "reason"}),
    )


def _say(notice: Notice, tone: Tone) -> Outcome:
    return Outcome(notice, text=notice.text(), tone=tone, private=True)


__all__ = [
    "ApprovalFlows",
    "Messenger",
    "Messengers",
    "Sent",
    "approval_body",
    "asked_notice",
    "card_text",
    "chosen",
    "exceptions",
    "person_id",
    "reason_ask",
    "reason_form",
    "state_line",
    "trip_words",
]
