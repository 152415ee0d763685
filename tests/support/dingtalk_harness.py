"""A running DingTalk robot for tests, in HTTP mode or in Stream mode.

`HTTPRobot` (a `tests.support.harness.Running`) builds the DingTalk channel with the
composition root and serves its route (`bot.dingtalk.http`) on the real server;
DingTalk's OpenAPI and session webhooks are played by `FakeDingTalkAPI`. Tests speak to it
as DingTalk does: signed callbacks (`post`, `send`), and read what the robot answered from
the fake.

`StreamRobot` runs the real Stream mode (`bot.dingtalk.long_connection`) on a thread
against the fake's gateway; tests push frames with `fake.gateway.send_message(...)`.

`robot_message(...)` builds the JSON DingTalk sends for a message, with a fresh session
webhook from the fake.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import httpx

from bot import compose
from bot.dingtalk.channel import DingTalkChannel
from bot.dingtalk.health import Backoff
from bot.dingtalk.http import compute_sign
from bot.dingtalk.long_connection import DingTalkStream, stream_for
from bot.settings import Settings
from tests.support.dingtalk_api import CLIENT_SECRET, FakeDingTalkAPI
from tests.support.harness import Running

CORP = "dingcorp0travel"
BOT_ID = "$:LWCP_v1:$robot0travel"
GROUP = "cidGroup0travel=="

_msg_ids = itertools.count(1)


def dm_conversation(staff_id: str) -> str:
    return f"cidDM-{staff_id}=="


def robot_message(
    fake: FakeDingTalkAPI,
    text: str,
    *,
    staff_id: str | None = "staff-alice",
    corp: str = CORP,
    group: bool = False,
    mentioned: bool = True,
    at_users: Sequence[str] = (),
    msg_id: str | None = None,
    webhook_expires_in: float = 5400,
    nick: str = "Alice",
) -> dict[str, Any]:
    """The JSON DingTalk sends for `text`, one-to-one or in `GROUP` (`at_users`: staff ids
    @mentioned in the text, in its order; the robot's own mention DingTalk removes)."""
    conversation = GROUP if group else dm_conversation(staff_id or "external")
    webhook, expires_ms = fake.new_session(conversation, expires_in=webhook_expires_in)
    sender = f"$:LWCP_v1:${staff_id or 'external'}"
    users = [{"dingtalkId": f"$:LWCP_v1:${u}", "staffId": u} for u in at_users]
    if group and mentioned:
        users.insert(0, {"dingtalkId": BOT_ID})
    data: dict[str, Any] = {
        "conversationId": conversation,
        "atUsers": users,
        "chatbotCorpId": CORP,  # the robot's own organisation
        "chatbotUserId": BOT_ID,
        "msgId": msg_id or f"msg{next(_msg_ids):06d}{uuid.uuid4().hex[:6]}",
        "senderNick": nick,
        "isAdmin": False,
        "sessionWebhookExpiredTime": expires_ms,
        "createAt": int(time.time() * 1000),
        "conversationType": "2" if group else "1",
        "senderId": sender,
        "isInAtList": bool(group and mentioned),
        "sessionWebhook": webhook,
        "text": {"content": (" " + text) if group else text},
        "robotCode": fake.client_id,
        "msgtype": "text",
    }
    if staff_id is not None:
        data["senderStaffId"] = staff_id
        data["senderCorpId"] = corp
    if group:
        data["conversationTitle"] = "Travel team"
    return data


def signed_headers(*, secret: str = CLIENT_SECRET, timestamp: int | None = None) -> dict[str, str]:
    stamp = str(int(time.time() * 1000) if timestamp is None else timestamp)
    return {"timestamp": stamp, "sign": compute_sign(secret, stamp)}


class _Robot(Running):
    """What both modes share: the channel built by the composition root, on the core."""

    drain_on_close = True  # queued turns are still answered, then the robot closes

    def __init__(
        self,
        *,
        settings: Settings,
        fake: FakeDingTalkAPI,
        preferences_url: Callable[[str, str], str | None] | None = None,
    ) -> None:
        super().__init__(settings)
        self.fake = fake
        self.robot: DingTalkChannel = compose.dingtalk(settings, self.core, link=preferences_url)
        self.on_close(self.robot.close)
        self.start()

    def start(self) -> None:
        """Connect the robot to its platform (each mode its own way)."""

    def namespace(self, staff_id: str, corp: str = CORP) -> str:
        return f"dingtalk:{corp}:{staff_id}"

    def message(self, text: str, **options: Any) -> dict[str, Any]:
        return robot_message(self.fake, text, **options)

    def drain(self, timeout: float = 30.0) -> None:
        """Wait until no turn is queued or running."""
        deadline = time.monotonic() + timeout
        while self.core.conversation.pending:
            if time.monotonic() > deadline:
                raise AssertionError("turns still pending")
            time.sleep(0.02)

    def answers(
        self, count: int = 1, *, where: Callable[[Any], bool] | None = None, timeout: float = 15.0
    ) -> list[Any]:
        return self.fake.wait_for(count, where=where, timeout=timeout)


class HTTPRobot(_Robot):
    """The robot's HTTP mode behind the real server (see the module docstring)."""

    def start(self) -> None:
        compose.mount_dingtalk(self.web, self.settings, self.core, self.robot)
        self.serve()

    def post(
        self,
        body: Mapping[str, Any] | bytes,
        *,
        signed: bool = True,
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        raw = body if isinstance(body, bytes) else json.dumps(body, ensure_ascii=False).encode()
        all_headers = {"Content-Type": "application/json"}
        if signed:
            all_headers.update(signed_headers())
        all_headers.update(headers or {})
        return self.http.post("/dingtalk/events", content=raw, headers=all_headers)

    def send(self, text: str, **options: Any) -> tuple[httpx.Response, dict[str, Any]]:
        data = self.message(text, **options)
        return self.post(data), data


class StreamRobot(_Robot):
    """The robot's Stream mode on a thread, connected to the fake's gateway; the
    connection's ping period and back-off are short, so reconnects are quick."""

    def __init__(
        self, *, settings: Settings, fake: FakeDingTalkAPI, ping_seconds: float = 0.5
    ) -> None:
        self.ping_seconds = ping_seconds
        super().__init__(settings=settings, fake=fake)

    def start(self) -> None:
        settings, ping_seconds = self.settings, self.ping_seconds
        secret = settings.dingtalk_client_secret
        self.stream: DingTalkStream = stream_for(
            self.robot,
            client_id=settings.dingtalk_client_id,
            client_secret=secret.get_secret_value() if secret else "",
            api_url=settings.dingtalk_api_url,
            listeners=self.core.pools.listeners,
            metrics=self.core.metrics,
            ping_seconds=ping_seconds,
        )
        self.stream.backoff = Backoff(initial=0.2, maximum=2.0)
        self.stop = threading.Event()
        self.thread = threading.Thread(
            target=self.stream.run, args=(self.stop,), name="dingtalk-stream", daemon=True
        )
        self.thread.start()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=15)
        assert not self.thread.is_alive(), "the stream did not stop"
        super().close()


__all__ = [
    "BOT_ID",
    "CORP",
    "GROUP",
    "HTTPRobot",
    "StreamRobot",
    "dm_conversation",
    "robot_message",
    "signed_headers",
]
