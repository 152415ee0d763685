"""`/travel-prefs` and its answers: a person's own view of, and control over, what the bot
remembers about them.

- `/travel-prefs` opens the preferences form (`bot.slack.preferences`);
- `/travel-prefs save trip CODE` (or `保存行程 CODE`) saves the trip a plan message offered
  under that code, as typing it to the bot does (`bot.slack.channel`, the core's
  `bot.flows.code_commands`): the traveller, or a travel admin; answered only to them;
  an out-of-policy choice opens the reason modal with the command's trigger, and
  `/travel-prefs reason CODE why` gives the reason the way typing it to the bot does;
  what follows (the approver asked, approved, rejected, expired) is told in their DM,
  never in the channel the command was typed in;
- `/travel-prefs show` says what is remembered, `forget` asks first (the core's flows,
  `bot.flows.preferences`: only the person who asked may answer, and a *yes* works once),
  `help` (and anything unknown) explains the command; `link` answers (only to them) with
  a fresh link to their preferences page in a browser (`bot.prefs.links`);
- a `travel_prefs.*` button or view that no longer exists (an old message or modal)
  is answered kindly and changes nothing. Those catch-alls are registered last, by
  `register_fallbacks`, so they only take what no other listener took.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

from slack_bolt import Ack

from bot.flows.actions import (
    FORGET_PREFS,
    FORGET_PREFS_NO,
    FORGET_PREFS_YES,
    PREFS_HELP,
    SHOW_PREFS,
    Action,
)
from bot.flows.views import Notice, render
from bot.messages import t
from bot.slack.api import SLACK_ERRORS, person_of, slack_error
from bot.slack.listeners.interaction import Interaction, on
from bot.slack.plan_message import redraw
from bot.slack.views.blocks import (
    ACTION_PREFIX,
    FORGET_ALL_CANCEL_ACTION_ID,
    FORGET_ALL_CONFIRM_ACTION_ID,
)
from bot.slack.views.notices import notice_modal
from bot.slack.views.widgets import read_value

if TYPE_CHECKING:
    from collections.abc import Callable

    from slack_bolt import App

    from bot.flows.pipeline import Pipeline
    from bot.slack.preferences import Preferences
    from memory.lang import Lang

log = logging.getLogger(__name__)

COMMAND = "/travel-prefs"
# The words after `/travel-prefs` that the core's flows answer.
SUBCOMMANDS = {"show": SHOW_PREFS, "forget": FORGET_PREFS}


def register(
    app: App,
    pipeline: Pipeline,
    prefs: Preferences,
    link_minutes: int,
    code_command: Callable[[str], tuple[Action, Lang] | None] | None = None,
) -> None:
    """`/travel-prefs` and the answers to `/travel-prefs forget`; `code_command` reads a
    code command (`save trip CODE`)."""

    @on("command", pipeline, once=True)
    def on_command(it: Interaction) -> None:
        words = str(it.body.get("text") or "").split()
        sub = words[0].lower() if words else ""
        found = code_command(" ".join(words)) if code_command is not None and words else None
        if found is not None:
            prefs.run(answer_code, it, *found)
        elif sub == "":
            channel = str(it.body.get("channel_id") or "")
            prefs.open_form(it.client, it.team, it.user, it.trigger_id, channel, it.respond)
        elif sub == "link":
            prefs.run(send_link, it)
        else:  # "help" and anything unknown: the help
            prefs.run(answer, it, Action(SUBCOMMANDS.get(sub, PREFS_HELP)))

    def answer(it: Interaction, action: Action) -> None:
        prefs.show(it, prefs.handle(it, action))

    def answer_code(it: Interaction, action: Action, lang: Lang) -> None:
        """A code command, in its own language; an out-of-policy choice opens the reason
        form with the command's trigger (else its text is the answer). A slash command is
        seen by its writer alone, so nothing it leads to is posted in its channel: the
        request names no thread, and what becomes of it goes to the writer's DM."""
        outcome = prefs.handle(it, action, lang, where={})
        modal = render(prefs.widgets, outcome.view).modal
        if modal is not None and it.trigger_id:
            try:
                it.client.views_open(trigger_id=it.trigger_id, view=modal)
                return
            except SLACK_ERRORS as exc:
                log.info("could not open the reason form (%s)", slack_error(exc))
        prefs.show(it, outcome, lang=lang)
        redraw(it.client, prefs.widgets, action, outcome)  # a save: its plan message too

    def send_link(it: Interaction) -> None:
        """The person's own link to the preferences page, only to them (ephemeral)."""
        lang = prefs.lang(it.client, it.team, it.user)
        url = prefs.browser_link(it.team, it.user, lang)
        if url is None:
            prefs.answer(it.client, it.user, it.respond, t("prefs_link_off", lang), lang=lang)
            return
        text = t("prefs_link", lang, url=url, minutes=link_minutes)
        # Never unfurled: a preview fetch would spend the single-use link.
        prefs.answer(
            it.client, it.user, it.respond, text, lang=lang, unfurl_links=False, unfurl_media=False
        )

    @on("block_actions", pipeline, once=True)
    def on_forget_confirm(it: Interaction) -> None:
        """The "yes" of `/travel-prefs forget`: the flows check it is the asker's own."""
        prefs.run(forget_all, it, Action(FORGET_PREFS_YES, read_value(it.value)))

    def forget_all(it: Interaction, action: Action) -> None:
        lang = prefs.lang(it.client, it.team, it.user)
        outcome = prefs.handle(it, action, lang)
        prefs.show(it, outcome)
        if outcome.tone == "success":
            prefs.publish_home(it.client, it.team, it.user, lang=lang)

    @on("block_actions", pipeline, once=True)
    def on_forget_cancel(it: Interaction) -> None:
        prefs.run(answer, it, Action(FORGET_PREFS_NO, read_value(it.value)))

    app.command(COMMAND)(on_command)
    app.action(FORGET_ALL_CONFIRM_ACTION_ID)(on_forget_confirm)
    app.action(FORGET_ALL_CANCEL_ACTION_ID)(on_forget_cancel)


def register_fallbacks(app: App, pipeline: Pipeline, prefs: Preferences) -> None:
    """The catch-alls for `travel_prefs.*` buttons and views; register them last."""

    @on("block_actions", pipeline)
    def on_unknown_action(it: Interaction) -> None:
        """A button of this feature that no longer exists: say so, change nothing."""
        view = it.body.get("view") or {}
        if view.get("type") == "home":  # a stale Home tab: show the current one
            prefs.run(prefs.publish_home, it.client, it.team, it.user)
        elif view.get("type") == "modal" and it.trigger_id:

            def notice() -> None:  # on top of the modal, so nothing typed there is lost
                lang = prefs.lang(it.client, it.team, it.user)
                text = t("prefs_unknown_action", lang)
                try:
                    it.client.views_push(trigger_id=it.trigger_id, view=notice_modal(lang, text))
                except SLACK_ERRORS as exc:
                    log.info("views.push failed (%s)", slack_error(exc))

            prefs.run(notice)
        else:
            prefs.run(stale, it)

    def stale(it: Interaction) -> None:
        lang = prefs.lang(it.client, it.team, it.user)
        text = Notice("prefs_unknown_action", lang).text()
        prefs.answer(it.client, it.user, it.respond, text, lang=lang)

    def on_unknown_view(ack: Ack, body: dict[str, Any]) -> None:
        team, user = person_of(body)
        lang = prefs.known_lang(team, user)
        ack(response_action="update", view=notice_modal(lang, t("prefs_form_outdated", lang)))

    prefix = re.compile("^" + re.escape(ACTION_PREFIX))
    app.action(prefix)(on_unknown_action)
    app.view(prefix)(on_unknown_view)


__all__ = ["COMMAND", "register", "register_fallbacks"]
