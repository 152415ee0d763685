"""Talking to Slack's Web API: the client, posting with rate limits, and reading payloads.

- `web_client(token=..., base_url=...)`: the `WebClient` for `SLACK_API_URL` with the bot token.
  A request that never reached Slack (refused, unresolvable, connect timeout:
  `bot.retry.never_sent`) is retried twice; one that may have (a reset or a hang-up
  after the request was written) is not, as `chat.postMessage` takes no idempotency key
  and a second post is a second message (the SDK's own connection-error handler
  retries those too).
- `post(...)`: `chat.postMessage`, waiting out rate limits (`Retry-After`) within a
  patience; it sleeps, so it never runs on Bolt's listener threads.
- `dm(...)`: a direct message whose failure is logged, never raised.
- `SLACK_ERRORS` and `slack_error(exc)`: what a failed call raises, and how to log it
  (Slack's error code, never the request).
- `person_of(body)`: the workspace and person of any request Bolt hands a listener
  (event, slash command or interactivity payload).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.handler import RetryHandler
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState
from slack_sdk.web import WebClient

from bot.retry import never_sent, retry_after

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)

SLACK_ERRORS = (SlackApiError, OSError)  # an error answer, or Slack unreachable
MAX_POST_ATTEMPTS = 4
MAX_RETRY_AFTER = 30.0
# The longest a post waits out rate limits in total, by default.
POST_PATIENCE = MAX_RETRY_AFTER * (MAX_POST_ATTEMPTS - 1)


class NeverSentRetryHandler(RetryHandler):
    """Retries a request only when it certainly never reached Slack (`never_sent`)."""

    def _can_retry(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> bool:
        return error is not None and response is None and never_sent(error)


def web_client(*, token: str | None, base_url: str) -> WebClient:
    """The Web API client for `base_url` (`SLACK_API_URL`) with the bot token; rate limits
    are handled by the callers."""
    if not base_url.endswith("/"):
        base_url += "/"
    return WebClient(
        token=token,
        base_url=base_url,
        timeout=10,
        retry_handlers=[NeverSentRetryHandler(max_retry_count=2)],
    )


def slack_error(exc: Exception) -> str:
    """Why a Slack call failed, for the log: Slack's error code, or the exception's type."""
    if isinstance(exc, SlackApiError):
        if exc.response.status_code == 429:
            return "ratelimited"
        error = exc.response.get("error") if isinstance(exc.response.data, dict) else None
        return str(error or f"HTTP {exc.response.status_code}")
    return type(exc).__name__


def post(
    client: WebClient,
    *,
    channel: str,
    thread_ts: str | None,
    text: str,
    patience: float = POST_PATIENCE,
    blocks: list[dict[str, Any]] | None = None,
) -> None:
    """`chat.postMessage`, waiting out rate limits (`Retry-After`) a few times.

    It sleeps, so it is never called on Bolt's listener threads. `patience` caps the
    total wait: a rate limit that asks for more raises the `SlackApiError`. With
    `blocks`, `text` is the notification's text and the blocks are what is shown.
    """
    waited = 0.0
    for attempt in range(1, MAX_POST_ATTEMPTS + 1):
        try:
            client.chat_postMessage(
                channel=channel, thread_ts=thread_ts, text=text, blocks=blocks, unfurl_links=False
            )
            return
        except SlackApiError as exc:
            if exc.response.status_code != 429 or attempt == MAX_POST_ATTEMPTS:
                raise
            asked = retry_after(exc.response.headers)
            delay = 1.0 if asked is None else min(max(asked, 0.0), MAX_RETRY_AFTER)
            if waited + delay > patience:
                raise
            log.info("rate limited by Slack; retrying in %.1f s", delay)
            time.sleep(delay)
            waited += delay


def dm(client: WebClient, user: str, text: str, **extra: Any) -> None:
    """Message the person directly; a failure is logged, never raised."""
    try:
        client.chat_postMessage(channel=user, text=text, **extra)
    except SLACK_ERRORS as exc:
        log.warning("could not message the person (%s)", slack_error(exc))


def person_of(body: Mapping[str, Any]) -> tuple[str, str]:
    """(team id, user id) of an event, slash command or interactivity payload ("" if absent)."""
    user = body.get("user")
    if isinstance(user, Mapping):
        user_id = str(user.get("id") or "")
    else:
        event = body.get("event")
        found = event.get("user") if isinstance(event, Mapping) else body.get("user_id")
        user_id = found if isinstance(found, str) else ""
    team = body.get("team")
    if isinstance(team, Mapping) and isinstance(team.get("id"), str):
        return str(team["id"]), user_id
    if isinstance(user, Mapping) and isinstance(user.get("team_id"), str):
        return str(user["team_id"]), user_id
    return str(body.get("team_id") or ""), user_id


__all__ = [
    "MAX_RETRY_AFTER",
    "POST_PATIENCE",
    "SLACK_ERRORS",
    "dm",
    "person_of",
    "post",
    "slack_error",
    "web_client",
]
