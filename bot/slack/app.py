"""The Slack app: `build_app(...)` is the Bolt app with every listener.

The composition root (`bot.compose.slack`) builds what only Slack needs (the Web API
client for `SLACK_API_URL`, the people cache, the travel admins, the progress reaction,
chat streaming and the assistant threads, held by one `SlackChannel`; the preferences
form and Home tab, `Preferences`) and hands them here: this registers the listeners
(`bot.slack.listeners`) and one error handler. HTTP mode serves the app on
`/slack/events` (`bot.slack.http`); Socket Mode connects it (`bot.slack.long_connection`).
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
from bot.slack import listeners as listeners_of_app

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

    from bot.metrics import Metrics
    from bot.slack.channel import SlackChannel
    from bot.slack.preferences import Preferences

log = logging.getLogger(__name__)


def build_app(
    *,
    client: WebClient,
    signing_secret: str,
    channel: SlackChannel,
    prefs: Preferences,
    listeners: ThreadPoolExecutor,
    link_minutes: int,
) -> App:
    """The Bolt app with every listener registered (built by `bot.compose.slack`).

    HTTP mode verifies every request with `signing_secret` (Socket Mode needs none).
    Listeners run on the `listeners` pool and must stay quick; slow work goes to the
    agent pool (the conversation) or the task pool (preferences).
    """
    app = App(
        # The token comes with `client` (the one built for SLACK_API_URL).
        signing_secret=signing_secret,
        client=client,
        process_before_response=False,
        token_verification_enabled=False,
        request_verification_enabled=True,
        ignoring_self_events_enabled=True,
        raise_error_for_unhandled_request=True,
        listener_executor=listeners,
        logger=_bolt_logger(),
    )
    metrics = channel.pipeline.metrics
    metrics.describe("slack_events_total", "Slack events, commands and actions received")
    metrics.describe("slack_feedback_total", "Feedback buttons clicked under answers, by verdict")
    metrics.describe("slack_feedback_reasons_total", "Reasons given after a thumbs-down")
    listeners_of_app.register(app, channel, prefs, link_minutes)
    app.error(_error_handler(metrics))
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


def _error_handler(metrics: Metrics) -> Any:
    """Log what no listener expected; a slash command still gets a kind, private answer."""

    def handle(error: Exception, body: dict[str, Any], response: BoltResponse | None) -> Any:
        if isinstance(error, BoltUnhandledRequestError):
            metrics.inc("slack_unhandled_total")
            return BoltResponse(status=404, body="")
        metrics.inc("slack_listener_errors_total", error=type(error).__name__)
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
