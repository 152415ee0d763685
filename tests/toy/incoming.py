"""Toy's events as the core's messages: a message is JSON, `{"id", "team", "user", "chat",
"msg", "text", "dm", "thread"}`; a click is `{"id", "team", "user", "action", "value"}`,
with the `chat` and `thread` of the message it was on, and a form's answer in `reason`.

`PLATFORM` is Toy as the core sees it: its keys carry the prefix `toy`, a mention is
written `@user` (the core's plain markup), and the model hears where the person is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.conversation.incoming import IncomingMessage
from bot.flows.actions import Action, Request
from bot.messages import lang_of
from bot.platform import PlainMarkup, Platform

PLATFORM = Platform(
    name="toy",
    prefix="toy",
    shape=r"[a-z0-9]{1,32}:[a-z0-9]{1,32}",
    example="toy:TEAM:USER",
    markup=PlainMarkup(),
    place={"en": "a company's Toy chat", "zh": "公司的 Toy 聊天里"},
    commands={"en": "`/travel-prefs` in Toy", "zh": "Toy 里的 `/travel-prefs`"},
)


def parse_message(event: Mapping[str, Any]) -> IncomingMessage | None:
    """The message of `event`, or None when it is not one for the bot."""
    fields = [event.get(k) for k in ("team", "user", "chat", "msg")]
    text = event.get("text")
    if not all(isinstance(f, str) and f for f in fields) or not isinstance(text, str):
        return None
    team, user, chat, msg = (str(f) for f in fields)
    thread = event.get("thread") or msg
    return IncomingMessage(
        platform=PLATFORM,
        tenant=team,
        user=user,
        conversation=chat,
        thread=str(thread),
        message_id=msg,
        text=text.strip(),
        kind="dm" if event.get("dm") else "mention",
        lang=lang_of(text),
        delivery_id=str(event.get("id") or "") or None,
    )


def parse_click(event: Mapping[str, Any]) -> Request | None:
    """The action a click asks for, claimed once by its event id."""
    team, user, action = event.get("team"), event.get("user"), event.get("action")
    value = event.get("value")
    if not (isinstance(team, str) and isinstance(user, str) and isinstance(action, str)):
        return None
    data = dict(value) if isinstance(value, Mapping) else {}
    if isinstance(event.get("reason"), str):
        data["reason"] = event["reason"]
    event_id = str(event.get("id") or "")
    once = (f"bot:seen:click:{PLATFORM.key(event_id)}",) if event_id else ()
    where = {
        k: str(event[f])
        for k, f in (("conversation", "chat"), ("thread", "thread"))
        if event.get(f)
    }
    return Request(PLATFORM, team, user, Action(action, data), once=once, where=where)


__all__ = ["PLATFORM", "parse_click", "parse_message"]
