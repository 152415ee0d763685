"""Submitting the preferences modal: checked inside the acknowledgement, saved on the task
pool.

A submission is validated before it is acknowledged, so mistakes come back as inline
errors (`ack(response_action="errors")`) with nothing saved. Saving writes the same
memory the chat writes (`bot.prefs.saving`), for the namespace of the person who
submitted, and only after the form proved to be theirs (opened on Slack, in this
workspace, by this person: a form naming another platform is refused); a double submission of one
view (same id and version) saves once. Then the person is told what was saved and their
Home tab is refreshed.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from slack_bolt import Ack
from slack_sdk.web import WebClient

from bot.messages import t
from bot.prefs.form import FormInput, FormMeta, stored_texts
from bot.prefs.saving import SUBMIT_TTL_SECONDS, save_form
from bot.slack.api import person_of
from bot.slack.incoming import PLATFORM
from bot.slack.views.blocks import FORM_CALLBACK_ID
from bot.slack.views.notices import notice_modal
from bot.slack.views.prefs_modal import read_form

if TYPE_CHECKING:
    from slack_bolt import App

    from bot.conversation.claims import Claims
    from bot.metrics import Metrics
    from bot.slack.preferences import Preferences

log = logging.getLogger(__name__)


def register(app: App, prefs: Preferences, claims: Claims, metrics: Metrics) -> None:
    """The submission of the preferences modal."""

    def on_submit(ack: Ack, body: dict[str, Any], view: dict[str, Any], client: WebClient) -> None:
        """Validate inside the acknowledgement; save on the task pool."""
        metrics.inc("slack_events_total", type="view_submission")
        team, user = person_of(body)
        meta = FormMeta.loads(view.get("private_metadata"))
        lang = meta.lang if meta else prefs.known_lang(team, user)
        if meta is None:
            ack(response_action="update", view=notice_modal(lang, t("prefs_form_outdated", lang)))
            return
        if meta.platform not in ("", PLATFORM.name) or (meta.user, meta.team) != (user, team):
            log.warning("a preferences form was submitted by someone other than its owner")
            ack(response_action="update", view=notice_modal(lang, t("prefs_not_yours", lang)))
            return
        state = (view.get("state") or {}).get("values") or {}
        # The note's check embeds it (tens of ms) and reads stored facts only for a piece of
        # a number: well inside the 3 s acknowledgement.
        stored = stored_texts(prefs.memory, PLATFORM.key(team, user))
        form = read_form(prefs.schema, state, lang, prefs.free_text_limit, stored=stored)
        if form.errors:
            ack(response_action="errors", errors=form.errors)
            return
        ack()
        claim = f"travel-prefs:submit:{view.get('id')}:{view.get('hash')}" if view.get("id") else ""
        prefs.run(save, client, meta, form, claim)

    def save(client: WebClient, meta: FormMeta, form: FormInput, claim: str) -> None:
        if not claims.claim(claim, ttl_seconds=SUBMIT_TTL_SECONDS):
            metrics.inc("prefs_saves_total", outcome="duplicate")
            return
        saved = save_form(prefs.memory, PLATFORM.key(meta.team, meta.user), meta, form)
        metrics.inc("prefs_saves_total", outcome=saved.outcome)
        if not saved.done:
            claims.release(claim)
        prefs.tell(client, meta.user, meta.channel, saved.text, lang=meta.lang)
        if saved.done:
            prefs.publish_home(client, meta.team, meta.user, lang=meta.lang)

    app.view(FORM_CALLBACK_ID)(on_submit)


__all__ = ["register"]
