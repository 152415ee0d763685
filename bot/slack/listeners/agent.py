"""Slack's Agent messaging experience: the Messages tab opened, and the stop button.

- `app_home_opened` with `tab == "messages"` (the person opened the app's DM, where
  agent conversations happen) takes the place of the assistant pane's
  `assistant_thread_started`: the person is greeted in their language, once
  (`GREETED_TTL_SECONDS`, claimed across processes), never on every visit.
- `agent_session_stopped` (the native stop button of a session in `processing`: the
  channel, the thread, the streams Slack stopped) stops the thread's turn for real
  (`Conversation.stop`), in this process or, through Redis, in the one running it
  (`bot.conversation.stops`): no answer arrives after it, nothing it would have saved is
  saved, its stream ends and the thread is told (`bot.slack.sink`), and its session
  leaves `processing`. A stop that finds no turn here moves the session out of
  `processing` itself (Slack leaves that to the app); a turn running elsewhere does so
  again as it ends.

Both go through the pipeline's first steps (counted, what names nobody dropped, a
redelivered event claimed once by its id). The messages of the thread are ordinary
messages (`bot.slack.listeners.messages`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from slack_sdk.web import WebClient

from bot.flows.actions import Action, Request
from bot.messages import t
from bot.slack.answers import post, taken
from bot.slack.incoming import PLATFORM
from bot.slack.listeners.assistant import GREETING_PATIENCE

if TYPE_CHECKING:
    from slack_bolt import App

    from bot.flows.pipeline import Pipeline
    from bot.slack.channel import SlackChannel

log = logging.getLogger(__name__)

GREETED_TTL_SECONDS = 30 * 86400  # a person is greeted in the Messages tab once a month
STOPPED = "agent_session_stopped"


def register(app: App, pipeline: Pipeline, slack: SlackChannel) -> None:
    """Wire the stop button into `app` (the Messages tab comes through `messages_tab`)."""

    def stopped(body: dict[str, Any], event: dict[str, Any], client: WebClient) -> None:
        team = str(body.get("team_id") or "")
        user, channel = event.get("user"), event.get("channel")
        thread_ts = event.get("thread_ts")
        readable = all(isinstance(x, str) and x for x in (team, user, channel, thread_ts))
        event_id = body.get("event_id")
        once = (f"bot:seen:event:{PLATFORM.key(event_id)}",) if isinstance(event_id, str) else ()
        request = (
            Request(PLATFORM, team, str(user), Action(STOPPED), once=once) if readable else None
        )
        if not pipeline.admit(PLATFORM, request, kind=STOPPED):
            return
        thread_key = PLATFORM.key(team, str(channel), str(thread_ts))
        if pipeline.conversation.stop(thread_key):
            log.info("a turn was stopped with Slack's stop button")
            return
        pipeline.run_task(_leave_processing, slack, client, team, str(channel), str(thread_ts))

    app.event("agent_session_stopped")(stopped)


def messages_tab(
    slack: SlackChannel, client: WebClient, team: str, user: str, event: Mapping[str, Any]
) -> None:
    """The person opened the app's Messages tab: a greeting, once (task pool)."""
    channel = event.get("channel")
    if not isinstance(channel, str) or not channel:
        return
    if not slack.pipeline.claims.claim(
        f"bot:slack:agent-greeted:{PLATFORM.key(team, user)}", ttl_seconds=GREETED_TTL_SECONDS
    ):
        return
    lang = slack.people.lang(client, team, user)
    tried = post(
        client,
        channel,
        t("assistant_greeting", lang),
        patience=GREETING_PATIENCE,
    )
    if not taken(tried):  # a greeting is no answer: nothing to tell the person
        log.warning("could not greet in the Messages tab (%s)", tried.error)


def _leave_processing(
    slack: SlackChannel, client: WebClient, team: str, channel: str, thread_ts: str
) -> None:
    if slack.sessions is not None:
        slack.sessions.set_status(
            client, team=team, channel=channel, thread_ts=thread_ts, status="active"
        )


__all__ = ["GREETED_TTL_SECONDS", "messages_tab", "register"]
