"""How a view looks in DingTalk: Markdown, or an ActionCard with buttons (`Reply`).

A plan with its scores, what is remembered, "forget everything?", and notices
(`bot.flows.views`). Buttons that act send a command through a `dtmd://` link
(`send_link`), so the person who taps is the sender DingTalk tells us: a button's action
is kept under a short code (`bot.dingtalk.codes`) and its command names the code
(`保存行程 K7P2M9QX`, read back by `bot.dingtalk.incoming`). In a group the robot only
hears messages that @mention it, so a plan there says what to send instead of offering a
button. DingTalk has no form: an out-of-policy choice asks for the reason as a reply in
the chat (`理由 K7P2M9QX 客户就在隔壁`), and the approver's ActionCard sends `批准 CODE` or
`驳回 CODE`. Text we did not write (city names, remembered preferences) goes through `inert`;
the core's mentions become `@STAFF_ID` with the staff id in the reply's `at`.
"""

from __future__ import annotations

from itertools import groupby

from bot.dingtalk.delivery import Button, Reply
from bot.dingtalk.markdown import answer_markdown, inert, send_link, title_of
from bot.flows.actions import (
    Action,
)
from bot.flows.approvals import approval_body, reason_ask, state_line
from bot.flows.code_commands import command_for
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
from bot.planning.plan import Candidate, PlannedTrip
from memory.lang import Lang

OPTIONS_PER_LEG = 3

# DingTalk's own words for some notices.
WORDING = {
    "prefs_card_not_yours": "dingtalk_forget_not_yours",
    "prefs_help": "dingtalk_prefs_help",
}


def text_reply(markdown: str, at_users: tuple[str, ...] = (), *, title: str = "") -> Reply:
    return Reply(title=title or title_of(markdown, "…"), text=markdown, at_users=at_users)


def markdown_reply(text: str) -> Reply:
    """The core's text (mentions in its markup) as a reply that @s whom it names."""
    markdown, at_users = answer_markdown(text)
    return text_reply(markdown, at_users)


class DingTalkWidgets:
    """The `Widgets` of one reply: `in_group` when it goes to a group chat."""

    def __init__(self, codes: PendingActions, *, in_group: bool = False) -> None:
        self.codes = codes
        self.in_group = in_group

    def command(self, action: Action, lang: Lang) -> str:
        """What a button for `action` sends (its data kept under a code when it has any)."""
        return command_for(action, lang, self.codes)

    # -- the views --------------------------------------------------------------------------

    def notice(self, view: Notice) -> Reply:
        return markdown_reply(view.text(WORDING))

    def preferences(self, view: PreferencesView) -> Reply:
        lang = view.lang
        text = t("prefs_show_empty", lang)
        if view.count:
            text = t("dingtalk_prefs_show", lang, count=view.count, summary=inert(view.summary))
        buttons: list[Button] = []
        if view.edit_url:
            buttons.append(Button(t("dingtalk_prefs_edit", lang), view.edit_url))
        if view.forget is not None:
            command = self.command(view.forget, lang)
            buttons.append(Button(t("home_forget_all", lang), send_link(command)))
        return Reply(title=t("home_title", lang), text=text, buttons=tuple(buttons))

    def confirmation(self, view: Confirmation) -> Reply:
        lang = view.question.lang
        yes, no = self.command(view.yes, lang), self.command(view.no, lang)
        text = "\n\n".join([view.question.text(), t("dingtalk_or_send", lang, command=yes)])
        buttons = (
            Button(t(view.yes_label, lang), send_link(yes)),
            Button(t(view.no_label, lang), send_link(no)),
        )
        return Reply(title=t("home_forget_all", lang), text=text, buttons=buttons)

    def plan(self, view: PlanView) -> Reply:
        """Route, dates, scored options, whose preferences, and how to save it (a button in
        a one-to-one chat; what to send, in a group)."""
        trip, lang = view.part.trip, view.part.lang
        lines = [_summary(trip, lang), *(f"> {note}" for note in view.notes)]
        lines += _options(trip.candidates, lang)
        buttons: tuple[Button, ...] = ()
        if view.saved:
            lines.append(view.saved)
        elif view.save is not None:
            command = self.command(view.save, lang)
            if self.in_group:
                lines.append(t("dingtalk_save_in_group", lang, command=f"**{command}**"))
            else:
                buttons = (Button(t("trip_save_button", lang), send_link(command)),)
                lines.append(t("dingtalk_or_send", lang, command=command))
        if not self.in_group:  # *Save with …* an out-of-policy option
            for option, action in view.picks[: 5 - len(buttons)]:
                label = t("approval_pick_button", lang, option=inert(option))
                buttons += (Button(label[:60], send_link(self.command(action, lang))),)
        text, at_users = answer_markdown("\n\n".join(lines))
        title = f"{inert(trip.origin)} → {inert(trip.destination)}"
        return Reply(title=title, text=text, buttons=buttons, at_users=at_users)

    def reason_form(self, view: ReasonForm) -> Reply:
        """No form in DingTalk: what to reply, with the code that carries the trip."""
        lang = view.lang
        command = self.command(view.submit, lang)
        ask = reason_ask(view, inert)
        lines = [ask, t("approval_reason_reply", lang, command=f"**{command}**")]
        if view.error:
            lines.insert(0, t(view.error, lang))
        return text_reply("\n\n".join(lines), title=t("approval_reason_title", lang))

    def approval(self, view: ApprovalView) -> Reply:
        """An ActionCard: *Approve* / *Reject* send `批准 CODE` / `驳回 CODE`."""
        lang = view.lang
        body = approval_body(view, inert)
        lines = [body.replace("\n", "\n\n")]
        state = state_line(view)
        if state:
            lines.append(f"> {state}")
        buttons: tuple[Button, ...] = ()
        for action, label in ((view.approve, "approval_approve"), (view.reject, "approval_reject")):
            if action is not None:
                buttons += (Button(t(label, lang), send_link(self.command(action, lang))),)
        text, at_users = answer_markdown("\n\n".join(lines))
        title = t("approval_title", lang, trip=inert(view.trip))
        return Reply(title=title, text=text, buttons=buttons, at_users=at_users)


def _summary(trip: PlannedTrip, lang: Lang) -> str:
    dates = trip.start.isoformat()
    if trip.end and trip.end != trip.start:
        dates += f" – {trip.end.isoformat()}"
    return t(
        "dingtalk_trip_summary",
        lang,
        origin=inert(trip.origin),
        destination=inert(trip.destination),
        dates=dates,
    )


def _options(candidates: tuple[Candidate, ...], lang: Lang) -> list[str]:
    """Per leg, the best few options with their score and why."""
    blocks: list[str] = []
    for leg, rows in groupby(candidates, key=lambda c: c.leg):
        best = sorted(rows, key=lambda c: -c.score)[:OPTIONS_PER_LEG]
        heading = t(f"dingtalk_leg_{leg}", lang) if leg in ("outbound", "return", "hotel") else leg
        items = [
            f"- **{c.score}** · {inert(c.option)}" + (f" — {inert(c.basis)}" if c.basis else "")
            for c in best
        ]
        blocks.append(f"**{heading}**\n\n" + "\n".join(items))
    return blocks


__all__ = [
    "WORDING",
    "DingTalkWidgets",
    "markdown_reply",
    "text_reply",
]
