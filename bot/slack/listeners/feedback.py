"""The feedback buttons under every answer (`bot.slack.views.feedback`).

A thumbs-up or thumbs-down is counted (`slack_feedback_total{verdict}` in `/metrics`)
and logged with the turn's id, never with any text. A thumbs-down is answered, on the
task pool, with an ephemeral question in the thread (through the click's response_url, else
a DM, when Slack refuses it there): what was wrong, as a few reasons
to click (`slack_feedback_reasons_total{reason}`, logged the same way); the click
replaces the question with a thank-you that invites the person to say more in the
thread, where it is an ordinary message to the bot (a DM when Slack refuses the click's
response_url, `bot.slack.answers`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from bot.messages import t
from bot.slack.answers import Answers
from bot.slack.listeners.interaction import Interaction, on
from bot.slack.views.feedback import (
    FEEDBACK_ACTION,
    FEEDBACK_REASON_ACTION,
    REASONS,
    VERDICTS,
    Feedback,
    read_feedback,
    reasons_message,
)

if TYPE_CHECKING:
    from slack_bolt import App

    from bot.flows.pipeline import Pipeline
    from bot.metrics import Metrics
    from memory.lang import Lang

log = logging.getLogger(__name__)


def register(app: App, pipeline: Pipeline, metrics: Metrics, run_task: Callable[..., None]) -> None:
    """Wire the feedback buttons into `app`."""

    @on("block_actions", pipeline, once=True)
    def on_verdict(it: Interaction) -> None:
        feedback = read_feedback(it.value, VERDICTS)
        if feedback is None:
            log.warning("feedback button with an unreadable value")
            return
        metrics.inc("slack_feedback_total", verdict=feedback.choice)
        log.info("feedback turn=%s verdict=%s", feedback.turn_id, feedback.choice)
        if feedback.choice == "bad":
            run_task(ask_why, it, feedback, metrics)

    @on("block_actions", pipeline, once=True)
    def on_reason(it: Interaction) -> None:
        feedback = read_feedback(it.value, REASONS)
        if feedback is None:
            log.warning("feedback reason with an unreadable value")
            return
        metrics.inc("slack_feedback_reasons_total", reason=feedback.choice)
        log.info("feedback turn=%s reason=%s", feedback.turn_id, feedback.choice)
        if it.respond is not None:
            run_task(thank, it, feedback, metrics)

    app.action(FEEDBACK_ACTION)(on_verdict)
    app.action(re.compile(f"^{FEEDBACK_REASON_ACTION}_"))(on_reason)


def thank(it: Interaction, feedback: Feedback, metrics: Metrics) -> None:
    """Replace the question with a thank-you (task pool); when Slack refuses the
    response_url, the thank-you comes as a DM, else the person is told why
    (`bot.slack.answers`)."""
    url = (it.respond.response_url if it.respond is not None else None) or ""
    text = t("feedback_tell_more", feedback.lang)
    lang: Lang = "zh" if feedback.lang == "zh" else "en"
    answers = Answers(it.client, metrics)
    answers.answer(it.user, text, lang=lang, response_url=url, replace_original=True)


def ask_why(it: Interaction, feedback: Feedback, metrics: Metrics) -> None:
    """The ephemeral "what was wrong?" under the answer (task pool); when Slack refuses
    it there, through the click's response_url, else a DM, else why not
    (`bot.slack.answers.Answers.tell`)."""
    container: Mapping[str, Any] = it.body.get("container") or {}
    message: Mapping[str, Any] = it.body.get("message") or {}
    channel = container.get("channel_id") or (it.body.get("channel") or {}).get("id")
    thread_ts = container.get("thread_ts") or message.get("thread_ts") or message.get("ts")
    if not isinstance(channel, str) or not channel:
        return
    text, blocks = reasons_message(feedback.turn_id, feedback.lang)
    url = (it.respond.response_url if it.respond is not None else None) or ""
    lang: Lang = "zh" if feedback.lang == "zh" else "en"
    Answers(it.client, metrics).tell(
        it.user,
        text,
        lang=lang,
        channel=channel,
        response_url=url,
        blocks=blocks,
        thread_ts=thread_ts if isinstance(thread_ts, str) else None,
    )


__all__ = ["ask_why", "register", "thank"]
