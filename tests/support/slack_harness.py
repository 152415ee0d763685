"""A running bot for tests: the real Bolt app behind the real HTTP server.

`BotHarness` (a `tests.support.harness.Running`) builds the Slack channel with the
composition root and serves it (and the preferences page, when configured) on the real
server, with the Slack Web API played by `FakeSlackAPI`. Tests speak to it as Slack does: signed
HTTP requests (events, slash commands, interactivity), and read what the bot did from
the fake Slack server.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import httpx

from bot import compose
from bot.conversation.turn import Conversation
from bot.settings import Settings
from tests.support.harness import METRICS_AUTH, METRICS_TOKEN, Running
from tests.support.slack_api import Call, FakeSlackAPI

SIGNING_SECRET = "test-signing-secret-8f3a"
BOT_TOKEN = "xoxb-test-bot-token"
API_APP_ID = "A0TRAVEL"
CHANNEL = "C0TRAVEL"

_ts_counter = itertools.count(1)


def new_ts() -> str:
    """A fresh Slack message timestamp."""
    return f"{int(time.time())}.{next(_ts_counter):06d}"


def sign(
    body: bytes, *, secret: str = SIGNING_SECRET, timestamp: int | None = None
) -> dict[str, str]:
    """The headers Slack would send with `body`."""
    stamp = str(int(time.time()) if timestamp is None else timestamp)
    base = b"v0:" + stamp.encode() + b":" + body
    digest = hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()
    return {"X-Slack-Request-Timestamp": stamp, "X-Slack-Signature": f"v0={digest}"}


def dm_channel(user: str) -> str:
    return "D" + user.lstrip("U")


@dataclass(frozen=True)
class Sent:
    """A message the test sent to the bot."""

    response: httpx.Response
    channel: str
    ts: str
    thread_ts: str
    event_id: str


class BotHarness(Running):
    def __init__(self, *, settings: Settings, slack: FakeSlackAPI) -> None:
        super().__init__(settings)
        self.slack = slack
        self.app = compose.slack(settings, self.core)
        compose.mount_slack(self.web, settings, self.core, self.app)
        self.prefs_page = compose.mount_prefs_site(self.web, settings, self.core)
        self.serve()

    @property
    def team_id(self) -> str:
        return self.slack.team_id

    @property
    def conversation(self) -> Conversation:
        return self.core.conversation

    def namespace(self, user: str) -> str:
        return f"{self.team_id}:{user}"

    # -- requests, signed like Slack's ---------------------------------------------------

    def post(
        self,
        body: bytes,
        content_type: str,
        *,
        secret: str = SIGNING_SECRET,
        timestamp: int | None = None,
        headers: Mapping[str, str] | None = None,
        signed: bool = True,
    ) -> httpx.Response:
        all_headers = {"Content-Type": content_type}
        if signed:
            all_headers.update(sign(body, secret=secret, timestamp=timestamp))
        all_headers.update(headers or {})
        return self.http.post("/slack/events", content=body, headers=all_headers)

    def event(
        self,
        event: Mapping[str, Any],
        *,
        event_id: str | None = None,
        retry_num: int | None = None,
    ) -> tuple[httpx.Response, str]:
        event_id = event_id or f"Ev{uuid.uuid4().hex[:10].upper()}"
        envelope = {
            "token": "legacy-verification-token",
            "team_id": self.team_id,
            "api_app_id": API_APP_ID,
            "event": dict(event),
            "type": "event_callback",
            "event_id": event_id,
            "event_time": int(time.time()),
            "authorizations": [
                {
                    "enterprise_id": None,
                    "team_id": self.team_id,
                    "user_id": self.slack.bot_user_id,
                    "is_bot": True,
                    "is_enterprise_install": False,
                }
            ],
            "is_ext_shared_channel": False,
        }
        headers = {}
        if retry_num is not None:
            headers = {"X-Slack-Retry-Num": str(retry_num), "X-Slack-Retry-Reason": "http_timeout"}
        body = json.dumps(envelope).encode()
        return self.post(body, "application/json", headers=headers), event_id

    def dm(
        self, user: str, text: str, *, thread_ts: str | None = None, ts: str | None = None
    ) -> Sent:
        channel = dm_channel(user)
        ts = ts or new_ts()
        event: dict[str, Any] = {
            "type": "message",
            "channel": channel,
            "channel_type": "im",
            "user": user,
            "text": text,
            "ts": ts,
            "event_ts": ts,
            "team": self.team_id,
        }
        if thread_ts:
            event["thread_ts"] = thread_ts
        response, event_id = self.event(event)
        return Sent(response, channel, ts, thread_ts or ts, event_id)

    def mention(
        self,
        user: str,
        text: str,
        *,
        channel: str = CHANNEL,
        thread_ts: str | None = None,
        ts: str | None = None,
    ) -> Sent:
        ts = ts or new_ts()
        event: dict[str, Any] = {
            "type": "app_mention",
            "channel": channel,
            "user": user,
            "text": f"<@{self.slack.bot_user_id}> {text}",
            "ts": ts,
            "event_ts": ts,
            "team": self.team_id,
        }
        if thread_ts:
            event["thread_ts"] = thread_ts
        response, event_id = self.event(event)
        return Sent(response, channel, ts, thread_ts or ts, event_id)

    def channel_message(
        self, user: str, text: str, *, channel: str = CHANNEL, thread_ts: str | None = None
    ) -> Sent:
        ts = new_ts()
        event: dict[str, Any] = {
            "type": "message",
            "channel": channel,
            "channel_type": "channel",
            "user": user,
            "text": text,
            "ts": ts,
            "event_ts": ts,
            "team": self.team_id,
        }
        if thread_ts:
            event["thread_ts"] = thread_ts
        response, event_id = self.event(event)
        return Sent(response, channel, ts, thread_ts or ts, event_id)

    def assistant_thread(
        self,
        user: str,
        *,
        viewing: str | None = None,
        changed: bool = False,
        thread_ts: str | None = None,
        event_id: str | None = None,
    ) -> Sent:
        """The person opens the assistant pane (`assistant_thread_started`) beside the
        channel `viewing`; with `changed`, they moved to it (`..._context_changed`)."""
        channel, ts = dm_channel(user), thread_ts or new_ts()
        context: dict[str, Any] = {"team_id": self.team_id, "enterprise_id": None}
        if viewing:
            context["channel_id"] = viewing
        event = {
            "type": "assistant_thread_context_changed" if changed else "assistant_thread_started",
            "assistant_thread": {
                "user_id": user,
                "channel_id": channel,
                "thread_ts": ts,
                "context": context,
            },
            "event_ts": new_ts(),
        }
        response, event_id = self.event(event, event_id=event_id)
        return Sent(response, channel, ts, ts, event_id)

    def command(
        self, command: str, text: str = "", *, user: str = "U0ALICE", **extra: str
    ) -> httpx.Response:
        form = {
            "token": "legacy-verification-token",
            "team_id": self.team_id,
            "team_domain": self.slack.team_domain,
            "channel_id": CHANNEL,
            "channel_name": "travel",
            "user_id": user,
            "user_name": user.lower(),
            "command": command,
            "text": text,
            "api_app_id": API_APP_ID,
            "response_url": self.slack.response_url(),
            "trigger_id": f"{uuid.uuid4().int % 10**10}.{uuid.uuid4().hex[:12]}",
            **extra,
        }
        return self.post(urlencode(form).encode(), "application/x-www-form-urlencoded")

    # -- what the bot did ----------------------------------------------------------------

    def answers(self, sent: Sent, count: int = 1, timeout: float = 15.0) -> list[dict[str, Any]]:
        """Wait for `count` messages the bot shows in the thread of `sent` (posted, or
        streamed and stopped), as a person sees them (`text`, `blocks`); oldest first."""
        return self.slack.wait_shown(sent.channel, sent.thread_ts, count=count, timeout=timeout)

    def replies(self, sent: Sent, count: int = 1, timeout: float = 15.0) -> list[Call]:
        """Wait for `count` messages posted (successfully) in the thread of `sent`.

        Only `chat.postMessage` counts: a streamed answer is not among them (`answers`).
        """
        return self.slack.wait_for(
            "chat.postMessage",
            count=count,
            timeout=timeout,
            where=lambda c: (
                c.args.get("channel") == sent.channel and c.args.get("thread_ts") == sent.thread_ts
            ),
            ok=True,
        )

    def reply_text(self, sent: Sent, timeout: float = 15.0) -> str:
        """The text the bot shows in the thread of `sent` (once it shows something)."""
        return "\n".join(str(m.get("text")) for m in self.answers(sent, timeout=timeout))


__all__ = [
    "BOT_TOKEN",
    "CHANNEL",
    "METRICS_AUTH",
    "METRICS_TOKEN",
    "SIGNING_SECRET",
    "BotHarness",
    "Sent",
    "dm_channel",
    "new_ts",
    "sign",
]
