"""The Slack app factory: `build_app(settings, deps)` is the Bolt app with every listener.

It builds what only Slack needs: the Web API client for `SLACK_API_URL`, the people
cache (locale and time zone), the travel-admin user group, the progress reaction, chat
streaming (`SLACK_STREAMING`) and the assistant threads kept in Redis, held by one
`SlackChannel`, then registers the listeners (`bot.slack.listeners`) and
one error handler. HTTP mode mounts the app on `/slack/events` (`bot.slack.http`);
Socket Mode connects it (`bot.slack.long_connection`).
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from slack_bolt import App
from slack_bolt.error import BoltUnhandledRequestError
from slack_bolt.logger.messages import warning_client_prioritized_and_token_skipped
from slack_bolt.response import BoltResponse
from slack_sdk.web import WebClient

from bot.messages import lang_of, t
from bot.planning.admins import Admins
from bot.slack import listeners
from bot.slack.admins import admin_group
from bot.slack.api import web_client
from bot.slack.assistant import AssistantThreads
from bot.slack.channel import SlackChannel
from bot.slack.people import People
from bot.slack.preferences import Preferences
from bot.slack.progress import ProgressReaction
from bot.slack.streaming import StreamSwitch

if TYPE_CHECKING:
    from bot.deps import Deps
    from bot.flows.pipeline import Pipeline
    from bot.settings import Settings

log = logging.getLogger(__name__)


def build_app(
    settings: Settings,
    deps: Deps,
    pipeline: Pipeline,
    *,
    socket_mode: bool = False,
    client: WebClient | None = None,
) -> App:
    """The Bolt app with every listener registered.

    HTTP mode requires `SLACK_SIGNING_SECRET`: requests are always verified. Listeners
    run on `deps.pools.listeners` and must stay quick; slow work goes to the agent pool
    (the conversation) or the task pool (preferences).
    """
    if settings.slack_bot_token is None:
        raise ValueError("SLACK_BOT_TOKEN is not set")
    secret = settings.slack_signing_secret
    if secret is None and not socket_mode:
        raise ValueError("SLACK_SIGNING_SECRET is not set; HTTP mode verifies every request")
    client = client or web_client(settings)
    app = App(
        # The token comes with `client` (the one built for SLACK_API_URL).
        signing_secret=secret.get_secret_value() if secret is not None else "",
        client=client,
        process_before_response=False,
        token_verification_enabled=False,
        request_verification_enabled=True,
        ignoring_self_events_enabled=True,
        raise_error_for_unhandled_request=True,
        listener_executor=deps.pools.listeners,
        logger=_bolt_logger(),
    )
    slack = SlackChannel(
        client=client,
        pipeline=pipeline,
        notices=deps.pools.notices,
        people=People(default=settings.default_language),
        admins=Admins(
            named=settings.admin_user_ids,
            group=admin_group(client, settings.travel_admin_usergroup_id),
        ),
        progress=ProgressReaction(settings.slack_progress_reaction),
        # Slack as an AI app (issue 18): streamed answers and the assistant pane.
        streaming=StreamSwitch(enabled=settings.slack_streaming),
        flush_seconds=settings.slack_stream_flush_seconds,
        assistant=AssistantThreads(
            client=deps.redis,
            key_prefix=settings.redis_key_prefix,
            ttl_seconds=settings.thread_history_ttl_seconds,
        ),
    )
    metrics = deps.metrics
    metrics.describe("slack_events_total", "Slack events, commands and actions received")
    metrics.describe("slack_feedback_total", "Feedback buttons clicked under answers, by verdict")
    metrics.describe("slack_feedback_reasons_total", "Reasons given after a thumbs-down")
    listeners.register(app, slack, Preferences(deps, slack), settings)
    app.error(_error_handler(deps))
    return app


class _TokenFromClient(logging.Filter):
    """Drops Bolt's "As you gave `client` as well, `token` will be unused".

    Bolt reads `SLACK_BOT_TOKEN` from the environment by itself and warns that `client`
    wins; our client carries that very token (and `SLACK_API_URL`), so there is nothing
    to warn about, and a correct set-up starts without a warning.
    """

    TEXT = warning_client_prioritized_and_token_skipped()

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != self.TEXT


def _bolt_logger() -> logging.Logger:
    logger = logging.getLogger("bot.bolt")
    if not any(isinstance(f, _TokenFromClient) for f in logger.filters):
        logger.addFilter(_TokenFromClient())
    return logger


def _error_handler(deps: Deps) -> Any:
    """Log what no listener expected; a slash command still gets a kind, private answer."""

    def handle(error: Exception, body: dict[str, Any], response: BoltResponse | None) -> Any:
        if isinstance(error, BoltUnhandledRequestError):
            deps.metrics.inc("slack_unhandled_total")
            return BoltResponse(status=404, body="")
        deps.metrics.inc("slack_listener_errors_total", error=type(error).__name__)
        log.error("listener failed (%s)", type(error).__name__, exc_info=error)
        if response is not None and isinstance(body.get("command"), str):
            text = t("internal_error", lang_of(str(body.get("text") or "")))
            return BoltResponse(
                status=200,
                body=json.dumps({"response_type": "ephemeral", "text": text}),
                headers={"content-type": "application/json;charset=utf-8"},
            )
        return None

    return handle


__all__ = ["build_app"]
