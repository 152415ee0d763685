"""What Feishu sends the bot: event and callback bodies, sealed and signed like Feishu's.

- `message_event(...)`: `im.message.receive_v1` (text or post, mentions as Feishu writes
  them: `@_user_N` in the text and a `mentions` list);
- `card_action(...)`: `card.action.trigger` (a button's value, who clicked, on which card);
- `menu_event(...)`: `application.bot.menu_v6`;
- `url_verification(...)`: the challenge;
- `seal(body, key)`: `{"encrypt": ...}` (AES-256-CBC, key = sha256 of the encrypt key, a
  random IV in front, PKCS#7 padding, base64), as Feishu encrypts;
- `signed(raw, key)`: the `X-Lark-Request-*` headers with Feishu's signature.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import time
import uuid
from collections.abc import Sequence
from typing import Any

from Crypto.Cipher import AES

Mention = tuple[str, str]  # (open_id, name)


def _header(event_type: str, tenant: str, token: str, event_id: str | None) -> dict[str, Any]:
    return {
        "event_id": event_id or f"ev_{uuid.uuid4().hex}",
        "token": token,
        "create_time": str(int(time.time() * 1000)),
        "event_type": event_type,
        "tenant_key": tenant,
        "app_id": "cli_test",
    }


def message_event(
    *,
    token: str,
    tenant: str,
    sender: str,
    chat_id: str,
    chat_type: str,
    message_id: str,
    text: str = "",
    mentions: Sequence[Mention] = (),
    post: dict[str, Any] | None = None,
    message_type: str | None = None,
    root_id: str = "",
    thread_id: str = "",
    event_id: str | None = None,
    sent_at: float | None = None,
    sender_type: str = "user",
) -> dict[str, Any]:
    """`im.message.receive_v1`; `text` may hold `{0}`, `{1}`… for the `mentions`, in order."""
    keys = [f"@_user_{index + 1}" for index in range(len(mentions))]
    content = {"text": text.format(*keys)} if post is None else post
    message: dict[str, Any] = {
        "message_id": message_id,
        "create_time": str(int((time.time() if sent_at is None else sent_at) * 1000)),
        "chat_id": chat_id,
        "chat_type": chat_type,
        "message_type": message_type or ("text" if post is None else "post"),
        "content": json.dumps(content, ensure_ascii=False),
        "mentions": [
            {
                "key": key,
                "id": {"open_id": open_id, "union_id": f"on_{open_id}", "user_id": ""},
                "name": name,
                "tenant_key": tenant,
            }
            for key, (open_id, name) in zip(keys, mentions, strict=True)
        ],
    }
    if root_id:
        message["root_id"] = message["parent_id"] = root_id
    if thread_id:
        message["thread_id"] = thread_id
    return {
        "schema": "2.0",
        "header": _header("im.message.receive_v1", tenant, token, event_id),
        "event": {
            "sender": {
                "sender_id": {"open_id": sender, "union_id": f"on_{sender}", "user_id": ""},
                "sender_type": sender_type,
                "tenant_key": tenant,
            },
            "message": message,
        },
    }


def card_action(
    *,
    token: str,
    tenant: str,
    operator: str,
    value: dict[str, Any],
    message_id: str,
    chat_id: str = "oc_chat",
) -> dict[str, Any]:
    return {
        "schema": "2.0",
        "header": _header("card.action.trigger", tenant, token, None),
        "event": {
            "operator": {"tenant_key": tenant, "open_id": operator, "union_id": f"on_{operator}"},
            "token": f"c-{uuid.uuid4().hex}",
            "action": {"value": value, "tag": "button"},
            "host": "im_message",
            "context": {"open_message_id": message_id, "open_chat_id": chat_id},
        },
    }


def menu_event(*, token: str, tenant: str, operator: str, key: str) -> dict[str, Any]:
    return {
        "schema": "2.0",
        "header": _header("application.bot.menu_v6", tenant, token, None),
        "event": {
            "operator": {"operator_name": operator, "operator_id": {"open_id": operator}},
            "event_key": key,
            "timestamp": int(time.time()),
        },
    }


def url_verification(*, token: str, challenge: str) -> dict[str, Any]:
    return {"challenge": challenge, "token": token, "type": "url_verification"}


def seal(body: dict[str, Any], key: str) -> dict[str, str]:
    """The body encrypted as Feishu does it."""
    return seal_raw(json.dumps(body, ensure_ascii=False).encode(), key)


def seal_raw(data: bytes, key: str) -> dict[str, str]:
    """Any bytes encrypted as Feishu encrypts a body (for bodies Feishu would not send)."""
    pad = 16 - len(data) % 16
    iv = os.urandom(16)
    cipher = AES.new(hashlib.sha256(key.encode()).digest(), AES.MODE_CBC, iv)
    sealed = iv + cipher.encrypt(data + bytes([pad]) * pad)
    return {"encrypt": base64.b64encode(sealed).decode()}


def signed(raw: bytes, key: str, *, timestamp: str | None = None) -> dict[str, str]:
    """The headers Feishu signs a callback with."""
    stamp = timestamp or str(int(time.time()))
    nonce = uuid.uuid4().hex[:16]
    signature = hashlib.sha256((stamp + nonce + key).encode() + raw).hexdigest()
    return {
        "X-Lark-Request-Timestamp": stamp,
        "X-Lark-Request-Nonce": nonce,
        "X-Lark-Signature": signature,
    }


__all__ = [
    "card_action",
    "menu_event",
    "message_event",
    "seal",
    "seal_raw",
    "signed",
    "url_verification",
]
