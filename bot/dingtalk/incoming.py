"""DingTalk robot messages as the core's `IncomingMessage`, and where to answer them.

Stream mode and HTTP mode deliver the same JSON (`msgId`, `conversationType`,
`conversationId`, `senderStaffId`, `senderCorpId`, `text.content`, `atUsers`,
`sessionWebhook`, ...). `parse_message` keeps what a person wrote to the robot:

- one-to-one chats (`conversationType` "1") always, as kind "dm"; group chats ("2")
  only when the robot is @mentioned (`isInAtList`), as kind "mention"; the robot's own
  messages never;
- the text (`text`, `richText`'s text parts, or a voice message's `recognition`), with
  each other person's `@Name` written `<@STAFF_ID>` from `atUsers` (DingTalk has already
  removed the robot's own mention; an `@` it left is dropped);
- namespace `dingtalk:{senderCorpId}:{senderStaffId}` (through `IncomingMessage`); each
  person has a thread of their own in a group, so two colleagues' requests never mix;
- the language of the text, or `DEFAULT_LANGUAGE` when it has no words to tell by.

A sender without a staff id (an external contact) gets `msg = None`: such a message is
answered politely and nothing is remembered. `message_problem` says why a body cannot be
a robot message at all (checked before anything else uses it), naming fields, never
their content.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.chat.markup import ANGLE
from bot.conversation.incoming import IncomingMessage, Kind
from bot.dingtalk.delivery import GROUP, ONE_TO_ONE, Destination
from bot.platform import Platform
from memory.lang import Lang, detect_lang

PLATFORM = Platform(
    name="dingtalk",
    prefix="dingtalk",
    shape=r"[^\s:]{1,128}:[^\s:]{1,128}",
    example="dingtalk:CORP:STAFF_ID",
    markup=ANGLE,  # mentions are parsed into `<@STAFF_ID>` and sent back as `@STAFF_ID`
    place={"en": "a company's DingTalk organisation", "zh": "公司钉钉组织里"},
    commands={
        "en": "`/travel-prefs` and `/travel-prefs forget` in DingTalk",
        "zh": "钉钉里的“我的偏好”和“删除我的偏好”",
    },
)

# `@Name` as DingTalk writes a mention in the text (not an e-mail address).
_AT_NAME = re.compile(r"(?<![\w.@])@([^\s@,，。:：;；!！?？、()（）]{1,64})")
_WORD = re.compile(r"[A-Za-z]{2,}")
_COMMAND_WORD = re.compile(r"/[\w-]+")

_STRING_FIELDS = (
    "msgId",
    "conversationId",
    "senderId",
    "senderStaffId",
    "senderCorpId",
    "senderNick",
    "chatbotUserId",
    "chatbotCorpId",
    "robotCode",
    "msgtype",
    "sessionWebhook",
)


@dataclass(frozen=True, slots=True)
class RobotMessage:
    """A message for the robot: the core's view of it, and where its replies go."""

    msg: IncomingMessage | None  # None: an external contact (no staff id)
    destination: Destination
    message_id: str
    corp_id: str
    text: str
    lang: Lang
    own_corp: bool = True  # the writer belongs to the robot's own organisation

    @property
    def key(self) -> str:
        """The message, unique across corps and chats (for answering it once)."""
        return PLATFORM.key(self.corp_id, self.destination.conversation_id, self.message_id)


def message_problem(data: object) -> str | None:
    """Why `data` cannot be a robot message, or None when it can."""
    if not isinstance(data, Mapping) or not data:
        return "not a JSON object"
    for name in _STRING_FIELDS:
        if data.get(name) is not None and not isinstance(data[name], str):
            return f"{name} is not a string"
    if not data.get("msgId") or not data.get("conversationId"):
        return "no msgId or conversationId"
    if str(data.get("conversationType")) not in (ONE_TO_ONE, GROUP):
        return "conversationType is not 1 or 2"
    webhook = data.get("sessionWebhook")
    if webhook and not webhook.startswith(("https://", "http://")):
        return "sessionWebhook is not an http(s) URL"
    expires = data.get("sessionWebhookExpiredTime")
    if expires is not None and not _is_number(expires):
        return "sessionWebhookExpiredTime is not a number"
    at_users = data.get("atUsers")
    if at_users is not None and not (
        isinstance(at_users, list) and all(isinstance(u, Mapping) for u in at_users)
    ):
        return "atUsers is not a list of objects"
    for name in ("text", "content"):
        if data.get(name) is not None and not isinstance(data[name], Mapping):
            return f"{name} is not an object"
    if data.get("msgtype") == "text" and not isinstance(
        (data.get("text") or {}).get("content"), str
    ):
        return "text without content"
    return None


def parse_message(data: Mapping[str, Any], *, default_lang: Lang = "en") -> RobotMessage | None:
    """The message for the robot in `data` (see `message_problem`), or None when it is not
    one for the robot: its own message, or a group message that does not mention it."""
    conversation_type = str(data["conversationType"])
    bot = data.get("chatbotUserId") or ""
    if bot and data.get("senderId") == bot:
        return None
    at_users: Sequence[Mapping[str, Any]] = data.get("atUsers") or []
    people = [u for u in at_users if not bot or u.get("dingtalkId") != bot]
    robot_mentioned = data.get("isInAtList") is True or len(people) < len(at_users)
    if conversation_type == GROUP and not robot_mentioned:
        return None
    staff_id = str(data.get("senderStaffId") or "")
    corp_id = str(data.get("senderCorpId") or data.get("chatbotCorpId") or "")
    conversation = str(data["conversationId"])
    text = _with_mentions(_text_of(data), people)
    lang = _lang_of(text, default_lang)
    expires = data.get("sessionWebhookExpiredTime")
    destination = Destination(
        conversation_type=conversation_type,
        conversation_id=conversation,
        staff_id=staff_id,
        webhook=str(data.get("sessionWebhook") or ""),
        webhook_expires=float(str(expires)) / 1000 if _is_number(expires) else 0.0,
    )
    msg = None
    if staff_id and corp_id:
        kind: Kind = "mention" if conversation_type == GROUP else "dm"
        msg = IncomingMessage(
            platform=PLATFORM,
            tenant=corp_id,
            user=staff_id,
            conversation=conversation,
            thread=staff_id,  # each person's own thread of the chat
            message_id=str(data["msgId"]),
            text=text,
            kind=kind,
            lang=lang,
            bot_user=bot or None,
        )
    return RobotMessage(
        msg=msg,
        destination=destination,
        message_id=str(data["msgId"]),
        corp_id=corp_id,
        text=text,
        lang=lang,
        own_corp=not data.get("chatbotCorpId") or corp_id == data.get("chatbotCorpId"),
    )


def _text_of(data: Mapping[str, Any]) -> str:
    kind = data.get("msgtype")
    if kind == "text":
        return str((data.get("text") or {}).get("content") or "").strip()
    content = data.get("content") or {}
    if kind == "richText":
        parts = content.get("richText")
        texts = [
            str(p["text"])
            for p in (parts if isinstance(parts, list) else [])
            if isinstance(p, Mapping) and isinstance(p.get("text"), str)
        ]
        return "".join(texts).strip()
    if kind == "audio":  # DingTalk's own speech recognition of a voice message
        recognition = content.get("recognition")
        return recognition.strip() if isinstance(recognition, str) else ""
    return ""


def _with_mentions(text: str, people: Sequence[Mapping[str, Any]]) -> str:
    """Each `@Name` of a mentioned person as `<@STAFF_ID>`, in order.

    `atUsers` names staff ids, not display names, in the order of the text. DingTalk
    removes the robot's own mention; a client that leaves it in leaves it first, so
    leading names beyond the number of people are dropped. Names left over at the end
    (an `@everyone` typed as text) stay as they are.
    """
    if not people:
        return text
    names = list(_AT_NAME.finditer(text))
    leading, position = 0, 0
    for match in names:
        if text[position : match.start()].strip():
            break
        leading, position = leading + 1, match.end()
    drop = min(leading, max(0, len(names) - len(people)))
    out: list[str] = []
    last = 0
    for index, match in enumerate(names):
        out.append(text[last : match.start()])
        last = match.end()
        if index < drop:
            continue  # the robot's own mention, left in by the client
        person = index - drop
        staff_id = people[person].get("staffId") if person < len(people) else None
        out.append(f"<@{staff_id}>" if isinstance(staff_id, str) and staff_id else match.group(0))
    out.append(text[last:])
    return re.sub(r"[ \t]{2,}", " ", "".join(out)).strip()


def _lang_of(text: str, default: Lang) -> Lang:
    if detect_lang(text) == "zh":
        return "zh"
    words = _COMMAND_WORD.sub(" ", re.sub(r"<@[^>]*>", " ", text))
    return "en" if _WORD.search(words) else default


def _is_number(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return True
    return isinstance(value, str) and value.isdigit()


__all__ = ["PLATFORM", "RobotMessage", "message_problem", "parse_message"]
