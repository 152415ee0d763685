"""Approvals in Slack: the reason modal's submission and the approver's *Approve* /
*Reject* buttons (`bot.slack.views.approval`). The core decides (`bot.flows.approvals`):
who may, once only, and tells the traveller in their thread.

The reason is checked inside `ack` (empty, too long or private: the modal shows why, and
nothing is asked); then the request goes to the approvers on the task pool. A decision
redraws the approver's message with its outcome; a refusal or a decision already taken is
told to the clicker alone (ephemeral; when Slack refuses it, or refuses to redraw the
message, `bot.slack.answers.Answers.tell`: the click's response_url, else a DM, else why
not). An answer that cannot be posted in the thread goes to the traveller's DM, unless
Slack may have posted it (a reset after the request left); when the DM is refused too, they
are told why where Slack still lets the bot (`bot.slack.answers`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.conversation.replays import request_name
from bot.flows.actions import APPROVAL_REASON, APPROVE, REJECT, Action, Request
from bot.flows.approvals import Sent
from bot.flows.views import ReasonForm, render
from bot.messages import t
from bot.payloads import parse_json
from bot.policy.requests import InvalidRequest, check_reason
from bot.slack.answers import Answers, post, update
from bot.slack.api import person_of
from bot.slack.incoming import PLATFORM
from bot.slack.listeners.interaction import Interaction, on
from bot.slack.views.approval import (
    APPROVAL_REASON_CALLBACK,
    APPROVE_ACTION,
    REASON_ACTION,
    REASON_BLOCK,
    REJECT_ACTION,
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
        pipeline.run_task(submit, client, request, where)

    def submit(client: WebClient, request: Request, where: Mapping[str, Any]) -> None:
        outcome = pipeline.flows.handle(request)
        text = render(prefs.widgets, outcome.view).text
        if isinstance(outcome.view, ReasonForm):  # refused after all: say why
            text = outcome.text
        channel, thread = str(where.get("conversation") or ""), str(where.get("thread") or "")
        if not outcome.private and channel:
            tried = post(client, channel, text, thread_ts=thread or None)
            if tried.sent != Sent.NOT_DELIVERED:  # a second copy would show it twice
                return
            log.info("could not answer in the thread (%s)", tried.error)
        Answers(client, pipeline.metrics).answer(request.user, text, lang=request.lang)

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
    app.action(re.compile(rf"^(?:{APPROVE_ACTION}|{REJECT_ACTION})$"))(on_decide)


__all__ = ["register"]
