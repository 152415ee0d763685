"""A planned trip under an answer, and saving it: one payload, one permission rule.

- `TripFlows.plan_view(part, platform)`: what every channel shows under a plan. Whatever
  the model wrote, it says when the plan came from demo data and, for a colleague's plan,
  whose preferences were used; it offers *Save trip* (an action carrying the trip), or
  says the trip was saved already (an admin's plan for a colleague is saved at once).
- The payload (`encode`, `decode`): the trip, whose it is, who asked, the language and the
  best candidates, as one small JSON object, whatever button or code carries it.
- Who may save (`may_save`): the traveller, or a travel admin of the same workspace,
  tenant or organisation. Nothing in the payload decides it: the asker is who the
  platform says clicked, and admins come from configuration only.
- `save`: the rule, then `bot.planning.trips.save_planned` under catalogue city names
  (saving twice saves once), counted in `{platform}_trip_saves_total{outcome}`. When the
  option chosen is out of the travel policy (one picked with *Save with …*, data "p", or
  the plan's leading option of a leg), the trip is saved and the approval flow asks why
  (`bot.flows.approvals`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from bot.conversation.reply import PlanPart
from bot.flows.actions import SAVE_TRIP, Action, Request
from bot.flows.approvals import chosen, exceptions
from bot.flows.views import Notice, Outcome, PlanView
from bot.messages import t
from bot.planning.plan import LEGS, Candidate, PlannedTrip
from bot.planning.trips import InvalidTrip, save_planned
from memory.errors import StoreUnavailable
from memory.lang import Lang

if TYPE_CHECKING:
    from bot.flows.approvals import ApprovalFlows
    from bot.metrics import Metrics
    from bot.planning.admins import AdminResolver
    from bot.planning.trips import Trip, TripStore
    from bot.platform import Platform

log = logging.getLogger(__name__)

MAX_PER_LEG = 3  # candidates a payload carries per leg (what a card shows)
_TEXT = 120  # characters of a candidate's option and basis a payload keeps


def encode(part: PlanPart) -> dict[str, Any]:
    """The payload of a *Save trip* action for `part` (see the module docstring)."""
    trip = part.trip
    return {
        "ns": part.traveller,
        "u": part.traveller_user,
        "by": part.requester,
        "o": trip.origin,
        "d": trip.destination,
        "s": trip.start.isoformat(),
        "e": trip.end.isoformat() if trip.end else None,
        "l": part.lang,
        "x": trip.demo,
        "c": [_pack(c) for c in shown(trip.candidates)],
        "q": exceptions(shown(trip.candidates)),
    }


def decode(data: Mapping[str, Any] | None, *, lang: str = "en") -> PlanPart | None:
    """The plan a payload carries, or None when it is unreadable."""
    try:
        data = data or {}
        trip = PlannedTrip(
            origin=str(data["o"]),
            destination=str(data["d"]),
            start=date.fromisoformat(data["s"]),
            end=date.fromisoformat(data["e"]) if data.get("e") else None,
            demo=data.get("x") is True,
            candidates=tuple(_unpack(row) for row in data.get("c") or []),
        )
        traveller = str(data["ns"])
        language = data.get("l") if data.get("l") in ("en", "zh") else lang
        return PlanPart(
            trip=trip,
            traveller=traveller,
            traveller_user=str(data.get("u") or traveller.rsplit(":", 1)[-1]),
            requester=str(data["by"]),
            lang="zh" if language == "zh" else "en",
        )
    except (ValueError, KeyError, TypeError, AttributeError, IndexError):
        return None


def shown(candidates: tuple[Candidate, ...]) -> list[Candidate]:
    """The best few of each leg, in the planner's order."""
    found: list[Candidate] = []
    for leg in LEGS:
        found += [c for c in candidates if c.leg == leg][:MAX_PER_LEG]
    return found


class TripFlows:
    """Plans under answers, and saving them (see the module docstring)."""

    def __init__(
        self,
        *,
        trips: TripStore | None,
        admins: AdminResolver | None,
        metrics: Metrics,
        approvals: ApprovalFlows | None = None,
    ) -> None:
        self.trips = trips
        self.admins = admins
        self.metrics = metrics
        self.approvals = approvals

    def plan_view(
        self, part: PlanPart, platform: Platform, *, saved: str | None = None
    ) -> PlanView:
        """What is shown under a plan (`saved`: who saved it, once they did)."""
        lang, traveller = part.lang, platform.mention(part.traveller_user)
        notes = [t("plan_demo_note", lang)] if part.trip.demo else []
        if part.traveller_user != part.requester:
            notes.append(t("trip_preferences_of", lang, traveller=traveller))
        if part.saved and saved is None:
            saved = t("trip_auto_saved", lang, traveller=traveller)
        save = None
        picks: list[tuple[str, Action]] = []
        if self.trips is not None:
            payload = encode(part)
            save = Action(SAVE_TRIP, payload) if saved is None else None
            if self.approvals is not None and self.approvals.enabled:
                # *Save with …* each out-of-policy option *Save trip* does not choose (all
                # of them once the trip is saved, e.g. an admin's plan for a colleague).
                for index, leading, option, _ in payload["q"]:
                    if not leading or save is None:
                        picks.append((option, Action(SAVE_TRIP, {**payload, "p": index})))
        return PlanView(part=part, notes=tuple(notes), save=save, saved=saved, picks=tuple(picks))

    def may_save(self, request: Request, part: PlanPart) -> bool:
        """The one rule: the traveller, or a travel admin of the same workspace."""
        if request.namespace == part.traveller:
            return True
        if not request.platform.in_workspace(part.traveller, request.tenant):
            return False
        admins = self.admins
        return admins is not None and admins.is_admin(request.scope, request.user, request.admins)

    def save(self, request: Request) -> Outcome:
        part = decode(request.action.data, lang=request.lang)
        if part is None:
            return _notice(request, Notice("prefs_unknown_action", request.lang), "warning")
        lang, name = part.lang, request.platform.name
        if not self.may_save(request, part):
            self.metrics.inc(f"{name}_trip_saves_total", outcome="not_allowed")
            return _notice(request, Notice("trip_save_not_allowed", lang), "error")
        if self.trips is None:
            return _notice(request, Notice("trip_save_failed", lang), "error")
        try:
            trip, created = save_planned(
                self.trips, part.trip, part.traveller, created_by=request.namespace
            )
        except (InvalidTrip, StoreUnavailable) as exc:
            log.warning("could not save a trip (%s)", type(exc).__name__)
            self.metrics.inc(f"{name}_trip_saves_total", outcome="failed")
            return _notice(request, Notice("trip_save_failed", lang), "error")
        self.metrics.inc(f"{name}_trip_saves_total", outcome="saved" if created else "duplicate")
        options = chosen(request.action.data)
        approvals = self.approvals
        asked = trip.state in ("pending", "approved")  # asked already: saved is all
        if options and approvals is not None and approvals.enabled and not asked:
            return approvals.ask_reason(request, part, trip, options)
        who = request.platform.mention(request.user)
        note = t("trip_saved", lang, user=who) if created else t("trip_already_saved", lang)
        # The plan says it in the plan's language; saved already, the one line that answers
        # (`Outcome.unchanged`) is in the language of whoever asked.
        said = note if created else t("trip_already_saved", request.lang)
        toast = t("trip_saved_toast", lang) if created else said
        view = self.plan_view(part, request.platform, saved=note)
        return Outcome(
            view,
            text=said,
            toast=toast,
            tone="success",
            replace=True,
            private=False,
            unchanged=not created,
        )


MAX_LISTED = 10  # trips a person's own view lists


def trip_lines(trips: Sequence[Trip], lang: Lang, *, today: date) -> list[str]:
    """A person's trips not yet over, soonest first, each in a line with its approval
    state ("Shanghai → Chengdu, 2026-12-10 – 2026-12-12 · waiting for approval"): what App
    Home and the preferences page show."""
    lines = []
    for trip in trips:
        if (trip.end_date or trip.start_date) < today:
            continue
        dates = trip.start_date.isoformat()
        if trip.end_date and trip.end_date != trip.start_date:
            dates += f" – {trip.end_date.isoformat()}"
        where = trip.shown_destination  # the traveller's words ("成都"), not the key
        route = f"{trip.shown_origin} → {where}" if trip.shown_origin else where
        line = f"{route}, {dates}"
        if trip.state:
            line += " · " + t(f"trip_state_{trip.state}", lang)
        lines.append(line)
    return lines[:MAX_LISTED]


def _notice(request: Request, notice: Notice, tone: Any) -> Outcome:
    return Outcome(notice, text=notice.text(), tone=tone, private=True)


def _pack(c: Candidate) -> list[Any]:
    return [c.leg, c.kind, c.option[:_TEXT], c.score, c.basis[:_TEXT]]


def _unpack(row: Any) -> Candidate:
    leg, kind, option, score, basis = row
    return Candidate(str(leg), str(kind), str(option), int(score), str(basis))


__all__ = ["MAX_PER_LEG", "TripFlows", "decode", "encode", "shown", "trip_lines"]
