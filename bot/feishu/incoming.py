"""Feishu's `im.message.receive_v1` as the core's `IncomingMessage`.

`parse_message` keeps what a person wrote to the bot and drops the rest: messages of
bots and apps (and the bot's own), kinds without text (images, files, stickers), group
messages that neither mention the bot nor answer in a thread, and messages older than
`max_age` seconds (a replay after the long connection reconnects, or a late retry).

- Text and post (rich text) bodies become plain text; a post's title is its first line,
  its links keep their label and address, its code blocks their code.
- Mentions: Feishu writes `@_user_1` in the text and lists who that is; each becomes
  the core's `<@OPEN_ID>`, the bot's own is removed, `@_all` becomes "@all" (plain
  text). A `<@` the person typed is changed so it can never pass for a mention.
- The thread is the thread's first message (`root_id`), so a reply in the bot's thread
  continues its history; `thread_id` (`omt_…`) names it for the list API.
- The language is the message's (Chinese characters, or an English word), else
  `DEFAULT_LANGUAGE`.
- The namespace is `feishu:TENANT_KEY:OPEN_ID` (`PLATFORM.key`).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

from bot.chat.markup import ANGLE
from bot.conversation.incoming import IncomingMessage, Kind
from bot.messages import stated_lang
from bot.payloads import parse_json
from bot.platform import Platform
from memory.lang import Lang

PLATFORM = Platform(
    name="feishu",
    prefix="feishu",
    shape=r"[^\s:]{1,128}:[^\s:]{1,128}",
    example="feishu:TENANT:OPEN_ID",
    markup=ANGLE,  # mentions are parsed into `<@OPEN_ID>` and drawn back as `<at id=…>`
    place={"en": "a company's Feishu (Lark)", "zh": "公司飞书里"},
    commands={
        "en": "`/travel-prefs` (or 偏好设置) and the bot's menu in Feishu",
        "zh": "飞书里的“偏好设置”（或 `/travel-prefs`）和机器人菜单",
    },
)
TEXT_KINDS = frozenset({"text", "post"})


@dataclass(frozen=True, slots=True)
class Parsed:
    """A message for the bot, with what only Feishu needs beside it."""

    msg: IncomingMessage
    chat_type: str  # "p2p" or "group"
    thread_id: str | None  # the thread (`omt_…`) the message is in, if any


def field(obj: Any, *path: str) -> Any:
    """`obj.a.b.c` for a typed SDK event (or a dict), None where anything is missing."""
    for name in path:
        if obj is None:
            return None
        obj = obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)
    return obj


def text_field(obj: Any, *path: str) -> str:
    value = field(obj, *path)
    return value if isinstance(value, str) else ""


def parse_message(
    data: Any,
    *,
    bot_open_id: str | None,
    default_lang: Lang = "en",
    max_age: float | None = None,
    now: float | None = None,
) -> Parsed | None:
    """The message in a `P2ImMessageReceiveV1` (or its JSON), or None when it is not for us."""
    message = field(data, "event", "message")
    sender = field(data, "event", "sender")
    if text_field(sender, "sender_type") != "user":
        return None  # another bot, an app, or this bot itself
    user = text_field(sender, "sender_id", "open_id")
    message_id = text_field(message, "message_id")
    chat_id = text_field(message, "chat_id")
    tenant = text_field(data, "header", "tenant_key") or text_field(sender, "tenant_key")
    if not (user and message_id and chat_id and tenant) or user == bot_open_id:
        return None
    if text_field(message, "message_type") not in TEXT_KINDS:
        return None
    if max_age is not None and _age(text_field(message, "create_time"), now) > max_age:
        return None
    mentions = _mentions(field(message, "mentions"))
    mentioned_bot = bool(bot_open_id) and bot_open_id in mentions.values()
    chat_type = text_field(message, "chat_type")
    root = text_field(message, "root_id")
    kind: Kind
    if chat_type == "p2p":
        kind = "dm"
    elif mentioned_bot or (not bot_open_id and mentions):
        kind = "mention"
    elif root:
        kind = "thread"
    else:
        return None  # group chatter without a mention is not for us
    text = body_text(
        text_field(message, "message_type"),
        text_field(message, "content"),
        field(message, "mentions"),
        bot_open_id,
    )
    event_id = text_field(data, "header", "event_id")
    msg = IncomingMessage(
        platform=PLATFORM,
        tenant=tenant,
        user=user,
        conversation=chat_id,
        thread=root or message_id,
        message_id=message_id,
        text=text,
        kind=kind,
        lang=language(text, default_lang),
        delivery_id=event_id or None,
        bot_user=bot_open_id or None,
    )
    thread_id = text_field(message, "thread_id") or None
    return Parsed(msg=msg, chat_type=chat_type or "group", thread_id=thread_id)


def language(text: str, default: Lang) -> Lang:
    """The message's language: Chinese with Chinese characters, English with an English
    word, else `default` (`DEFAULT_LANGUAGE`; e.g. "MU5101" or "ok")."""
    return stated_lang(text) or default


def body_text(message_type: str, content: str, mentions: Any, bot_open_id: str | None) -> str:
    """The plain text of a text or post body, mentions in the core's markup ("" for other
    kinds). `mentions` is the message's list of mentions, as the event or the list API
    gives it."""
    if message_type not in TEXT_KINDS:
        return ""
    return _normalise_mentions(_text(message_type, content), _mentions(mentions), bot_open_id)


def _age(create_time: str, now: float | None) -> float:
    """Seconds since a message was sent (its `create_time` is in milliseconds)."""
    try:
        sent = int(create_time) / 1000
    except ValueError:
        return 0.0
    return (time.time() if now is None else now) - sent


def _mentions(raw: Any) -> dict[str, str]:
    """{"@_user_1": open_id} for each mention of a message."""
    found: dict[str, str] = {}
    for item in raw if isinstance(raw, list) else []:
        key = text_field(item, "key")
        open_id = text_field(item, "id", "open_id") or text_field(item, "id")
        if key:
            found[key] = open_id
    return found


def _text(message_type: str, content: str) -> str:
    """The plain text of a text or post body."""
    try:
        body = parse_json(content or "{}")
    except ValueError:
        return ""
    if not isinstance(body, dict):
        return ""
    if message_type == "text":
        return str(body.get("text") or "")
    if "content" not in body:  # a post may come wrapped in its locale: {"zh_cn": {...}}
        body = next((v for v in body.values() if isinstance(v, dict)), {})
    lines = [str(body.get("title") or "")]
    for paragraph in body.get("content") or []:
        if isinstance(paragraph, list):
            lines.append("".join(_post_element(e) for e in paragraph if isinstance(e, dict)))
    return "\n".join(line for line in lines if line.strip())


def _post_element(element: dict[str, Any]) -> str:
    tag = element.get("tag")
    if tag in ("text", "md", "code_block"):
        return str(element.get("text") or "")
    if tag == "a":
        label, href = str(element.get("text") or ""), str(element.get("href") or "")
        return f"{label} ({href})" if href and href != label else label or href
    if tag == "at":
        # The user id is a mention key ("@_user_1") resolved with the message's mentions,
        # or an open_id; "all" is everyone.
        who = str(element.get("user_id") or "")
        return who if who.startswith("@_") else f"\x00{who}\x00"
    return ""


def _normalise_mentions(text: str, mentions: dict[str, str], bot: str | None) -> str:
    text = re.sub(r"<(\s*@)", r"‹\1", text)  # only the mentions Feishu marked are mentions

    def person(open_id: str) -> str:
        if open_id in ("all", "") or open_id == bot:
            return "@all" if open_id == "all" else ""
        return f"<@{open_id}>"

    text = re.sub("\x00([^\x00]*)\x00", lambda m: person(m.group(1)), text)
    for key in sorted(mentions, key=len, reverse=True):  # @_user_10 before @_user_1
        replacement = "@all" if key == "@_all" else person(mentions[key])
        text = text.replace(key, replacement)
    text = text.replace("@_all", "@all")
    lines = (re.sub(r"[ \t]{2,}", " ", line).strip() for line in text.split("\n"))
    return "\n".join(lines).strip()


__all__ = [
    "PLATFORM",
    "TEXT_KINDS",
    "Parsed",
    "body_text",
    "field",
    "language",
    "parse_message",
    "text_field",
]
