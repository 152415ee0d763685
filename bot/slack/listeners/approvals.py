"""Approvals in Slack: *Give a reason*, the reason modal's submission and the approver's
*Approve* / *Reject* buttons (`bot.slack.views.approval`). The core decides
(`bot.flows.approvals`): who may, once only, and tells the traveller in their thread.

*Give a reason* (under the question asked where no modal could open: a typed `save trip
CODE`) opens the reason modal *Save trip* opens, from the form its code keeps
(`reason CODE`, the command the person may type instead); a code gone is told to the
clicker alone. Once the reason is in, the question is replaced by what became of it (its
click's response_url, kept in the modal as `ANSWER_URL`), so no stale button remains;
when nobody could be asked (no approver, the database down) the question stays, to retry.

The reason is checked inside `ack` (empty, too long or private: the modal shows why, and
nothing is asked); then the request goes to the approvers on the task pool. A decision
redraws the approver's message with its outcome; a refusal or a decision already taken is
told to the clicker alone (ephemeral; when Slack refuses it, or refuses to redraw the
message, `bot.slack.answers.Answers.tell`: the click's response_url, else a DM, else why
not). An answer that cannot be posted in the thread goes to the traveller's DM, unless
Slack may have posted it (a reset after the request left); when the DM is refused too,
they are told why where Slack still lets the bot (`bot.slack.answers`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.conversation.replays import request_name
from bot.flows.actions import APPROVAL_REASON, APPROVE, REJECT, Action, Request
from bot.flows.approvals import Sent, reason_form
from bot.flows.code_commands import code_action
from bot.flows.views import ReasonForm, render
from bot.messages import t
from bot.payloads import parse_json
from bot.policy.requests import InvalidRequest, check_reason
from bot.slack.answers import Answers, channel_of, post, respond, update
from bot.slack.api import SLACK_ERRORS, person_of, slack_error
from bot.slack.incoming import PLATFORM
from bot.slack.listeners.interaction import Interaction, on
from bot.slack.views.approval import (
    ANSWER_URL,
    APPROVAL_REASON_CALLBACK,
    APPROVE_ACTION,
    REASON_ACTION,
    REASON_BLOCK,
    REASON_OPEN_ACTION,
    REJECT_ACTION,
    reason_modal,
)
from bot.slack.views.widgets import read_value

if TYPE_CHECKING:
    from slack_bolt import Ack, App
    from slack_sdk.web import WebClient

    from bot.flows.pipeline import Pipeline
    from bot.slack.preferences import Preferences
    from memory.lang import Lang

log = logging.getLogger(__name__)


def register(app: App, pipeline: Pipeline, prefs: Preferences) -> None:
    """Wire the reason modal and the approval buttons into `app`."""

    def on_reason(ack: Ack, body: dict[str, Any], view: dict[str, Any], client: WebClient) -> None:
        try:
            data = parse_json(str(view.get("private_metadata") or "{}"))
        except ValueError:
            data = {}
        data = data if isinstance(data, dict) else {}
        question = str(data.pop(ANSWER_URL, "") or "")  # the message *Give a reason* was on
        lang: Lang = "zh" if data.get("l") == "zh" else "en"
        values = (view.get("state") or {}).get("values") or {}
        reason = str(((values.get(REASON_BLOCK) or {}).get(REASON_ACTION) or {}).get("value") or "")
        try:
            check_reason(reason)
        except InvalidRequest as exc:
            ack(response_action="errors", errors={REASON_BLOCK: t(f"approval_{exc.code}", lang)})
            return
        ack()
        team, user = person_of(body)
        given = data.get("w")
        where: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
        once = (request_name(PLATFORM, PLATFORM.key(team, str(view.get("id") or ""))),)
        request = Request(
            PLATFORM,
            team,
            user,
            Action(APPROVAL_REASON, {**data, "reason": reason}),
            lang,
            admins=prefs.admins,
            once=once if view.get("id") else (),
            where=where,
        )
        if not pipeline.admit(PLATFORM, request, kind="view_submission"):
            return
        pipeline.run_task(submit, client, request, where, question)

    def submit(
        client: WebClient, request: Request, where: Mapping[str, Any], question: str = ""
    ) -> None:
        outcome = pipeline.flows.handle(request)
        text = render(prefs.widgets, outcome.view).text
        if isinstance(outcome.view, ReasonForm):  # refused after all: say why
            text = outcome.text
        elif question and outcome.replace:  # asked (or already): what became of it, in
            # its place; anything else (no approver, the database down) leaves the
            # question and its button, to try again
            tried = respond(question, outcome.short, replace_original=True)
            if tried.sent == Sent.NOT_DELIVERED:
                log.info("could not replace the reason question (%s)", tried.error)
        channel, thread = str(where.get("conversation") or ""), str(where.get("thread") or "")
        if not outcome.private and channel:
            tried = post(client, channel, text, thread_ts=thread or None)
            if tried.sent != Sent.NOT_DELIVERED:  # a second copy would show it twice
                return
            log.info("could not answer in the thread (%s)", tried.error)
        Answers(client, pipeline.metrics).answer(request.user, text, lang=request.lang)

    @on("block_actions", pipeline, once=True)
    def on_open_reason(it: Interaction) -> None:
        prefs.run(open_reason, it)

    def open_reason(it: Interaction) -> None:
        codes = prefs.widgets.codes
        found = code_action(it.value, codes, accepts=(APPROVAL_REASON,)) if codes else None
        lang = found[1] if found is not None else prefs.known_lang(it.team, it.user)
        url = (it.respond.response_url if it.respond is not None else None) or ""
        if found is not None and found[0].name == APPROVAL_REASON:
            form = reason_form(found[0])
            if url:  # to replace the question once answered
                form = replace(
                    form, submit=Action(APPROVAL_REASON, {**form.submit.data, ANSWER_URL: url})
                )
            try:
                it.client.views_open(trigger_id=it.trigger_id, view=reason_modal(form))
                return
            except SLACK_ERRORS as exc:  # the trigger expired: what to type instead
                log.info("could not open the reason form (%s)", slack_error(exc))
            text = t("approval_reason_reply", form.lang, command=f"`{it.value}`")
        else:
            text = t("approval_unknown", lang)
        answers = Answers(it.client, pipeline.metrics)
        answers.tell(it.user, text, lang=lang, channel=channel_of(it.body), response_url=url)

    @on("block_actions", pipeline, once=True)
    def on_decide(it: Interaction) -> None:
        name = APPROVE if it.action.get("action_id") == APPROVE_ACTION else REJECT
        prefs.run(decide, it, Action(name, read_value(it.value)))

    def decide(it: Interaction, action: Action) -> None:
        outcome = prefs.handle(it, action)
        drawn = render(prefs.widgets, outcome.view)
        channel = str((it.body.get("channel") or {}).get("id") or "")
        message: Mapping[str, Any] = it.body.get("message") or {}
        updated = Sent.NOT_DELIVERED
        if outcome.replace and channel:
            updated = update(
                it.client, channel, str(message.get("ts") or ""), drawn.text, blocks=drawn.blocks
            ).sent
        if updated != Sent.NOT_DELIVERED and outcome.tone != "warning":
            return
        # A refusal, a decision taken already, or a redraw Slack refused: said to the
        # clicker alone, another way when the channel will not take it.
        lang = prefs.lang(it.client, it.team, it.user)
        url = (it.respond.response_url if it.respond is not None else None) or ""
        answers = Answers(it.client, pipeline.metrics)
        answers.tell(it.user, outcome.short, lang=lang, channel=channel, response_url=url)

    app.view(APPROVAL_REASON_CALLBACK)(on_reason)
    app.action(REASON_OPEN_ACTION)(on_open_reason)
    app.action(re.compile(rf"^(?:{APPROVE_ACTION}|{REJECT_ACTION})$"))(on_decide)


__all__ = ["register"]
