"""How a view looks in Toy: a dict with its text and its buttons (a button is the core's
action, carried as is: Toy's clicks send it back)."""

from __future__ import annotations

from typing import Any

from bot.flows.actions import Action
from bot.flows.approvals import card_text
from bot.flows.views import (
    ApprovalView,
    Confirmation,
    Notice,
    PlanView,
    PreferencesView,
    ReasonForm,
)
from bot.messages import t


def _button(label: str, action: Action) -> dict[str, Any]:
    return {"label": label, "action": action.name, "value": dict(action.data)}


class ToyWidgets:
    def notice(self, view: Notice) -> dict[str, Any]:
        return {"kind": "notice", "text": view.text()}

    def preferences(self, view: PreferencesView) -> dict[str, Any]:
        text = t("prefs_show", view.lang, count=view.count, summary=view.summary)
        buttons = [_button(t("home_forget_all", view.lang), view.forget)] if view.forget else []
        return {"kind": "preferences", "text": text, "buttons": buttons}

    def confirmation(self, view: Confirmation) -> dict[str, Any]:
        lang = view.question.lang
        buttons = [
            _button(t(view.yes_label, lang), view.yes),
            _button(t(view.no_label, lang), view.no),
        ]
        return {"kind": "confirmation", "text": view.question.text(), "buttons": buttons}

    def plan(self, view: PlanView) -> dict[str, Any]:
        trip = view.part.trip
        lang = view.part.lang
        buttons = [_button(t("trip_save_button", lang), view.save)] if view.save else []
        buttons += [_button(t("approval_pick_button", lang, option=o), a) for o, a in view.picks]
        lines = [
            f"{trip.origin} → {trip.destination}",
            *view.notes,
            *([view.saved] if view.saved else []),
        ]
        return {"kind": "plan", "text": "\n".join(lines), "buttons": buttons}

    def reason_form(self, view: ReasonForm) -> dict[str, Any]:
        """A form: one text field, sent back as the click's `reason`."""
        lang = view.lang
        text = t(
            "approval_reason_ask",
            lang,
            trip=view.trip,
            choice="; ".join(view.choice),
            breaks="; ".join(view.breaks),
        )
        error = t(view.error, lang) if view.error else None
        submit = _button(t("approval_reason_submit", lang), view.submit)
        return {"kind": "form", "text": text, "error": error, "buttons": [submit]}

    def approval(self, view: ApprovalView) -> dict[str, Any]:
        buttons = [
            _button(t(label, view.lang), action)
            for label, action in (
                ("approval_approve", view.approve),
                ("approval_reject", view.reject),
            )
            if action is not None
        ]
        return {
            "kind": "approval",
            "state": view.state,
            "text": card_text(view),
            "buttons": buttons,
        }


__all__ = ["ToyWidgets"]
