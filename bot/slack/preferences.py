"""`/travel-prefs`, the preferences modal and the App Home tab in Slack: what their
listeners share.

Listeners (`bot.slack.listeners.prefs_command`, `.prefs_modal`, `.home`) run on Bolt's
listener pool and only do quick work: acknowledge, and for the form open a loading view
with the command's `trigger_id` at once (it expires after three seconds). Everything
that reads or writes memory, asks the model or looks up the person's locale runs on the
task pool (`Pools.run_task`), so neither Bolt's listener pool nor a queue of slow agent
turns can hold up a form, a save or the Home tab; the loading view is then replaced by
the form. One exception: a submitted form is checked inside its acknowledgement (inline
errors can only be given there), and the note's privacy check embeds it (tens of ms) and
reads the person's stored facts when, and only when, it offers a piece of a number.
The form itself is data (`bot.prefs.form`), drawn by `bot.slack.views`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING, Any

from slack_bolt import Respond
from slack_sdk.web import WebClient

from bot.flows.actions import Action, Request
from bot.flows.trips import trip_lines
from bot.flows.views import Outcome, render
from bot.messages import t
from bot.prefs.form import FormMeta, build_form
from bot.prefs.prefill import build_prefill
from bot.slack.answers import ANSWER_PATIENCE, Answers, channel_of, patiently, taken
from bot.slack.api import SLACK_ERRORS, slack_error
from bot.slack.incoming import PLATFORM
from bot.slack.views.home import home_view
from bot.slack.views.notices import loading_modal, notice_modal
from bot.slack.views.prefs_modal import preferences_modal
from bot.slack.views.widgets import SlackWidgets
from memory.errors import MemoryEngineError
from memory.lang import Lang

if TYPE_CHECKING:
    from collections.abc import Callable

    from bot.flows.pipeline import Flows
    from bot.prefs.links import LinkProvider
    from bot.prefs.prefill import LLMSlotMapper
    from bot.slack.channel import SlackChannel
    from bot.slack.listeners.interaction import Interaction
    from memory.protocol import LongTermMemory

log = logging.getLogger(__name__)


class Preferences:
    """The Slack side of a person's preferences: the form, the Home tab, and replies."""

    def __init__(
        self,
        *,
        memory: LongTermMemory,
        flows: Flows,
        channel: SlackChannel,
        run_task: Callable[..., None],
        mapper: LLMSlotMapper | None,
        free_text_limit: int,
        link: LinkProvider,
    ) -> None:
        self.flows = flows
        self.widgets = SlackWidgets(channel.codes)  # a reason form says what to send
        self.admins = channel.admins
        self.memory = memory
        self.schema = memory.schema
        self.free_text_limit = free_text_limit
        self.mapper = mapper
        self.people = channel.people
        self.run = run_task
        self.link = link
        self.metrics = channel.pipeline.metrics

    def browser_link(self, team: str, user: str, lang: Lang) -> str | None:
        """A fresh link to the person's preferences page (None: the page is not set up)."""
        return self.link(PLATFORM.key(team, user), lang)

    def lang(self, client: WebClient, team: str, user: str) -> Lang:
        return self.people.lang(client, team, user)

    def known_lang(self, team: str, user: str) -> Lang:
        """The person's language without asking Slack (the default when not known yet)."""
        return self.people.cached_lang(team, user) or self.people.default

    # -- replies ------------------------------------------------------------------------------

    def reply(
        self, client: WebClient, team: str, user: str, respond: Respond | None, key: str
    ) -> None:
        """The message `key` in the person's language, where the request came from."""
        lang = self.lang(client, team, user)
        self.answer(client, user, respond, t(key, lang), lang=lang)

    def answer(
        self,
        client: WebClient,
        user: str,
        respond: Respond | None,
        text: str,
        *,
        lang: Lang,
        channel: str = "",
        **extra: Any,
    ) -> None:
        """Reply where the request came from (its response_url), else in a DM; when
        neither takes it, the person is told why (`bot.slack.answers`)."""
        url = (respond.response_url if respond is not None else None) or ""
        Answers(client, self.metrics).answer(
            user, text, lang=lang, response_url=url, channel=channel, **extra
        )

    # -- the core's flows -------------------------------------------------------------------

    def handle(
        self,
        it: Interaction,
        action: Action,
        lang: Lang | None = None,
        *,
        where: Mapping[str, Any] | None = None,
    ) -> Outcome:
        """What the core's flows make of `action`, asked by `it`'s person (task pool);
        `where`: the thread it was asked in."""
        lang = lang or self.lang(it.client, it.team, it.user)
        request = Request(
            PLATFORM, it.team, it.user, action, lang, admins=self.admins, where=where or {}
        )
        return self.flows.handle(request)

    def show(self, it: Interaction, outcome: Outcome, *, lang: Lang | None = None) -> None:
        """An outcome where the request came from: replacing the clicked message when it
        says so, else ephemeral (or a DM); `lang`: the request's, when it has its own."""
        message = render(self.widgets, outcome.view)
        extra: dict[str, Any] = {"blocks": message.blocks} if message.blocks else {}
        if outcome.unchanged and not it.action:  # a command that changed nothing: its words
            extra = {}
            message = replace(message, text=outcome.text or message.text)
        if outcome.replace and it.action:
            extra["replace_original"] = True
        lang = lang or self.known_lang(it.team, it.user)
        channel = channel_of(it.body)
        self.answer(
            it.client, it.user, it.respond, message.text, lang=lang, channel=channel, **extra
        )

    def tell(self, client: WebClient, user: str, channel: str, text: str, *, lang: Lang) -> None:
        """Ephemeral in the channel of the command when there is one, else a DM; when
        neither takes it, the person is told why (`bot.slack.answers.Answers.tell`)."""
        Answers(client, self.metrics).tell(user, text, lang=lang, channel=channel)

    # -- the form -----------------------------------------------------------------------------

    def open_form(
        self,
        client: WebClient,
        team: str,
        user: str,
        trigger: str,
        channel: str,
        respond: Respond | None,
    ) -> None:
        """Open the loading view now (the trigger expires soon), then fill it in."""
        if not trigger:
            self.run(self.reply, client, team, user, respond, "prefs_no_trigger")
            return
        try:
            opened = client.views_open(
                trigger_id=trigger, view=loading_modal(self.people.cached_lang(team, user))
            )
        except SLACK_ERRORS as exc:
            log.warning("views.open failed (%s)", slack_error(exc))
            self.run(self.reply, client, team, user, respond, "prefs_open_failed")
            return
        view = opened.get("view") or {}
        self.run(self._fill_form, client, team, user, channel, view.get("id"), view.get("hash"))

    def _fill_form(
        self,
        client: WebClient,
        team: str,
        user: str,
        channel: str,
        view_id: str,
        view_hash: str | None,
    ) -> None:
        lang = self.lang(client, team, user)
        try:
            prefill = build_prefill(self.memory, PLATFORM.key(team, user), self.mapper)
            meta = FormMeta(
                user=user,
                team=team,
                lang=lang,
                channel=channel,
                base=prefill.base,
                platform=PLATFORM.name,
            )
            form = build_form(
                self.schema,
                meta,
                values=prefill.values,
                suggested=prefill.suggested,
                readonly=prefill.readonly,
                free_text_limit=self.free_text_limit,
                scoped=prefill.scoped,
            )
            view = preferences_modal(form)
        except MemoryEngineError:
            log.warning("could not read the profile for the form", exc_info=True)
            view = notice_modal(lang, t("home_unavailable", lang))
        try:
            client.views_update(view_id=view_id, hash=view_hash, view=view)
        except SLACK_ERRORS as exc:  # closed meanwhile, or replaced: nothing to do
            log.info("views.update of the form failed (%s)", slack_error(exc))

    # -- the Home tab -------------------------------------------------------------------------

    def publish_home(
        self, client: WebClient, team: str, user: str, page: int = 0, lang: Lang | None = None
    ) -> bool:
        """Publish the person's Home tab as memory holds it now (a rate limit waited out);
        False when Slack refused it: the person may still see the tab as it was."""
        lang = lang or self.lang(client, team, user)
        namespace = PLATFORM.key(team, user)
        link = self.browser_link(team, user, lang)
        trips = self.trip_lines(namespace, lang)
        try:
            items = self.memory.items(namespace)
            summary = self.memory.retrieve(namespace) if items else ""
            view = home_view(
                lang=lang,
                summary=summary,
                items=items,
                page=page,
                browser_url=link,
                trips=trips,
            )
        except MemoryEngineError:
            view = home_view(
                lang=lang, summary="", items=[], unavailable=True, browser_url=link, trips=trips
            )
        tried = patiently(
            lambda: client.views_publish(user_id=user, view=view), patience=ANSWER_PATIENCE
        )
        if not taken(tried):
            log.warning("views.publish failed (%s)", tried.error)
        return taken(tried)

    def trip_lines(self, namespace: str, lang: Lang) -> list[str]:
        """The person's coming trips with their approval state ([] when unknown)."""
        store = self.flows.trips.trips
        if store is None:
            return []
        try:
            return trip_lines(store.list(namespace), lang, today=date.today())
        except Exception as exc:  # the Home tab still shows what is remembered
            log.info("could not list trips for the Home tab (%s)", type(exc).__name__)
            return []


__all__ = ["Preferences"]
