"""Slack's assistant pane ("Agents & AI Apps"): a new thread, and the channel beside it.

`assistant_thread_started`: the thread is remembered with its context (the channel the
person has open beside the pane, `bot.slack.assistant`), then, on the task pool, the
person is greeted in their language with suggested prompts: planning the next trip,
asking what is remembered, and stating a preference. A redelivered event greets nobody
twice. `assistant_thread_context_changed`: the person moved to another channel; the
thread's context follows. The messages written in the thread are ordinary direct
messages (`bot.slack.listeners.messages`): one turn of the conversation core each.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from slack_sdk.web import WebClient

from bot.flows.actions import Action, Request
from bot.messages import t
from bot.slack.answers import post, taken
from bot.slack.api import SLACK_ERRORS, slack_error
from bot.slack.incoming import PLATFORM

if TYPE_CHECKING:
    from slack_bolt import App

    from bot.flows.pipeline import Pipeline
    from bot.slack.channel import SlackChannel

log = logging.getLogger(__name__)

GREETING_PATIENCE = 10.0  # seconds of rate limits the greeting may wait out


@dataclass(frozen=True, slots=True)
class AssistantThread:
    """The thread an assistant event is about."""

    team: str
    user: str
    channel: str
    thread_ts: str
    context: Mapping[str, Any]


def thread_of(body: Mapping[str, Any], event: Mapping[str, Any]) -> AssistantThread | None:
    """The thread of an `assistant_thread_started`/`_context_changed` event (None if unreadable)."""
    thread = event.get("assistant_thread")
    if not isinstance(thread, Mapping):
        return None
    user, channel, ts = thread.get("user_id"), thread.get("channel_id"), thread.get("thread_ts")
    context = thread.get("context")
    team = body.get("team_id") or (context or {}).get("team_id") or ""
    if not all(isinstance(x, str) and x for x in (user, channel, ts, team)):
        return None
    return AssistantThread(
        team=str(team),
        user=str(user),
        channel=str(channel),
        thread_ts=str(ts),
        context=context if isinstance(context, Mapping) else {},
    )


def register(app: App, pipeline: Pipeline, slack: SlackChannel) -> None:
    """Wire the assistant events into `app` (through the pipeline's first steps: counted,
    what names no thread dropped, a redelivered start claimed once)."""

    def started(body: dict[str, Any], event: dict[str, Any], client: WebClient) -> None:
        kind = "assistant_thread_started"
        thread = thread_of(body, event)
        event_id = body.get("event_id")
        once = (f"bot:seen:event:{PLATFORM.key(event_id)}",) if isinstance(event_id, str) else ()
        if not pipeline.admit(PLATFORM, _request(thread, kind, once), kind=kind) or not thread:
            return
        slack.assistant.remember(thread.team, thread.channel, thread.thread_ts, thread.context)
        pipeline.run_task(greet, slack, client, thread)

    def context_changed(body: dict[str, Any], event: dict[str, Any]) -> None:
        kind = "assistant_thread_context_changed"
        thread = thread_of(body, event)
        if pipeline.admit(PLATFORM, _request(thread, kind), kind=kind) and thread is not None:
            slack.assistant.remember(thread.team, thread.channel, thread.thread_ts, thread.context)

    app.event("assistant_thread_started")(started)
    app.event("assistant_thread_context_changed")(context_changed)


def _request(
    thread: AssistantThread | None, kind: str, once: tuple[str, ...] = ()
) -> Request | None:
    if thread is None:
        return None
    return Request(PLATFORM, thread.team, thread.user, Action(kind), once=once)


def greet(slack: SlackChannel, client: WebClient, thread: AssistantThread) -> None:
    """A short greeting and the suggested prompts, in the person's language (task pool)."""
    lang = slack.people.lang(client, thread.team, thread.user)
    tried = post(
        client,
        thread.channel,
        t("assistant_greeting", lang),
        patience=GREETING_PATIENCE,
        thread_ts=thread.thread_ts,
    )
    if not taken(tried):  # a greeting is no answer: nothing to tell the person
        log.warning("could not greet in an assistant thread (%s)", tried.error)
    prompts = [
        {
            "title": t("assistant_prompt_plan", lang),
            "message": t("assistant_prompt_plan_message", lang),
        },
        {
            "title": t("assistant_prompt_remember", lang),
            "message": t("assistant_prompt_remember", lang),
        },
        {
            "title": t("assistant_prompt_preference", lang),
            "message": t("assistant_prompt_preference", lang),
        },
    ]
    try:
        client.assistant_threads_setSuggestedPrompts(
            channel_id=thread.channel,
            thread_ts=thread.thread_ts,
            title=t("assistant_prompts_title", lang),
            prompts=prompts,
        )
    except SLACK_ERRORS as exc:
        log.warning("could not suggest prompts (%s)", slack_error(exc))


__all__ = ["AssistantThread", "greet", "register", "thread_of"]
