"""Talking to Slack's Web API: the client, posting with rate limits, and reading payloads.

- `web_client(token=..., base_url=...)`: the `WebClient` for `SLACK_API_URL` with the bot token.
  A request that never reached Slack (refused, unresolvable, connect timeout:
  `bot.retry.never_sent`) is retried twice; one that may have (a reset or a hang-up
  after the request was written) is not, as `chat.postMessage` takes no idempotency key
  and a second post is a second message (the SDK's own connection-error handler
  retries those too).
- The rate-limit policy (`patiently`): one try of a call reads as a `Tried` (delivered,
  not delivered with Slack's error, or unconfirmed: it failed after Slack may have acted),
  and an HTTP 429 is waited out (`Retry-After`, capped) within the caller's patience.
  It sleeps: callers on Bolt's listener threads pass a short patience. Posting
  (`bot.slack.answers.post`) and every answer of `bot.slack.answers` go through it.
- `dm(...)`: a direct message whose failure is logged, never raised.
- `SLACK_ERRORS` and `slack_error(exc)`: what a failed call raises, and how to log it
  (Slack's error code, never the request).
- `person_of(body)`: the workspace and person of any request Bolt hands a listener
  (event, slash command or interactivity payload).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.handler import RetryHandler
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState
from slack_sdk.web import SlackResponse, WebClient

from bot.flows.messengers import Sent
from bot.retry import never_sent, retry_after

log = logging.getLogger(__name__)

SLACK_ERRORS = (SlackApiError, OSError)  # an error answer, or Slack unreachable
# The rate-limit policy of every Web API call that waits (`patiently`): a 429's
# `Retry-After` is honoured up to `MAX_RETRY_AFTER` seconds a wait, within the caller's
# patience in all, at most `MAX_ATTEMPTS` tries.
MAX_ATTEMPTS = 6
MAX_RETRY_AFTER = 30.0
# The patience of a reply in a conversation (the agent pool, never a listener thread).
REPLY_PATIENCE = 90.0


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


def asked_wait(headers: Mapping[str, Any]) -> float:
    """The wait a rate-limited answer (HTTP 429) asks for: its `Retry-After` (1 s when it
    names none), at most `MAX_RETRY_AFTER`."""
    asked = retry_after(headers)
    return 1.0 if asked is None else min(max(asked, 0.0), MAX_RETRY_AFTER)


@dataclass(frozen=True, slots=True)
class Tried:
    """One try: what became of it, and Slack's error (or the exception) when it failed;
    `ts`: the message Slack answered with, when it names one (`chat.postMessage`);
    `status`: the HTTP status of Slack's error answer (0: none)."""

    sent: Sent
    error: str = ""
    ts: str = ""
    status: int = 0


def patiently(call: Callable[[], object], *, patience: float) -> Tried:
    """A Web API call (`chat.postMessage`, `views.publish`...) under the rate-limit policy:
    an HTTP 429 is waited out (its `Retry-After`, `asked_wait`) while the waits fit in
    `patience` seconds in all, at most `MAX_ATTEMPTS` tries; what became of it."""
    return patiently_try(lambda: attempt(call), patience=patience)


def patiently_try(work: Callable[[], tuple[Tried, float | None]], *, patience: float) -> Tried:
    """`work` again after each wait Slack asks for (its second value, set on HTTP 429)
    while the waits fit in `patience` seconds in all and it was tried fewer than
    `MAX_ATTEMPTS` times (a `Retry-After: 0` answered forever ends too)."""
    waited = 0.0
    for tries in range(1, MAX_ATTEMPTS + 1):
        tried, delay = work()
        if delay is None or waited + delay > patience or tries == MAX_ATTEMPTS:
            return tried
        log.info("rate limited by Slack; trying again in %.1f s", delay)
        time.sleep(delay)
        waited += delay
    raise AssertionError("unreachable")  # pragma: no cover


def attempt(call: Callable[[], object]) -> tuple[Tried, float | None]:
    """One Web API call: what became of it, and the wait Slack asks for when rate limited."""
    try:
        response = call()
    except SlackApiError as exc:
        limited = exc.response.status_code == 429
        return failed(exc), (asked_wait(exc.response.headers) if limited else None)
    except Exception as exc:
        return failed(exc), None
    ts = response.get("ts") if isinstance(response, (SlackResponse, Mapping)) else None
    return Tried(Sent.DELIVERED, ts=ts if isinstance(ts, str) else ""), None


def failed(exc: Exception) -> Tried:
    """Not delivered when Slack answered with an error or the request never left; else
    unconfirmed (Slack may have posted it: a read error or timeout after it was sent)."""
    if isinstance(exc, SlackApiError):
        return Tried(Sent.NOT_DELIVERED, slack_error(exc), status=exc.response.status_code)
    if never_sent(exc):
        return Tried(Sent.NOT_DELIVERED, slack_error(exc))
    log.warning("a Slack answer is unconfirmed (%s); not sent again", type(exc).__name__)
    return Tried(Sent.UNCONFIRMED, type(exc).__name__)


# Answers Slack documents as possibly partly done ("it's possible some aspect of the
# operation succeeded before the error was raised": `internal_error`, `fatal_error`), and
# the HTTP statuses that carry them or a gateway's time-out (500, 504); a 503
# (`service_unavailable`) and a rate limit say nothing was done.
MAYBE_POSTED = frozenset({"internal_error", "fatal_error"})
MAYBE_POSTED_STATUS = frozenset({500, 504})


def maybe_posted(tried: Tried) -> bool:
    """Whether a call Slack answered with an error may have been done all the same
    (`MAYBE_POSTED`): a post that must not be sent again."""
    return tried.error in MAYBE_POSTED or tried.status in MAYBE_POSTED_STATUS


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
    "MAX_ATTEMPTS",
    "MAX_RETRY_AFTER",
    "MAYBE_POSTED",
    "REPLY_PATIENCE",
    "SLACK_ERRORS",
    "Tried",
    "asked_wait",
    "attempt",
    "dm",
    "failed",
    "maybe_posted",
    "patiently",
    "patiently_try",
    "person_of",
    "slack_error",
    "web_client",
]
