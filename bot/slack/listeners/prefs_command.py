"""`/travel-prefs` and the preferences modal: a person's own view of, and control over,
what the bot remembers about them. The App Home tab is `bot.slack.listeners.home`; `register_prefs`
registers both.

Listeners run on Bolt's listener pool and only do quick work: acknowledge, and for the
form open a loading view with the command's `trigger_id` at once (it expires after three
seconds). Everything that reads or writes memory, asks the model or looks up the
person's locale runs on a small pool of this feature's own, so neither Bolt's listener
pool nor a queue of slow agent turns (`deps.executor`) can hold up a form, a save or the
Home tab; the loading view is then replaced by the form.

Saving writes the same memory the chat writes, for the namespace `{team}:{user}` of the
person who submitted, and only after the form proved to be theirs. Only slots changed in
the form are written (see `FormMeta`), so an edit made elsewhere while the form was open
is kept; a double submission of one view records once. What saving involves apart from
Slack is `bot.prefs.saving`; each person's language comes from `bot.slack.people`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from slack_sdk.web import WebClient

from bot.messages import t
from bot.prefs.prefill import build_prefill, slot_mapper, structured_profile
from bot.prefs.saving import SubmitClaims, clashes, merge_changes, record_note
from bot.slack.listeners.home import SLACK_ERRORS, Home, dm, slack_error, team_of, user_of
from bot.slack.people import LocaleCache
from bot.slack.views import prefs_modal as views
from bot.slack.views.prefs_modal import FormInput, FormMeta
from memory.errors import InvalidSlotValue, MemoryEngineError
from memory.lang import Lang

if TYPE_CHECKING:
    from slack_bolt import Ack, App, Respond

    from bot.deps import Deps

log = logging.getLogger(__name__)

COMMAND = "/travel-prefs"
WORKERS = 8  # form prefills (at most one fast-model call each), saves, Home publishes


class Prefs:
    """The listeners of `/travel-prefs` and the modal; owns the feature's pool and the Home."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps
        self.settings = deps.settings
        self.memory = deps.memory
        self.schema = deps.memory.schema
        self.mapper = slot_mapper(deps.settings)
        self.locales = LocaleCache(default=deps.settings.default_language)
        self.claims = SubmitClaims(redis=deps.redis, key_prefix=deps.settings.redis_key_prefix)
        self.pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="prefs")
        self.home = Home(deps, locales=self.locales, run=self._submit, open_form=self.open_form)

    def close(self, *, wait: bool = True) -> None:
        """Finish (with `wait`) the queued work and stop the pool."""
        self.pool.shutdown(wait=wait)

    def register(self, app: App) -> None:
        app.command(COMMAND)(self.on_command)
        app.view(views.FORM_CALLBACK_ID)(self.on_submit)
        app.action(views.FORGET_ALL_CONFIRM_ACTION_ID)(self.on_forget_confirm)
        app.action(views.FORGET_ALL_CANCEL_ACTION_ID)(self.on_forget_cancel)
        self.home.register(app)
        prefix = re.compile("^" + re.escape(views.ACTION_PREFIX))
        app.action(prefix)(self.on_unknown_action)  # registered last: only what nothing took
        app.view(prefix)(self.on_unknown_view)

    # -- helpers ------------------------------------------------------------------------------

    def _submit(self, fn: Callable[..., None], *args: Any) -> None:
        """Run slow work on this feature's pool, logging (never raising) its failures."""

        def run() -> None:
            try:
                fn(*args)
            except Exception:
                log.exception("travel-prefs work failed (%s)", getattr(fn, "__name__", "?"))

        try:
            self.pool.submit(run)
        except RuntimeError:  # shutting down
            log.warning("travel-prefs work dropped: the pool is shutting down")

    def _count(self, kind: str) -> None:
        self.deps.metrics.inc("slack_events_total", type=kind)

    def _tell(self, client: WebClient, user: str, channel: str, text: str) -> None:
        """Ephemeral in the channel of the command when there is one, else a DM."""
        if channel:
            try:
                client.chat_postEphemeral(channel=channel, user=user, text=text)
                return
            except SLACK_ERRORS as exc:
                log.info("ephemeral failed (%s); sending a DM", slack_error(exc))
        dm(client, user, text)

    # -- /travel-prefs ---------------------------------------------------------------------------

    def on_command(
        self, ack: Ack, command: dict[str, Any], client: WebClient, respond: Respond | None
    ) -> None:
        self._count("command")
        ack()
        words = str(command.get("text") or "").split()
        sub = words[0].lower() if words else ""
        user, team = str(command.get("user_id") or ""), str(command.get("team_id") or "")
        if not user or not team:
            return
        if sub == "":
            trigger = str(command.get("trigger_id") or "")
            channel = str(command.get("channel_id") or "")
            self.open_form(client, team, user, trigger, channel, respond)
        elif sub == "show":
            self._submit(self._show, client, team, user, respond)
        elif sub == "forget":
            self._submit(self._ask_forget, client, team, user, respond)
        else:  # "help" and anything unknown
            self._submit(self._reply, client, team, user, respond, "prefs_help")

    def _reply(
        self, client: WebClient, team: str, user: str, respond: Respond | None, key: str
    ) -> None:
        self._answer(client, user, respond, t(key, self.locales.lang(client, team, user)))

    def _answer(
        self, client: WebClient, user: str, respond: Respond | None, text: str, **extra: Any
    ) -> None:
        """Reply where the request came from (its response_url), else in a DM."""
        if respond is None:
            dm(client, user, text)
            return
        try:
            respond(text=text, response_type="ephemeral", **extra)
        except Exception as exc:  # an expired or broken response_url
            log.info("respond failed (%s); sending a DM", type(exc).__name__)
            dm(client, user, text)

    def _show(self, client: WebClient, team: str, user: str, respond: Respond | None) -> None:
        lang = self.locales.lang(client, team, user)
        namespace = f"{team}:{user}"
        try:
            count = len(self.memory.items(namespace))
            summary = self.memory.retrieve(namespace) if count else ""
        except MemoryEngineError:
            self._answer(client, user, respond, t("home_unavailable", lang))
            return
        text = t("prefs_show", lang, count=count, summary=views.escape(summary)) if count else ""
        self._answer(client, user, respond, text or t("prefs_show_empty", lang))

    def _ask_forget(self, client: WebClient, team: str, user: str, respond: Respond | None) -> None:
        lang = self.locales.lang(client, team, user)
        try:
            count = len(self.memory.items(f"{team}:{user}"))
        except MemoryEngineError:
            self._answer(client, user, respond, t("home_unavailable", lang))
            return
        if not count:
            self._answer(client, user, respond, t("prefs_forget_nothing", lang))
            return
        blocks = views.forget_all_prompt(lang, count, owner=user)
        self._answer(
            client,
            user,
            respond,
            t("prefs_forget_ask", lang, count=count),
            blocks=[b.to_dict() for b in blocks],
        )

    # -- the form ---------------------------------------------------------------------------------

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
            self._submit(self._reply, client, team, user, respond, "prefs_no_trigger")
            return
        try:
            opened = client.views_open(
                trigger_id=trigger, view=views.loading_modal(self.locales.cached(team, user))
            )
        except SLACK_ERRORS as exc:
            log.warning("views.open failed (%s)", slack_error(exc))
            self._submit(self._reply, client, team, user, respond, "prefs_open_failed")
            return
        view = opened.get("view") or {}
        self._submit(self._fill_form, client, team, user, channel, view.get("id"), view.get("hash"))

    def _fill_form(
        self,
        client: WebClient,
        team: str,
        user: str,
        channel: str,
        view_id: str,
        view_hash: str | None,
    ) -> None:
        lang = self.locales.lang(client, team, user)
        try:
            prefill = build_prefill(self.memory, f"{team}:{user}", self.mapper)
            meta = FormMeta(user=user, team=team, lang=lang, channel=channel, base=prefill.base)
            view = views.preferences_modal(
                self.schema,
                meta=meta,
                values=prefill.values,
                suggested=prefill.suggested,
                readonly=prefill.readonly,
                free_text_limit=self.settings.memory_max_fact_chars,
                scoped=prefill.scoped,
            )
        except MemoryEngineError:
            log.warning("could not read the profile for the form", exc_info=True)
            view = views.notice_modal(lang, t("home_unavailable", lang))
        try:
            client.views_update(view_id=view_id, hash=view_hash, view=view)
        except SLACK_ERRORS as exc:  # closed meanwhile, or replaced: nothing to do
            log.info("views.update of the form failed (%s)", slack_error(exc))

    def on_submit(
        self, ack: Ack, body: dict[str, Any], view: dict[str, Any], client: WebClient
    ) -> None:
        """Validate inside the acknowledgement; save on this feature's pool."""
        self._count("view_submission")
        user, team = user_of(body), team_of(body)
        meta = FormMeta.loads(view.get("private_metadata"))
        lang: Lang = (
            meta.lang if meta else (self.locales.cached(team, user) or self.locales.default)
        )
        if meta is None:
            ack(
                response_action="update",
                view=views.notice_modal(lang, t("prefs_form_outdated", lang)),
            )
            return
        if (meta.user, meta.team) != (user, team):
            log.warning("a preferences form was submitted by someone other than its owner")
            ack(response_action="update", view=views.notice_modal(lang, t("prefs_not_yours", lang)))
            return
        state = (view.get("state") or {}).get("values") or {}
        form = views.read_form(self.schema, state, lang, self.settings.memory_max_fact_chars)
        if form.errors:
            ack(response_action="errors", errors=form.errors)
            return
        ack()
        claim = f"{view.get('id')}:{view.get('hash')}" if view.get("id") else ""
        self._submit(self._save, client, meta, form, claim)

    def _save(self, client: WebClient, meta: FormMeta, form: FormInput, claim: str) -> None:
        if not self.claims.claim(claim):
            self.deps.metrics.inc("prefs_saves_total", outcome="duplicate")
            return
        lang, namespace = meta.lang, meta.namespace
        try:
            current = structured_profile(self.memory, namespace)
            changes, kept = merge_changes(meta.base, current, form.values)
            clash = clashes(self.schema, {**current, **changes}, lang)
            if clash:
                self.claims.release(claim)
                self.deps.metrics.inc("prefs_saves_total", outcome="conflict")
                text = t("prefs_save_conflict", lang, detail=clash)
                self._tell(client, meta.user, meta.channel, text)
                return
            outcomes = (
                self.memory.update_profile(namespace, changes, source="form", lang=lang)
                if changes
                else []
            )
        except MemoryEngineError as exc:
            self.claims.release(claim)
            self.deps.metrics.inc("prefs_saves_total", outcome="failed")
            log.warning("saving the form failed (%s)", type(exc).__name__)
            # InvalidSlotValue: the profile changed between the check and the write.
            key = (
                "prefs_form_outdated" if isinstance(exc, InvalidSlotValue) else "memory_unavailable"
            )
            self._tell(client, meta.user, meta.channel, t(key, lang))
            return
        notes, noted = record_note(self.memory, namespace, form.free_text, lang)
        changed = any(o.status in ("added", "updated") for o in outcomes)
        self.deps.metrics.inc("prefs_saves_total", outcome="saved" if changed or noted else "same")
        lines = [t("prefs_saved" if changed or noted else "prefs_unchanged", lang)]
        try:
            sentence = self.schema.render_sentence(structured_profile(self.memory, namespace), lang)
        except MemoryEngineError:
            sentence = ""
        if sentence:
            lines.append(t("prefs_saved_profile", lang, sentence=sentence))
        else:
            lines.append(t("prefs_saved_no_profile", lang))
        if kept:
            labels = [self.schema.slot(slot).label(lang) for slot in kept]
            lines.append(
                t("prefs_kept_newer", lang, slots=("、" if lang == "zh" else ", ").join(labels))
            )
        lines += notes
        self._tell(client, meta.user, meta.channel, "\n".join(lines))
        self.home.publish(client, meta.team, meta.user, lang=lang)

    # -- actions --------------------------------------------------------------------------------

    def on_forget_confirm(
        self,
        ack: Ack,
        body: dict[str, Any],
        action: dict[str, Any],
        client: WebClient,
        respond: Respond | None,
    ) -> None:
        """The "yes" of `/travel-prefs forget`; only the person who asked may answer it."""
        self._count("block_actions")
        ack()
        user, team = user_of(body), team_of(body)
        if not (user and team):
            return
        if action.get("value") != user:
            self._submit(self._reply, client, team, user, respond, "prefs_not_yours")
            return
        self._submit(self._forget_all, client, team, user, respond)

    def _forget_all(self, client: WebClient, team: str, user: str, respond: Respond | None) -> None:
        lang = self.locales.lang(client, team, user)
        text = self.home.forget_all(team, user, lang)
        self._answer(client, user, respond, text, replace_original=True)
        self.home.publish(client, team, user, lang=lang)

    def on_forget_cancel(
        self, ack: Ack, body: dict[str, Any], client: WebClient, respond: Respond | None
    ) -> None:
        self._count("block_actions")
        ack()
        user, team = user_of(body), team_of(body)

        def cancelled() -> None:
            text = t("prefs_forget_cancelled", self.locales.lang(client, team, user))
            self._answer(client, user, respond, text, replace_original=True)

        if user and team:
            self._submit(cancelled)

    def on_unknown_action(
        self, ack: Ack, body: dict[str, Any], client: WebClient, respond: Respond | None
    ) -> None:
        """A button of this feature that no longer exists: say so, change nothing."""
        self._count("block_actions")
        ack()
        user, team = user_of(body), team_of(body)
        if not (user and team):
            return
        view = body.get("view") or {}
        trigger = str(body.get("trigger_id") or "")
        if view.get("type") == "home":  # a stale Home tab: show the current one
            self._submit(self.home.publish, client, team, user)
        elif view.get("type") == "modal" and trigger:

            def notice() -> None:  # on top of the modal, so nothing typed there is lost
                lang = self.locales.lang(client, team, user)
                text = t("prefs_unknown_action", lang)
                try:
                    client.views_push(trigger_id=trigger, view=views.notice_modal(lang, text))
                except SLACK_ERRORS as exc:
                    log.info("views.push failed (%s)", slack_error(exc))

            self._submit(notice)
        else:
            self._submit(self._reply, client, team, user, respond, "prefs_unknown_action")

    def on_unknown_view(self, ack: Ack, body: dict[str, Any]) -> None:
        user, team = user_of(body), team_of(body)
        lang = self.locales.cached(team, user) or self.locales.default
        ack(response_action="update", view=views.notice_modal(lang, t("prefs_form_outdated", lang)))


def register_prefs(app: App, deps: Deps) -> Prefs:
    """Register `/travel-prefs`, the modal's and the Home tab's listeners (`.home`)."""
    prefs = Prefs(deps)
    prefs.register(app)
    deps.extras["prefs"] = prefs
    return prefs


__all__ = ["COMMAND", "Prefs", "register_prefs"]
