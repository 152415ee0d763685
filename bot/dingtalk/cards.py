"""The robot's structured messages: a plan with its scores, the preferences card, and the
"forget everything?" question, each a `Reply` (Markdown, or an ActionCard with buttons).

Buttons that act send a command (`bot.dingtalk.commands`) through a `dtmd://` link
(`send_link`), so the person who taps is the sender DingTalk tells us. In a group the
robot only hears messages that @mention it, so a plan there says what to send instead of
offering a button. Text we did not write (city names, remembered preferences) goes
through `inert`.
"""

from __future__ import annotations

from itertools import groupby

from bot.conversation.reply import PlanPart
from bot.dingtalk.commands import phrase
from bot.dingtalk.delivery import Button, Reply
from bot.dingtalk.markdown import inert, send_link, title_of
from bot.messages import t
from bot.planning.plan import Candidate, PlannedTrip
from memory.lang import Lang

OPTIONS_PER_LEG = 3


def text_reply(markdown: str, at_users: tuple[str, ...] = (), *, title: str = "") -> Reply:
    return Reply(title=title or title_of(markdown, "…"), text=markdown, at_users=at_users)


def plan_card(part: PlanPart, *, save_code: str | None, in_group: bool) -> Reply:
    """The plan under an answer: route, dates, scored options, whose preferences, and how
    to save it (a button in a one-to-one chat; what to send, in a group)."""
    trip, lang = part.trip, part.lang
    lines = [_summary(trip, lang)]
    notes = [t("plan_demo_note", lang)] if trip.demo else []
    at_users: tuple[str, ...] = ()
    if part.traveller_user != part.requester:
        notes.append(t("trip_preferences_of", lang, traveller=f"@{part.traveller_user}"))
        at_users = (part.traveller_user,)
    lines += [f"> {note}" for note in notes]
    lines += _options(trip.candidates, lang)
    buttons: tuple[Button, ...] = ()
    if part.saved:
        lines.append(t("trip_auto_saved", lang, traveller=f"@{part.traveller_user}"))
        at_users = (part.traveller_user,)
    elif save_code is not None:
        command = phrase("save", lang, save_code)
        if in_group:
            lines.append(t("dingtalk_save_in_group", lang, command=f"**{command}**"))
        else:
            buttons = (Button(t("trip_save_button", lang), send_link(command)),)
            lines.append(t("dingtalk_or_send", lang, command=command))
    title = f"{inert(trip.origin)} → {inert(trip.destination)}"
    return Reply(title=title, text="\n\n".join(lines), buttons=buttons, at_users=at_users)


def prefs_card(summary: str, lang: Lang, *, page_url: str | None, can_forget: bool) -> Reply:
    """The answer to "/travel-prefs": the summary (already inert) and its buttons."""
    buttons: list[Button] = []
    if page_url:
        buttons.append(Button(t("dingtalk_prefs_edit", lang), page_url))
    if can_forget:
        buttons.append(Button(t("home_forget_all", lang), send_link(phrase("forget", lang))))
    return Reply(title=t("home_title", lang), text=summary, buttons=tuple(buttons))


def forget_prompt(count: int, code: str, lang: Lang) -> Reply:
    """ "Forget everything?", with the confirming and the cancelling button."""
    confirm = phrase("confirm", lang, code)
    text = "\n\n".join(
        [t("prefs_forget_ask", lang, count=count), t("dingtalk_or_send", lang, command=confirm)]
    )
    buttons = (
        Button(t("prefs_forget_yes", lang), send_link(confirm)),
        Button(t("prefs_cancel", lang), send_link(phrase("cancel", lang))),
    )
    return Reply(title=t("home_forget_all", lang), text=text, buttons=buttons)


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


__all__ = ["OPTIONS_PER_LEG", "forget_prompt", "plan_card", "prefs_card", "text_reply"]
