"""A running Feishu bot for tests: the real channel behind the real HTTP server.

`FeishuHarness` (a `tests.support.harness.Running`) builds the Feishu channel with the
composition root and serves its route (`bot.feishu.http`) on the real server, with
Feishu's open API played by `FakeFeishuAPI`. Tests speak to it as Feishu does: sealed and
signed callbacks on `POST /feishu/events`; and read what the bot did from the fake.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from bot import compose
from bot.feishu.channel import FeishuChannel
from bot.prefs.links import LinkProvider
from bot.settings import Settings
from tests.support import feishu_events as events
from tests.support.feishu_api import FakeFeishuAPI
from tests.support.harness import Running

VERIFICATION_TOKEN = "vt-test-2b7c51"
ENCRYPT_KEY = "ek-test-9d41f0"
TENANT = "tk_travel01"
GROUP = "oc_group0travel"

_ids = itertools.count(1)


def new_message_id() -> str:
    return f"om_user{next(_ids):06d}"


@dataclass(frozen=True)
class FeishuSent:
    """A message the test sent to the bot."""

    response: httpx.Response
    message_id: str
    chat_id: str
    event_id: str
    body: dict[str, Any]


def card_text(content: Mapping[str, Any], fake: FakeFeishuAPI | None = None) -> str:
    """Everything a card shows as text: its title and every markdown element."""
    if content.get("type") == "card" and fake is not None:
        card = fake.card(str(content["data"]["card_id"]))
        return "\n".join(str(v) for v in card["elements"].values())
    found: list[str] = []
    title = ((content.get("header") or {}).get("title") or {}).get("content")
    if title:
        found.append(str(title))

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("tag") in ("markdown", "plain_text") and "content" in node:
                found.append(str(node["content"]))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk((content.get("body") or {}).get("elements"))
    return "\n".join(found)


def buttons_of(content: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """A card's buttons: label → its behaviour (`value` for callbacks, `url` to open)."""
    found: dict[str, dict[str, Any]] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("tag") == "button":
                [behavior] = node["behaviors"]
                found[node["text"]["content"]] = behavior
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(content)
    return found


class FeishuHarness(Running):
    def __init__(
        self, *, settings: Settings, fake: FakeFeishuAPI, prefs_link: LinkProvider | None = None
    ) -> None:
        super().__init__(settings)
        self.fake = fake
        self.feishu: FeishuChannel = compose.feishu(settings, self.core, link=prefs_link)
        compose.mount_feishu(self.web, settings, self.core, self.feishu)
        self.serve()

    @property
    def key(self) -> str:
        key = self.settings.feishu_encrypt_key
        return key.get_secret_value() if key is not None else ""

    def namespace(self, user: str) -> str:
        return f"feishu:{TENANT}:{user}"

    # -- callbacks, sealed and signed like Feishu's -------------------------------------

    def post(
        self,
        body: Mapping[str, Any],
        *,
        sealed: bool | None = None,
        sign: bool = True,
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        key = self.key
        payload = events.seal(dict(body), key) if (key if sealed is None else sealed) else body
        raw = json.dumps(payload, ensure_ascii=False).encode()
        all_headers = {"Content-Type": "application/json; charset=utf-8"}
        if sign and key:
            all_headers.update(events.signed(raw, key))
        all_headers.update(headers or {})
        return self.http.post("/feishu/events", content=raw, headers=all_headers)

    def send(self, body: dict[str, Any]) -> FeishuSent:
        """Post a message event whose message the fake knows (so the bot can reply)."""
        message = body["event"]["message"]
        self.fake.add_message(
            message["message_id"],
            chat_id=message["chat_id"],
            sender=body["event"]["sender"]["sender_id"]["open_id"],
            msg_type=message["message_type"],
            content=json.loads(message["content"]),
            root_id=message.get("root_id", ""),
            thread_id=message.get("thread_id", ""),
            mentions=message.get("mentions"),
        )
        response = self.post(body)
        return FeishuSent(
            response, message["message_id"], message["chat_id"], body["header"]["event_id"], body
        )

    def message(
        self,
        user: str,
        text: str,
        *,
        chat_type: str = "p2p",
        chat_id: str | None = None,
        mentions: Sequence[events.Mention] = (),
        **extra: Any,
    ) -> dict[str, Any]:
        """A message event (not sent); in a group, `{0}`… in `text` are the mentions."""
        return events.message_event(
            token=VERIFICATION_TOKEN,
            tenant=TENANT,
            sender=user,
            chat_id=chat_id or (f"oc_p2p_{user}" if chat_type == "p2p" else GROUP),
            chat_type=chat_type,
            message_id=extra.pop("message_id", None) or new_message_id(),
            text=text,
            mentions=mentions,
            **extra,
        )

    def dm(self, user: str, text: str, **extra: Any) -> FeishuSent:
        return self.send(self.message(user, text, **extra))

    def group(
        self,
        user: str,
        text: str,
        *,
        mentions: Sequence[events.Mention] = (),
        mention_bot: bool = True,
        **extra: Any,
    ) -> FeishuSent:
        """A group message; `text` names its `mentions` `{0}`, `{1}`…; the bot's own
        mention is put in front unless `mention_bot=False`."""
        if mention_bot:
            shifted = text.format(*[f"{{{index + 1}}}" for index in range(len(mentions))])
            text = "{0} " + shifted
            mentions = [(self.fake.bot_open_id, "TravelBot"), *mentions]
        body = self.message(user, text, chat_type="group", mentions=mentions, **extra)
        return self.send(body)

    def click(self, user: str, value: Mapping[str, Any], *, message_id: str) -> httpx.Response:
        body = events.card_action(
            token=VERIFICATION_TOKEN,
            tenant=TENANT,
            operator=user,
            value=dict(value),
            message_id=message_id,
        )
        return self.post(body)

    # -- what the bot did ---------------------------------------------------------------

    def replies(
        self, sent: FeishuSent, count: int = 1, timeout: float = 15.0
    ) -> list[dict[str, Any]]:
        """Wait for `count` replies to `sent`; the replies as they look now."""
        self.fake.wait_for(
            "reply",
            count=count,
            timeout=timeout,
            where=lambda c: c.params.get("id") == sent.message_id,
            ok=True,
        )
        return self.fake.replies_to(sent.message_id)

    def reply_text(self, sent: FeishuSent, timeout: float = 15.0) -> str:
        """The text of the first reply to `sent` (once its streaming, if any, ended)."""
        [first, *_] = self.replies(sent, timeout=timeout)
        if first["content"].get("type") == "card":
            card_id = first["content"]["data"]["card_id"]
            self.fake.wait_for(
                "card_settings", where=lambda c: c.params.get("id") == card_id, timeout=timeout
            )
        return card_text(first["content"], self.fake)


__all__ = [
    "ENCRYPT_KEY",
    "GROUP",
    "TENANT",
    "VERIFICATION_TOKEN",
    "FeishuHarness",
    "FeishuSent",
    "buttons_of",
    "card_text",
    "new_message_id",
]
