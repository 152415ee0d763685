"""Getting a reply to the people who should see it: the session webhook, else the OpenAPI.

Every robot message DingTalk delivers carries a `sessionWebhook` valid until
`sessionWebhookExpiredTime`: a reply posted there needs no token and lands in the same
chat. It expires (sooner, sometimes, than it says: "session 不存在"), so a `Delivery`
uses it only while it is valid and, after it fails once, never again for that message:
the robot's OpenAPI sends take over (one-to-one `batchSend` to the writer's staff id, or
the group's `groupMessages/send`). An external contact (no staff id) one-to-one has no
such route, so its webhook is asked again when DingTalk answered it was busy (HTTP 5xx
or 429, errcode 130101 "too fast": after 1 s, then 3 s, while it stays valid); a reply
it still did not take is lost, and logged at ERROR with the conversation's id (never
the reply).

A reply is sent at most once. Neither way takes an idempotency key, so a send that
failed after DingTalk may have taken it (`DingTalkError.maybe_sent`: a read error or
timeout) is not sent again, neither way: it counts as sent, "unconfirmed", and is
logged at WARNING. The replies after it go through the OpenAPI when there is a route
(the webhook is slow or failing); an external contact's keep to the webhook. A webhook
that could not be reached at all was already tried twice (`OpenAPI.post_webhook`). An
HTTP 500 or 504 may have posted too, yet a reply is sent again after one (by the OpenAPI
after the webhook's, within the OpenAPI's retries after its own): a duplicate beats a
lost answer (`docs/dingtalk.md`).

A reply is Markdown, optionally with buttons (an ActionCard); `Reply` knows both shapes
DingTalk wants: the webhook's `msgtype` payload and the OpenAPI's `msgKey`/`msgParam`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.dingtalk.api import DingTalkError, OpenAPI

log = logging.getLogger(__name__)

WEBHOOK_MARGIN_SECONDS = 5.0  # a webhook this close to expiring is not used
BUSY_PAUSES = (1.0, 3.0)  # an external contact's busy webhook is asked again after these
TOO_FAST = "130101"  # DingTalk: a robot sending faster than it allows

ONE_TO_ONE, GROUP = "1", "2"  # DingTalk's conversationType


@dataclass(frozen=True, slots=True)
class Button:
    title: str
    url: str


@dataclass(frozen=True, slots=True)
class Reply:
    """One message of the robot: a title (the notification's text), Markdown, buttons."""

    title: str
    text: str
    buttons: tuple[Button, ...] = ()
    at_users: tuple[str, ...] = ()  # staff ids written `@STAFF_ID` in `text`

    def webhook_payload(self) -> dict[str, Any]:
        if not self.buttons:
            payload: dict[str, Any] = {
                "msgtype": "markdown",
                "markdown": {"title": self.title, "text": self.text},
            }
        else:
            buttons = [{"title": b.title, "actionURL": b.url} for b in self.buttons]
            payload = {
                "msgtype": "actionCard",
                "actionCard": {
                    "title": self.title,
                    "text": self.text,
                    "btnOrientation": "0",
                    "btns": buttons,
                },
            }
        if self.at_users:
            payload["at"] = {"atUserIds": list(self.at_users), "isAtAll": False}
        return payload

    def openapi_message(self) -> tuple[str, dict[str, str]]:
        """(`msgKey`, `msgParam`) of the robot's OpenAPI sends."""
        if not self.buttons:
            return "sampleMarkdown", {"title": self.title, "text": self.text}
        if len(self.buttons) == 1:
            [button] = self.buttons
            param = {"title": self.title, "text": self.text}
            return "sampleActionCard", {
                **param,
                "singleTitle": button.title,
                "singleURL": button.url,
            }
        param = {"title": self.title, "text": self.text}
        for index, button in enumerate(self.buttons[:5], start=1):
            param[f"actionTitle{index}"] = button.title
            param[f"actionURL{index}"] = button.url
        return f"sampleActionCard{min(len(self.buttons), 5)}", param


@dataclass(frozen=True, slots=True)
class Destination:
    """Where the replies to one message go."""

    conversation_type: str  # "1": one-to-one, "2": group
    conversation_id: str
    staff_id: str  # the writer's ("" for an external contact)
    webhook: str = ""
    webhook_expires: float = 0.0  # epoch seconds

    @property
    def is_group(self) -> bool:
        return self.conversation_type == GROUP


class Delivery:
    """Sends the replies to one message (see the module docstring); thread-safe."""

    def __init__(
        self,
        api: OpenAPI,
        destination: Destination,
        *,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.api = api
        self.destination = destination
        self._clock = clock
        self._sleep = sleep
        self._webhook_failed = False
        self._lock = threading.Lock()

    @property
    def webhook_usable(self) -> bool:
        dest = self.destination
        with self._lock:
            failed = self._webhook_failed
        return bool(dest.webhook) and not failed and self._valid_for(0.0)

    def _valid_for(self, seconds: float) -> bool:
        expires = self.destination.webhook_expires - WEBHOOK_MARGIN_SECONDS
        return self._clock() + seconds < expires

    @property
    def has_route(self) -> bool:
        """Whether the OpenAPI can reach the chat (a group, or a writer with a staff id)."""
        return self.destination.is_group or bool(self.destination.staff_id)

    def send(self, reply: Reply) -> str:
        """Post `reply` in the message's chat; how it went ("webhook", "openapi", or
        "unconfirmed": it may have arrived, and is not sent again).

        `DingTalkError` when neither way took it.
        """
        dest = self.destination
        with self._lock:
            failed = self._webhook_failed
        failure = (
            "no session webhook"
            if not dest.webhook
            else "the session webhook failed before"
            if failed
            else "the session webhook expired"
        )
        if self.webhook_usable:
            pauses = () if self.has_route else BUSY_PAUSES
            for attempt in range(len(pauses) + 1):
                try:
                    self.api.post_webhook(dest.webhook, reply.webhook_payload())
                    return "webhook"
                except DingTalkError as exc:
                    if exc.maybe_sent:
                        with self._lock:  # later replies avoid a webhook that hangs, if they can
                            self._webhook_failed = self.has_route
                        return _unconfirmed(exc)
                    failure = exc.reason
                    pause = pauses[attempt] if attempt < len(pauses) else None
                    if pause is None or not _busy(exc) or not self._valid_for(pause):
                        with self._lock:
                            self._webhook_failed = True
                        break
                    log.info(
                        "session webhook busy (%s); an external contact has no other route, "
                        "asking again in %.0f s",
                        failure,
                        pause,
                    )
                    self._sleep(pause)
            if self.has_route:
                log.info("session webhook failed (%s); using the OpenAPI", failure)
        if not self.has_route:
            log.error(
                "a DingTalk reply was lost: %s, and an external contact has no other route "
                "(conversation %s)",
                failure,
                dest.conversation_id,
            )
            raise DingTalkError("no way to reach an external contact without the session webhook")
        msg_key, param = reply.openapi_message()
        try:
            if dest.is_group:
                self.api.send_to_group(dest.conversation_id, msg_key, param)
            else:
                self.api.send_to_users([dest.staff_id], msg_key, param)
        except DingTalkError as exc:
            if exc.maybe_sent:
                return _unconfirmed(exc)
            raise
        return "openapi"

    def send_private(self, reply: Reply) -> None:
        """The robot's one-to-one message to the writer (`DingTalkError` if it fails;
        one that may have arrived counts as sent)."""
        if not self.destination.is_group:
            self.send(reply)
            return
        if not self.destination.staff_id:
            raise DingTalkError("an external contact has no staff id to write to")
        msg_key, param = reply.openapi_message()
        try:
            self.api.send_to_users([self.destination.staff_id], msg_key, param)
        except DingTalkError as exc:
            if not exc.maybe_sent:
                raise
            _unconfirmed(exc)


def _busy(exc: DingTalkError) -> bool:
    """DingTalk did not take it for now (overloaded, rate limited): worth asking again."""
    status = exc.status or 0
    return status >= 500 or status == 429 or exc.errcode == TOO_FAST


def _unconfirmed(exc: DingTalkError) -> str:
    log.warning("a DingTalk reply is unconfirmed (%s); not sending it again", exc.reason)
    return "unconfirmed"


__all__ = ["GROUP", "ONE_TO_ONE", "Button", "Delivery", "Destination", "Reply"]
