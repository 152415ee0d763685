"""`/travel-prefs` and its answers: a person's own view of, and control over, what the bot
remembers about them.

- `/travel-prefs` opens the preferences form (`bot.slack.preferences`);
- `/travel-prefs show` says what is remembered; `forget` asks first, and only the
  person who asked may answer (the buttons carry their id); `link` answers (only to
  them) with a fresh link to their preferences page in a browser (`bot.prefs.links`);
  `help` (and anything unknown) explains the command;
- a `travel_prefs.*` button or view that no longer exists (an old message or modal)
  is answered kindly and changes nothing. Those catch-alls are registered last, by
  `register_fallbacks`, so they only take what no other listener took.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

from slack_bolt import Ack

from bot.messages import t
from bot.prefs import remembered
from bot.slack.api import SLACK_ERRORS, person_of, slack_error
from bot.slack.listeners.interaction import Interaction, on
from bot.slack.mrkdwn import escape
from bot.slack.views.blocks import (
    ACTION_PREFIX,
    FORGET_ALL_CANCEL_ACTION_ID,
    FORGET_ALL_CONFIRM_ACTION_ID,
)
from bot.slack.views.notices import forget_all_prompt, notice_modal
from memory.errors import MemoryEngineError

if TYPE_CHECKING:
    from slack_bolt import App

    from bot.deps import Deps
    from bot.slack.preferences import Preferences

log = logging.getLogger(__name__)

COMMAND = "/travel-prefs"


def register(app: App, deps: Deps, prefs: Preferences) -> None:
    """`/travel-prefs` and the answers to `/travel-prefs forget`."""
    memory, metrics, claims = deps.memory, deps.metrics, deps.claims

    @on("command", metrics, once=claims)
    def on_command(it: Interaction) -> None:
        words = str(it.body.get("text") or "").split()
        sub = words[0].lower() if words else ""
        if sub == "":
            channel = str(it.body.get("channel_id") or "")
            prefs.open_form(it.client, it.team, it.user, it.trigger_id, channel, it.respond)
        elif sub == "show":
            prefs.run(show, it)
        elif sub == "forget":
            prefs.run(ask_forget, it)
        elif sub == "link":
            prefs.run(send_link, it)
        else:  # "help" and anything unknown
            prefs.run(prefs.reply, it.client, it.team, it.user, it.respond, "prefs_help")

    def show(it: Interaction) -> None:
        lang = prefs.lang(it.client, it.team, it.user)
        text = remembered.show(memory, it.namespace, lang, escape=escape)
        prefs.answer(it.client, it.user, it.respond, text)

    def send_link(it: Interaction) -> None:
        """The person's own link to the preferences page, only to them (ephemeral)."""
        lang = prefs.lang(it.client, it.team, it.user)
        url = prefs.browser_link(it.team, it.user, lang)
        if url is None:
            prefs.answer(it.client, it.user, it.respond, t("prefs_link_off", lang))
            return
        minutes = deps.settings.prefs_link_ttl_minutes
        text = t("prefs_link", lang, url=url, minutes=minutes)
        # Never unfurled: a preview fetch would spend the single-use link.
        prefs.answer(it.client, it.user, it.respond, text, unfurl_links=False, unfurl_media=False)

    def ask_forget(it: Interaction) -> None:
        lang = prefs.lang(it.client, it.team, it.user)
        try:
            count = len(memory.items(it.namespace))
        except MemoryEngineError:
            prefs.answer(it.client, it.user, it.respond, t("home_unavailable", lang))
            return
        if not count:
            prefs.answer(it.client, it.user, it.respond, t("prefs_forget_nothing", lang))
            return
        blocks = forget_all_prompt(lang, count, owner=it.user)
        text = t("prefs_forget_ask", lang, count=count)
        prefs.answer(it.client, it.user, it.respond, text, blocks=[b.to_dict() for b in blocks])

    @on("block_actions", metrics, once=claims)
    def on_forget_confirm(it: Interaction) -> None:
        """The "yes" of `/travel-prefs forget`; only the person who asked may answer it."""
        if it.value != it.user:
            prefs.run(prefs.reply, it.client, it.team, it.user, it.respond, "prefs_not_yours")
            return
        prefs.run(forget_all, it)

    def forget_all(it: Interaction) -> None:
        lang = prefs.lang(it.client, it.team, it.user)
        text = remembered.forget_all(
            memory, it.namespace, lang, metrics, revocations=deps.revocations
        )
        prefs.answer(it.client, it.user, it.respond, text, replace_original=True)
        prefs.publish_home(it.client, it.team, it.user, lang=lang)

    @on("block_actions", metrics, once=claims)
    def on_forget_cancel(it: Interaction) -> None:
        def cancelled() -> None:
            text = t("prefs_forget_cancelled", prefs.lang(it.client, it.team, it.user))
            prefs.answer(it.client, it.user, it.respond, text, replace_original=True)

        prefs.run(cancelled)

    app.command(COMMAND)(on_command)
    app.action(FORGET_ALL_CONFIRM_ACTION_ID)(on_forget_confirm)
    app.action(FORGET_ALL_CANCEL_ACTION_ID)(on_forget_cancel)


def register_fallbacks(app: App, deps: Deps, prefs: Preferences) -> None:
    """The catch-alls for `travel_prefs.*` buttons and views; register them last."""

    @on("block_actions", deps.metrics)
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
            prefs.run(prefs.reply, it.client, it.team, it.user, it.respond, "prefs_unknown_action")

    def on_unknown_view(ack: Ack, body: dict[str, Any]) -> None:
        team, user = person_of(body)
        lang = prefs.known_lang(team, user)
        ack(response_action="update", view=notice_modal(lang, t("prefs_form_outdated", lang)))

    prefix = re.compile("^" + re.escape(ACTION_PREFIX))
    app.action(prefix)(on_unknown_action)
    app.view(prefix)(on_unknown_view)


__all__ = ["COMMAND", "register", "register_fallbacks"]
