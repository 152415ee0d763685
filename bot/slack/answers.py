"""A command's answer in Slack, and what the person is told when Slack will not show it.

A slash command (or a button of the bot's messages) answers through its `response_url`
(ephemeral, only the person sees it); when that fails, in a direct message
(`chat.postMessage` to their user id). An answer meant for the channel a person acted in
(`Answers.tell`: a saved form's confirmation, an approver's or a trip saver's note) tries
`chat.postEphemeral` there first, then the same ways. Each try ends one of three ways (`Sent`):
delivered; not delivered (Slack answered with an error, or the request never left); or
unconfirmed (it failed after Slack may have posted it: a read error or timeout, or a 5xx
from the `response_url`, which Slack may answer after posting). An
unconfirmed answer is never posted again, by either way: neither takes an idempotency key,
so a second post is a second message. The `response_url` is posted to with
`NeverSentRetryHandler` (Bolt's `respond` retries a reset connection, which may post twice,
and reads an error answer such as 404 `expired_url` as success).

When neither way took it, the direct message's error says why (the core's reasons,
`bot.flows.undelivered`), from `chat.postMessage`'s documented errors:

- `unreachable`: `channel_not_found`, `not_in_channel`, `is_archived`, `cannot_dm_bot`,
  `user_disabled`, `restricted_action`, `messages_tab_disabled`: the bot may not write to
  the person directly;
- `busy`: `ratelimited` (HTTP 429) after the waits: each way (the `response_url`, an
  ephemeral message, a direct message) waits out `Retry-After` up to `ANSWER_PATIENCE`
  seconds in all (it runs after the acknowledgement, on a listener thread or the task
  pool, so the wait stays short);
- `failed`: anything else (`msg_too_long`, `invalid_blocks`, Slack unreachable...).

It is counted (`slack_command_undelivered_total{reason}`) and, in the person's language, a
short plain text says why: through the `response_url` again (a plain text may pass where
the answer did not), else ephemeral in the channel of the request, else a direct message
when that way was not the one refused. When none takes it, the log says what an admin
must fix.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from slack_sdk.webhook import WebhookClient

from bot.flows import undelivered
from bot.flows.approvals import Sent
from bot.flows.undelivered import Reason, notice_key
from bot.messages import t
from bot.slack.api import (
    NeverSentRetryHandler,
    Tried,
    asked_wait,
    attempt,
    failed,
    patiently,
    patiently_try,
)

if TYPE_CHECKING:
    from slack_sdk.web import WebClient

    from bot.metrics import Metrics
    from memory.lang import Lang

log = logging.getLogger(__name__)

UNREACHABLE = frozenset(
    {
        "channel_not_found",
        "not_in_channel",
        "is_archived",
        "cannot_dm_bot",
        "user_disabled",
        "restricted_action",
        "messages_tab_disabled",
    }
)
ADMIN_FIX: dict[Reason, str] = {
    "unreachable": "allow the app to message the person (its Messages tab, the workspace's "
    "restrictions on apps), or check that their account is active",
    "busy": "Slack rate-limits the app's posts; spread the load",
    "failed": "check the app's scopes (chat:write, im:write) and Slack's status",
    "unconfirmed": "nothing: Slack may have shown the answer",
}
# The longest a direct message waits out Slack's rate limits, in all: it runs after the
# acknowledgement but may hold one of Bolt's listener threads.
ANSWER_PATIENCE = 5.0
# What a direct message takes of an answer's extras.
_DM_EXTRAS = ("blocks", "unfurl_links", "unfurl_media")


def respond(url: str, text: str, *, patience: float = ANSWER_PATIENCE, **extra: Any) -> Tried:
    """An ephemeral answer through a `response_url` (rate limits waited out as `post`)."""
    client = WebhookClient(
        url=url, timeout=10, retry_handlers=[NeverSentRetryHandler(max_retry_count=2)]
    )
    payload = {"text": text, "response_type": "ephemeral", **extra}

    def once() -> tuple[Tried, float | None]:
        try:
            response = client.send_dict(payload)
        except Exception as exc:
            return failed(exc), None
        if response.status_code == 200:
            return Tried(Sent.DELIVERED), None
        if response.status_code == 429:
            return Tried(Sent.NOT_DELIVERED, "ratelimited"), asked_wait(response.headers)
        body = str(response.body or "").strip()
        error = body if body and len(body) <= 60 else f"HTTP {response.status_code}"
        if response.status_code >= 500:  # Slack may have posted it before failing
            log.warning("a Slack answer is unconfirmed (%s); not sent again", error)
            return Tried(Sent.UNCONFIRMED, error), None
        return Tried(Sent.NOT_DELIVERED, error), None

    return patiently_try(once, patience=patience)


def post(
    client: WebClient, channel: str, text: str, *, patience: float = ANSWER_PATIENCE, **extra: Any
) -> Tried:
    """`chat.postMessage` to a channel or, by user id, to the person directly; a rate limit
    (HTTP 429) is waited out while its `Retry-After` fits in `patience` seconds in all."""
    return patiently(
        lambda: client.chat_postMessage(channel=channel, text=text, **extra), patience=patience
    )


def ephemeral(
    client: WebClient,
    channel: str,
    user: str,
    text: str,
    *,
    patience: float = ANSWER_PATIENCE,
    **extra: Any,
) -> Tried:
    """`chat.postEphemeral`: only `user` sees it, in `channel` (`extra`: blocks, thread_ts);
    rate limits waited out as `post`."""
    return patiently(
        lambda: client.chat_postEphemeral(channel=channel, user=user, text=text, **extra),
        patience=patience,
    )


def update(client: WebClient, channel: str, ts: str, text: str, **extra: Any) -> Tried:
    """`chat.update` of a message the bot posted (`extra`: blocks)."""
    return attempt(lambda: client.chat_update(channel=channel, ts=ts, text=text, **extra))[0]


def taken(tried: Tried) -> bool:
    """Whether Slack took a try, or may have (then it is never tried again)."""
    return tried.sent != Sent.NOT_DELIVERED


def why(tried: Tried) -> Reason:
    """What a failed direct message means for the person (see the module docstring)."""
    if tried.sent == Sent.UNCONFIRMED:
        return "unconfirmed"
    if tried.error in UNREACHABLE:
        return "unreachable"
    return "busy" if tried.error == "ratelimited" else "failed"


@dataclass(frozen=True)
class Answers:
    """Answers to one person's request (see the module docstring)."""

    client: WebClient
    metrics: Metrics

    def answer(
        self,
        user: str,
        text: str,
        *,
        lang: Lang,
        response_url: str = "",
        channel: str = "",
        **extra: Any,
    ) -> Sent:
        """`text` (and `extra`: blocks, `replace_original`...) to `user`; what became of it.
        `channel`: where they asked, for a notice when the answer reaches nobody."""
        if response_url:
            tried = respond(response_url, text, **extra)
            if tried.sent != Sent.NOT_DELIVERED:
                return tried.sent
            log.info("response_url refused the answer (%s); sending a DM", tried.error)
        dm_extra = {k: v for k, v in extra.items() if k in _DM_EXTRAS}
        tried = post(self.client, user, text, **dm_extra)
        if tried.sent != Sent.NOT_DELIVERED:
            return tried.sent
        self._undelivered(user, why(tried), tried.error, lang, response_url, channel)
        return Sent.NOT_DELIVERED

    def tell(
        self,
        user: str,
        text: str,
        *,
        lang: Lang,
        channel: str,
        response_url: str = "",
        **extra: Any,
    ) -> Sent:
        """`text` ephemeral in `channel` (`extra`: thread_ts, blocks); when Slack refuses
        it, `answer` without the channel (the response_url, else a DM, else why not).
        Never a second copy of an ephemeral message Slack may have shown."""
        if channel:
            tried = ephemeral(self.client, channel, user, text, **extra)
            if tried.sent != Sent.NOT_DELIVERED:
                return tried.sent
            log.info("chat.postEphemeral refused the answer (%s)", tried.error)
        extra.pop("thread_ts", None)
        return self.answer(user, text, lang=lang, response_url=response_url, **extra)

    def _undelivered(
        self, user: str, reason: Reason, error: str, lang: Lang, response_url: str, channel: str
    ) -> None:
        ways: list[Callable[[str], bool]] = []
        if response_url:
            ways.append(lambda notice: taken(respond(response_url, notice)))
        if channel:
            ways.append(lambda notice: taken(ephemeral(self.client, channel, user, notice)))
        if reason != "unreachable":
            ways.append(lambda notice: taken(post(self.client, user, notice)))
        undelivered.tell(
            self.metrics,
            "slack",
            reason,
            error=error,
            notice=lambda: t(notice_key("slack", reason), lang, code=error),
            ways=ways,
            admin_fix=ADMIN_FIX,
            log=log,
        )


def channel_of(body: Mapping[str, Any]) -> str:
    """The channel a slash command or a click came from ("" when none)."""
    channel = body.get("channel")
    if isinstance(channel, Mapping):
        return str(channel.get("id") or "")
    return str(body.get("channel_id") or "")


__all__ = [
    "ADMIN_FIX",
    "ANSWER_PATIENCE",
    "UNREACHABLE",
    "Answers",
    "Tried",
    "channel_of",
    "ephemeral",
    "patiently",
    "post",
    "respond",
    "taken",
    "update",
    "why",
]
