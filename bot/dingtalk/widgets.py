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

import re
from itertools import groupby
from typing import Any

from bot.dingtalk.codes import PendingActions
from bot.dingtalk.delivery import Button, Reply
from bot.dingtalk.markdown import answer_markdown, inert, send_link, title_of
from bot.flows.actions import (
    APPROVAL_REASON,
    APPROVE,
    FORGET_PREFS,
    FORGET_PREFS_NO,
    FORGET_PREFS_YES,
    REJECT,
    SAVE_TRIP,
    Action,
)
from bot.flows.approvals import approval_body, reason_ask, state_line
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
SAVE_TTL_SECONDS = 7 * 24 * 3600
# An approval's codes outlive any request (`APPROVAL_TTL_DAYS` is at most 90): a late tap
# is told the request expired, not that the button is unknown.
APPROVAL_TTL_SECONDS = 91 * 24 * 3600
CONFIRM_TTL_SECONDS = 600

_CODE = r"([A-Za-z0-9]{8})"
# The commands a button sends, by what they ask for: (English, Chinese); `{code}` names
# the action kept under a code. Read back (with the core's own commands) by the parser.
PHRASES: dict[str, tuple[str, str]] = {
    FORGET_PREFS: ("/travel-prefs forget", "删除我的偏好"),
    FORGET_PREFS_YES: ("/travel-prefs forget {code}", "确认删除偏好 {code}"),
    FORGET_PREFS_NO: ("/travel-prefs cancel", "取消删除偏好"),
    SAVE_TRIP: ("save trip {code}", "保存行程 {code}"),
    APPROVAL_REASON: ("reason {code}", "理由 {code}"),
    APPROVE: ("approve {code}", "批准 {code}"),
    REJECT: ("reject {code}", "驳回 {code}"),
}
# How long a code lives, by what it acts on (a confirmation: minutes).
_CODE_TTL = {
    SAVE_TRIP: SAVE_TTL_SECONDS,
    APPROVAL_REASON: SAVE_TTL_SECONDS,
    APPROVE: APPROVAL_TTL_SECONDS,
    REJECT: APPROVAL_TTL_SECONDS,
}
# The commands that carry a code, as a person may also type them.
_CODE_RULES: tuple[tuple[str, Lang, str], ...] = (
    (FORGET_PREFS_YES, "en", r"/travel-prefs\s+forget\s+"),
    (FORGET_PREFS_YES, "zh", r"确认删除偏好\s*"),
    (SAVE_TRIP, "en", r"(?:/save-trip|save\s+trip)\s+"),
    (SAVE_TRIP, "zh", r"保存行程\s*"),
    (APPROVAL_REASON, "en", r"reason\s+"),  # the code alone: no reason given
    (APPROVAL_REASON, "zh", r"(?:理由|原因)\s*"),
    (APPROVE, "en", r"approve\s+"),
    (APPROVE, "zh", r"批准\s*"),
    (REJECT, "en", r"reject\s+"),
    (REJECT, "zh", r"驳回\s*"),
)
CODE_COMMANDS = tuple(
    (name, lang, re.compile(rule + _CODE, re.IGNORECASE)) for name, lang, rule in _CODE_RULES
)
# The reason for an out-of-policy choice: the code, then the reason in the person's words.
REASON_COMMANDS: tuple[tuple[Lang, re.Pattern[str]], ...] = (
    ("en", re.compile(r"reason\s+" + _CODE + r"\s+(.+)", re.IGNORECASE | re.DOTALL)),
    ("zh", re.compile(r"(?:理由|原因)\s*" + _CODE + r"\s*(.+)", re.DOTALL)),
)
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
        english, chinese = PHRASES[action.name]
        phrase = chinese if lang == "zh" else english
        if "{code}" not in phrase:
            return phrase
        ttl = _CODE_TTL.get(action.name, CONFIRM_TTL_SECONDS)
        code = self.codes.put({"a": action.name, **action.data}, ttl_seconds=ttl)
        return phrase.format(code=code)

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


def code_action(text: str, codes: PendingActions) -> tuple[Action, Lang] | None:
    """The action a code command stands for (a stale one when its code is gone), or None
    when `text` is not a code command."""
    for lang, pattern in REASON_COMMANDS:
        match = pattern.fullmatch(text)
        if match:
            action = _action(codes.get(match.group(1).upper()), expected=APPROVAL_REASON)
            if action.name == APPROVAL_REASON:
                action = Action(action.name, {**action.data, "reason": match.group(2).strip()})
            return action, lang
    for name, lang, pattern in CODE_COMMANDS:
        match = pattern.fullmatch(text)
        if match:
            data = codes.get(match.group(1).upper())
            return _action(data, expected=name), lang
    return None


def _action(data: dict[str, Any] | None, *, expected: str) -> Action:
    if data is not None and "kind" in data and "a" not in data:  # a code kept before 2.3
        data = {
            **data,
            "a": {"save_trip": SAVE_TRIP, "forget_all": FORGET_PREFS_YES}.get(
                str(data["kind"]), ""
            ),
        }
        data.setdefault("owner", data.get("ns"))
    if data is None or data.get("a") != expected:
        return Action("stale", {"was": expected})
    return Action(expected, {k: v for k, v in data.items() if k not in ("a", "kind")})


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
    "CODE_COMMANDS",
    "PHRASES",
    "REASON_COMMANDS",
    "WORDING",
    "DingTalkWidgets",
    "code_action",
    "markdown_reply",
    "text_reply",
]
