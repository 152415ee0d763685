"""The App Home tab: what the bot remembers about a person, with buttons to edit it,
forget one fact or forget everything, and to page through long lists.

`Home` is part of the `/travel-prefs` feature and is registered by
`bot.slack.listeners.prefs_command.register_prefs`, which hands it the feature's locale
cache, its worker pool (`run`) and the form opener the Edit button uses. Listeners only
acknowledge; reading memory and publishing the tab run on that pool.

This module also holds the small Slack helpers both modules use (`SLACK_ERRORS`,
`slack_error`, `team_of`, `user_of`, `dm`), so that `bot.slack.listeners.prefs_command`
can import them without an import cycle.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web import WebClient

from bot.messages import t
from bot.slack.views import home as home_views
from bot.slack.views import prefs_modal as views
from memory.errors import MemoryEngineError
from memory.lang import Lang

if TYPE_CHECKING:
    from slack_bolt import Ack, App, Respond

    from bot.deps import Deps
    from bot.slack.people import LocaleCache

log = logging.getLogger(__name__)

_ITEM_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")

SLACK_ERRORS = (SlackApiError, OSError)  # an error answer, or Slack unreachable


def slack_error(exc: Exception) -> str:
    """Why a Slack call failed, for the log: Slack's error code, or the exception's type."""
    if isinstance(exc, SlackApiError):
        return str(exc.response.get("error"))
    return type(exc).__name__


def team_of(body: Mapping[str, Any]) -> str:
    """The workspace of an interactivity payload."""
    team = body.get("team")
    if isinstance(team, Mapping) and isinstance(team.get("id"), str):
        return str(team["id"])
    user = body.get("user")
    if isinstance(user, Mapping) and isinstance(user.get("team_id"), str):
        return str(user["team_id"])
    return str(body.get("team_id") or "")


def user_of(body: Mapping[str, Any]) -> str:
    """The person who clicked or submitted, from an interactivity payload."""
    user = body.get("user")
    return str(user.get("id") or "") if isinstance(user, Mapping) else ""


def dm(client: WebClient, user: str, text: str) -> None:
    """Message the person directly; a failure is logged, never raised."""
    try:
        client.chat_postMessage(channel=user, text=text)
    except SLACK_ERRORS as exc:
        log.warning("could not message the person (%s)", slack_error(exc))


class Home:
    """The listeners of the Home tab, and publishing it."""

    def __init__(
        self,
        deps: Deps,
        *,
        locales: LocaleCache,
        run: Callable[..., None],
        open_form: Callable[[WebClient, str, str, str, str, Respond | None], None],
    ) -> None:
        self.deps = deps
        self.memory = deps.memory
        self.locales = locales
        self._run = run  # slow work goes to the feature's pool through this
        self._open_form = open_form

    def register(self, app: App) -> None:
        app.action(views.EDIT_ACTION_ID)(self.on_edit)
        app.action(views.FORGET_ITEM_ACTION_ID)(self.on_forget_item)
        app.action(views.FORGET_ALL_ACTION_ID)(self.on_forget_all)
        app.action(views.HOME_NEWER_ACTION_ID)(self.on_page)
        app.action(views.HOME_OLDER_ACTION_ID)(self.on_page)
        app.event("app_home_opened")(self.on_home_opened)

    def _count(self, kind: str) -> None:
        self.deps.metrics.inc("slack_events_total", type=kind)

    # -- the tab -------------------------------------------------------------------------------

    def on_home_opened(
        self, body: dict[str, Any], event: dict[str, Any], client: WebClient
    ) -> None:
        self._count("app_home_opened")
        if event.get("tab", "home") != "home":
            return
        user = str(event.get("user") or "")
        team = str(body.get("team_id") or "")
        if user and team:
            self._run(self.publish, client, team, user)

    def publish(
        self, client: WebClient, team: str, user: str, page: int = 0, lang: Lang | None = None
    ) -> None:
        """Publish the person's Home tab as memory holds it now."""
        lang = lang or self.locales.lang(client, team, user)
        namespace = f"{team}:{user}"
        try:
            items = self.memory.items(namespace)
            summary = self.memory.retrieve(namespace) if items else ""
            view = home_views.home_view(lang=lang, summary=summary, items=items, page=page)
        except MemoryEngineError:
            view = home_views.home_view(lang=lang, summary="", items=[], unavailable=True)
        try:
            client.views_publish(user_id=user, view=view)
        except SLACK_ERRORS as exc:
            log.warning("views.publish failed (%s)", slack_error(exc))

    def on_page(
        self, ack: Ack, body: dict[str, Any], action: dict[str, Any], client: WebClient
    ) -> None:
        self._count("block_actions")
        ack()
        user, team = user_of(body), team_of(body)
        value = str(action.get("value") or "0")
        page = int(value) if value.isdigit() else 0
        if user and team:
            self._run(self.publish, client, team, user, page)

    # -- buttons -------------------------------------------------------------------------------

    def on_edit(self, ack: Ack, body: dict[str, Any], client: WebClient) -> None:
        self._count("block_actions")
        ack()
        user, team = user_of(body), team_of(body)
        if user and team:
            self._open_form(client, team, user, str(body.get("trigger_id") or ""), "", None)

    def on_forget_item(
        self, ack: Ack, body: dict[str, Any], action: dict[str, Any], client: WebClient
    ) -> None:
        self._count("block_actions")
        ack()
        user, team = user_of(body), team_of(body)
        item_id = str(action.get("value") or "")
        if not (user and team):
            return
        if not _ITEM_ID.match(item_id):  # never "forget" with no id: that would erase everything
            self._run(self.publish, client, team, user)
            return
        self._run(self._forget_item, client, team, user, item_id)

    def _forget_item(self, client: WebClient, team: str, user: str, item_id: str) -> None:
        # The namespace is the clicker's own: an id from anyone else's memory matches nothing.
        try:
            count = self.memory.forget(f"{team}:{user}", item_id)
        except MemoryEngineError:
            dm(client, user, t("memory_unavailable", self.locales.lang(client, team, user)))
            return
        self.deps.metrics.inc("prefs_forgotten_total", count, scope="item")
        self.publish(client, team, user)

    def on_forget_all(self, ack: Ack, body: dict[str, Any], client: WebClient) -> None:
        """The Home button, clicked after Slack's own confirm dialog."""
        self._count("block_actions")
        ack()
        user, team = user_of(body), team_of(body)
        if user and team:
            self._run(self._forget_all, client, team, user)

    def _forget_all(self, client: WebClient, team: str, user: str) -> None:
        lang = self.locales.lang(client, team, user)
        dm(client, user, self.forget_all(team, user, lang))
        self.publish(client, team, user, lang=lang)

    def forget_all(self, team: str, user: str, lang: Lang) -> str:
        """Erase everything remembered about the person; what to tell them."""
        try:
            count = self.memory.forget(f"{team}:{user}")
        except MemoryEngineError:
            return t("memory_unavailable", lang)
        self.deps.metrics.inc("prefs_forgotten_total", count, scope="all")
        return (
            t("prefs_forgot_all", lang, count=count) if count else t("prefs_forget_nothing", lang)
        )


__all__ = ["SLACK_ERRORS", "Home", "dm", "slack_error", "team_of", "user_of"]
