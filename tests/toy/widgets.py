"""How a view looks in Toy: a dict with its text and its buttons (a button is the core's
action, carried as is: Toy's clicks send it back)."""

from __future__ import annotations

from typing import Any

from bot.flows.actions import Action
from bot.flows.views import Confirmation, Notice, PlanView, PreferencesView
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
        buttons = [_button(t("trip_save_button", view.part.lang), view.save)] if view.save else []
        lines = [
            f"{trip.origin} → {trip.destination}",
            *view.notes,
            *([view.saved] if view.saved else []),
        ]
        return {"kind": "plan", "text": "\n".join(lines), "buttons": buttons}


__all__ = ["ToyWidgets"]
