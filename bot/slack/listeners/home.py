"""The App Home tab: what the bot remembers about a person, with buttons to edit it,
forget one fact or forget everything, and to page through long lists.

Listeners only acknowledge (`bot.slack.listeners.interaction`); reading memory and
publishing the tab run on the task pool (`bot.slack.preferences`). Buttons that change
something are claimed once (a replayed click does nothing); forgetting everything is the
core's flow (`bot.flows.preferences`). The tab is built in `bot.slack.views.home`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from bot.flows.actions import FORGET_PREFS_YES, Action
from bot.messages import t
from bot.prefs import remembered
from bot.slack.answers import Answers
from bot.slack.listeners.interaction import Interaction, on
from bot.slack.views.blocks import (
    EDIT_ACTION_ID,
    FORGET_ALL_ACTION_ID,
    FORGET_ITEM_ACTION_ID,
    HOME_NEWER_ACTION_ID,
    HOME_OLDER_ACTION_ID,
    OPEN_IN_BROWSER_ACTION_ID,
)
from memory.errors import MemoryEngineError

if TYPE_CHECKING:
    from slack_bolt import App

    from bot.flows.pipeline import Pipeline
    from bot.metrics import Metrics
    from bot.slack.preferences import Preferences

_ITEM_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def register(
    app: App,
    pipeline: Pipeline,
    prefs: Preferences,
    metrics: Metrics,
    messages_tab: Callable[[Interaction, Mapping[str, Any]], None] | None = None,
) -> None:
    """The Home tab's event and buttons; the Messages tab opened goes to `messages_tab`
    (the Agent messaging experience, `bot.slack.listeners.agent`)."""
    memory = prefs.memory

    @on("app_home_opened", pipeline, acknowledge=False)
    def on_home_opened(it: Interaction) -> None:
        event = it.body.get("event") or {}
        tab = event.get("tab", "home")
        if tab == "home":
            prefs.run(prefs.publish_home, it.client, it.team, it.user)
        elif tab == "messages" and messages_tab is not None:
            messages_tab(it, event)

    @on("block_actions", pipeline)
    def on_page(it: Interaction) -> None:
        page = int(it.value) if it.value.isdigit() else 0
        prefs.run(prefs.publish_home, it.client, it.team, it.user, page)

    @on("block_actions", pipeline, once=True)
    def on_edit(it: Interaction) -> None:
        prefs.open_form(it.client, it.team, it.user, it.trigger_id, "", None)

    @on("block_actions", pipeline, once=True)
    def on_forget_item(it: Interaction) -> None:
        if not _ITEM_ID.match(it.value):  # never "forget" with no id: that erases everything
            prefs.run(prefs.publish_home, it.client, it.team, it.user)
            return
        prefs.run(forget_item, it)

    def forget_item(it: Interaction) -> None:
        try:
            remembered.forget_one(memory, it.namespace, it.value, metrics)
        except MemoryEngineError:
            lang = prefs.lang(it.client, it.team, it.user)
            failed = t("memory_forget_failed", lang)
            Answers(it.client, metrics).answer(it.user, failed, lang=lang)
            return
        if not prefs.publish_home(it.client, it.team, it.user):  # the tab still shows it
            lang = prefs.lang(it.client, it.team, it.user)
            note = t("home_forgot_not_refreshed", lang)
            Answers(it.client, metrics).answer(it.user, note, lang=lang)

    @on("block_actions", pipeline, once=True)
    def on_forget_all(it: Interaction) -> None:
        """The Home button, clicked after Slack's own confirm dialog."""
        prefs.run(forget_all, it)

    def forget_all(it: Interaction) -> None:
        lang = prefs.lang(it.client, it.team, it.user)
        outcome = prefs.handle(it, Action(FORGET_PREFS_YES, {"owner": it.namespace}), lang)
        Answers(it.client, metrics).answer(it.user, outcome.text, lang=lang)
        prefs.publish_home(it.client, it.team, it.user, lang=lang)

    @on("block_actions", pipeline)
    def on_open_in_browser(it: Interaction) -> None:
        """Slack opens the button's link itself; the click only needs acknowledging."""

    app.action(EDIT_ACTION_ID)(on_edit)
    app.action(OPEN_IN_BROWSER_ACTION_ID)(on_open_in_browser)
    app.action(FORGET_ITEM_ACTION_ID)(on_forget_item)
    app.action(FORGET_ALL_ACTION_ID)(on_forget_all)
    app.action(HOME_NEWER_ACTION_ID)(on_page)
    app.action(HOME_OLDER_ACTION_ID)(on_page)
    app.event("app_home_opened")(on_home_opened)


__all__ = ["register"]
