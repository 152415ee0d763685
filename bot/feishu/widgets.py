"""How a view looks in Feishu: interactive cards in schema 2.0 (`bot.feishu.cards`).

- a plan: the route and dates, each leg's scored candidates with their one-line basis
  ("红眼航班，用户明确避开"), the notes the core says under every plan (demo data, whose
  preferences), and *Save trip* or who saved it (the card turns green);
- what is remembered (escaped: a remembered fact is shown as written, never read as a
  mention, a link or a tag), what is never stored, *Edit* (the web page, when there is a
  link) and *Forget all*;
- "forget everything?" with *yes* and *cancel*; a notice;
- an out-of-policy choice's reason: a card form (one input, `reason`, sent back in the
  callback's `form_value`); the approver's card: the trip, the rules broken, the reason,
  *Approve* / *Reject*, and its outcome once decided (the card turns green or red).

A button's value is the action (`{"a": name, "l": lang, **data}`), read back by the
channel (`bot.feishu.channel`). Every name from the catalogue or the inventory is escaped
(`bot.feishu.markdown.escape`); the core's text goes through `to_card_markdown`, which
draws its mentions as Feishu's.
"""

from __future__ import annotations

from typing import Any

from bot.feishu.cards import button, buttons, card, markdown, note
from bot.feishu.markdown import escape, to_card_markdown
from bot.flows.actions import Action
from bot.flows.approvals import approval_body, reason_ask, state_line
from bot.flows.trips import shown
from bot.flows.views import (
    ApprovalView,
    Confirmation,
    Notice,
    PlanView,
    PreferencesView,
    ReasonForm,
)
from bot.messages import t
from bot.planning.plan import LEGS, PlannedTrip

REASON_FIELD = "reason"  # the form input's name: `form_value.reason` in the callback
_DECIDED = {"approved": "green", "rejected": "red", "expired": "grey"}
# Feishu's own words for some notices.
WORDING = {"prefs_help": "feishu_prefs_help"}


def value_of(action: Action, lang: str) -> dict[str, Any]:
    """A button's value for `action` (`bot.feishu.channel` reads it back)."""
    return {"a": action.name, "l": lang, **action.data}


class FeishuWidgets:
    """The `Widgets` of the Feishu channel (see the module docstring)."""

    def notice(self, view: Notice) -> dict[str, Any]:
        return notice_card(view.text(WORDING), lang=view.lang)

    def preferences(self, view: PreferencesView) -> dict[str, Any]:
        lang = view.lang
        text = t("prefs_show_empty", lang)
        if view.count:
            text = t("prefs_show", lang, count=view.count, summary=escape(view.summary))
        elements: list[dict[str, Any]] = [
            markdown(to_card_markdown(text)),
            note(t("prefs_never_stores", lang)),
        ]
        actions = []
        if view.edit_url:
            actions.append(button(t("home_edit", lang), url=view.edit_url, kind="primary"))
        if view.forget is not None:
            value = value_of(view.forget, lang)
            actions.append(button(t("home_forget_all", lang), value=value, kind="danger"))
        if actions:
            elements.append(buttons(*actions))
        return card(elements, title=t("home_title", lang), summary=t("home_title", lang))

    def confirmation(self, view: Confirmation) -> dict[str, Any]:
        lang = view.question.lang
        yes = button(
            t(view.yes_label, lang),
            value=value_of(view.yes, lang),
            kind="danger" if view.danger else "primary",
        )
        no = button(t(view.no_label, lang), value=value_of(view.no, lang))
        elements = [markdown(to_card_markdown(view.question.text())), buttons(yes, no)]
        return card(elements, title=t("home_title", lang), template="red")

    def plan(self, view: PlanView) -> dict[str, Any]:
        trip, lang = view.part.trip, view.part.lang
        elements = [note(to_card_markdown(text)) for text in view.notes]
        elements += _legs(trip, lang)
        title = _title(trip, lang)
        if view.saved:
            elements.append(note(to_card_markdown(view.saved)))
        elif view.save is not None:
            value = value_of(view.save, lang)
            elements.append(button(t("trip_save_button", lang), value=value, kind="primary"))
        for option, action in view.picks:  # *Save with …* an out-of-policy option
            label = t("approval_pick_button", lang, option=option)
            elements.append(button(label[:60], value=value_of(action, lang)))
        if view.saved:
            return card(elements, title=title, summary=title, template="green")
        return card(elements, title=title, summary=title)

    def reason_form(self, view: ReasonForm) -> dict[str, Any]:
        lang = view.lang
        ask = reason_ask(view, escape)
        submit = button(
            t("approval_reason_submit", lang), value=value_of(view.submit, lang), kind="primary"
        )
        submit |= {"name": "submit", "form_action_type": "submit"}
        field = {
            "tag": "input",
            "name": REASON_FIELD,
            "required": True,
            "max_length": 500,
            "label": {"tag": "plain_text", "content": t("approval_reason_label", lang)},
            "placeholder": {"tag": "plain_text", "content": t("approval_reason_hint", lang)},
        }
        elements: list[dict[str, Any]] = [markdown(to_card_markdown(ask))]
        if view.error:
            elements.append(note(t(view.error, lang)))
        elements.append({"tag": "form", "name": "approval_reason", "elements": [field, submit]})
        title = t("approval_reason_title", lang)
        return card(elements, title=title, summary=title, template="orange")

    def approval(self, view: ApprovalView) -> dict[str, Any]:
        lang = view.lang
        body = approval_body(view, escape)
        elements: list[dict[str, Any]] = [markdown(to_card_markdown(body))]
        state = state_line(view)
        if state:
            elements.append(note(to_card_markdown(state)))
        actions = [
            button(t(label, lang), value=value_of(action, lang), kind=kind)
            for action, label, kind in (
                (view.approve, "approval_approve", "primary"),
                (view.reject, "approval_reject", "danger"),
            )
            if action is not None
        ]
        if actions:
            elements.append(buttons(*actions))
        title = t("approval_title", lang, trip=view.trip)
        template = _DECIDED.get(view.state, "orange")
        return card(elements, title=title, summary=title, template=template)


def notice_card(text: str, *, lang: str) -> dict[str, Any]:
    """A card that says `text` (the core's Markdown), no buttons."""
    return card([markdown(to_card_markdown(text))], title=t("home_title", lang))


def _legs(trip: PlannedTrip, lang: str) -> list[dict[str, Any]]:
    elements: list[dict[str, Any]] = []
    for leg in LEGS:
        rows = [c for c in shown(trip.candidates) if c.leg == leg]
        if rows:
            lines = [f"**{t('plan_leg_' + leg, lang)}**"]
            lines += [
                f"**{c.score}** · {escape(c.option)}\n{escape(c.basis)}"
                if c.basis
                else f"**{c.score}** · {escape(c.option)}"
                for c in rows
            ]
            elements.append(markdown("\n".join(lines)))
    return elements


def _title(trip: PlannedTrip, lang: str) -> str:
    dates = trip.start.isoformat()
    if trip.end and trip.end != trip.start:
        dates += f" – {trip.end.isoformat()}"
    summary = t("trip_summary", lang, origin=trip.origin, destination=trip.destination, dates=dates)
    return summary.replace("*", "")


__all__ = ["REASON_FIELD", "WORDING", "FeishuWidgets", "notice_card", "value_of"]
