"""How a view looks in Slack (`bot.flows.views`): a message's text and Block Kit.

What is remembered is the text of `/travel-prefs show` (the Home tab is Slack's fuller
view of it, `bot.slack.views.home`); "forget everything?" is an ephemeral question whose
buttons carry their action's data as JSON (`read_value` reads it back); a plan is
`bot.slack.views.trip`. Remembered text is escaped (`bot.slack.markdown.escape`): a stored
`<!channel>` never pings anyone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from slack_sdk.models.blocks import ActionsBlock, ButtonElement

from bot.flows.actions import APPROVE, FORGET_PREFS_NO, FORGET_PREFS_YES, REJECT, SAVE_TRIP
from bot.flows.code_commands import coded_command, command_for
from bot.flows.codes import PendingActions
from bot.flows.views import (
    ApprovalView,
    Confirmation,
    Notice,
    PlanView,
    PreferencesView,
    ReasonForm,
)
from bot.messages import t
from bot.payloads import parse_json
from bot.slack.markdown import escape
from bot.slack.views.approval import (
    APPROVE_ACTION,
    REJECT_ACTION,
    approval_message,
    reason_message,
    reason_modal,
)
from bot.slack.views.blocks import (
    FORGET_ALL_CANCEL_ACTION_ID,
    FORGET_ALL_CONFIRM_ACTION_ID,
    MAX_BUTTON_CHARS,
    clipped,
    section,
)
from bot.slack.views.trip import SAVE_TRIP_ACTION, plan_message

# Slack's own words for some notices.
WORDING = {"prefs_card_not_yours": "prefs_not_yours"}
# The action id of each of the core's actions a Slack button carries.
ACTION_IDS = {
    FORGET_PREFS_YES: FORGET_ALL_CONFIRM_ACTION_ID,
    FORGET_PREFS_NO: FORGET_ALL_CANCEL_ACTION_ID,
    SAVE_TRIP: SAVE_TRIP_ACTION,
    APPROVE: APPROVE_ACTION,
    REJECT: REJECT_ACTION,
}


@dataclass(frozen=True)
class SlackMessage:
    """A message's fallback text and, when it has any, its blocks."""

    text: str
    blocks: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None  # a form, opened with the click's trigger
    typed: str = ""  # what a person may send instead of clicking (`save trip CODE`)
    code: str = ""  # the code `typed` names


def read_value(value: str) -> dict[str, Any]:
    """A button's data: its JSON value (a plain value, as older buttons carry, is the
    owner's id)."""
    try:
        data = parse_json(value)
    except ValueError:
        return {"owner": value} if value else {}
    return data if isinstance(data, dict) else {}


class SlackWidgets:
    """The `Widgets` of the Slack channel (see the module docstring). With `codes`, a
    plan that can be saved also says what to send instead of clicking (`save trip CODE`,
    `bot.flows.code_commands`), for whoever cannot use the button."""

    def __init__(self, codes: PendingActions | None = None) -> None:
        self.codes = codes

    def notice(self, view: Notice) -> SlackMessage:
        return SlackMessage(view.text(WORDING))

    def preferences(self, view: PreferencesView) -> SlackMessage:
        if not view.count:
            return SlackMessage(t("prefs_show_empty", view.lang))
        summary = escape(view.summary)
        return SlackMessage(t("prefs_show", view.lang, count=view.count, summary=summary))

    def confirmation(self, view: Confirmation) -> SlackMessage:
        lang, text = view.question.lang, view.question.text()
        buttons = ActionsBlock(
            block_id="travel_prefs.forget_all",
            elements=[
                ButtonElement(
                    text=clipped(view.yes_label, lang, MAX_BUTTON_CHARS),
                    action_id=ACTION_IDS[view.yes.name],
                    value=json.dumps(dict(view.yes.data)),
                    style="danger" if view.danger else "primary",
                ),
                ButtonElement(
                    text=clipped(view.no_label, lang, MAX_BUTTON_CHARS),
                    action_id=ACTION_IDS[view.no.name],
                    value=json.dumps(dict(view.no.data)),
                ),
            ],
        )
        return SlackMessage(text, [section(text).to_dict(), buttons.to_dict()])

    def plan(self, view: PlanView) -> SlackMessage:
        typed = code = ""
        if self.codes is not None and view.save is not None and not view.saved:
            typed, code = coded_command(view.save, view.part.lang, self.codes)
        text, blocks = plan_message(view, typed=typed)
        return SlackMessage(text, blocks, typed=typed, code=code)

    def reason_form(self, view: ReasonForm) -> SlackMessage:
        """A modal (`bot.slack.views.approval`), opened with a click's trigger; where it
        cannot be (a typed command, a trigger gone), a message with *Give a reason* and
        what to send instead (`reason CODE`), with `codes`; else the question alone."""
        modal = reason_modal(view)
        if self.codes is None:
            return SlackMessage(modal["blocks"][0]["text"]["text"], modal=modal)
        typed = command_for(view.submit, view.lang, self.codes)
        text, blocks = reason_message(view, typed=typed)
        return SlackMessage(text, blocks, modal=modal, typed=typed)

    def approval(self, view: ApprovalView) -> SlackMessage:
        text, blocks = approval_message(view)
        return SlackMessage(text, blocks)


__all__ = ["ACTION_IDS", "WORDING", "SlackMessage", "SlackWidgets", "read_value"]
