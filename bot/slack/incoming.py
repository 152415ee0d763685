"""Slack events as the core's `IncomingMessage`: DMs, @mentions and thread follow-ups.

`parse_event` keeps what a person wrote to the bot and drops everything else: other
bots (and this one), edits, deletions, joins and other subtypes, and channel messages
that are neither mentions nor replies in a thread (whether the bot takes part in that
thread is the conversation's question: it needs Redis). Mentions stay in Slack's markup
`<@U123>` (`PLATFORM.markup`, the angle markup of `bot.chat.markup`); the bot's own
mention is removed and special mentions (`<!channel>`) become plain text
(`bot.slack.markdown.clean_text`).

`PLATFORM` is Slack as the core sees it: its keys carry no prefix (namespace
`TEAM:USER`), as they did before there was a second platform, so memory kept then stays
reachable.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.chat.markup import ANGLE
from bot.conversation.incoming import IncomingMessage, Kind
from bot.messages import lang_of
from bot.platform import Platform
from bot.slack.markdown import clean_text

PLATFORM = Platform(
    name="slack",
    prefix="",
    shape=r"[TE][A-Z0-9]{1,30}:[UW][A-Z0-9]{1,30}",
    example="T024BE7LD:U01ABC (Slack: TEAM:USER)",
    markup=ANGLE,
    place={"en": "a company Slack workspace", "zh": "公司 Slack 工作区里"},
    commands={
        "en": "`/travel-prefs` (`show`, `forget`, `link`) and the bot's Home tab in Slack",
        "zh": "Slack 里的 `/travel-prefs`（`show`、`forget`、`link`）和机器人的主页",
    },
)

# Message subtypes that are still a person writing; every other subtype (edits,
# deletions, joins, bot messages, channel topic changes, ...) is not.
PERSON_SUBTYPES = frozenset({None, "file_share", "thread_broadcast"})


def parse_event(
    body: Mapping[str, Any], event: Mapping[str, Any], *, bot_user_id: str | None
) -> IncomingMessage | None:
    """The message in an `app_mention` or `message` event, or None when it is not for us."""
    event_type = event.get("type")
    if event_type not in ("app_mention", "message"):
        return None
    if event.get("bot_id") or event.get("bot_profile") or event.get("hidden"):
        return None
    if event.get("subtype") not in PERSON_SUBTYPES:
        return None
    user, channel, ts = event.get("user"), event.get("channel"), event.get("ts")
    if not (isinstance(user, str) and isinstance(channel, str) and isinstance(ts, str)):
        return None
    if bot_user_id and user == bot_user_id:
        return None
    team_id = body.get("team_id") or event.get("team") or ""
    if not isinstance(team_id, str) or not team_id:
        return None
    thread_ts = event.get("thread_ts")
    thread_ts = thread_ts if isinstance(thread_ts, str) and thread_ts else ts
    kind: Kind
    if event_type == "app_mention":
        kind = "mention"
    elif event.get("channel_type") == "im":
        kind = "dm"
    elif thread_ts != ts:
        kind = "thread"
    else:
        return None  # a top-level channel message without a mention is not for us
    raw_text = event.get("text")
    text = clean_text(raw_text if isinstance(raw_text, str) else "", bot_user_id)
    event_id = body.get("event_id")
    return IncomingMessage(
        platform=PLATFORM,
        tenant=team_id,
        user=user,
        conversation=channel,
        thread=thread_ts,
        message_id=ts,
        text=text,
        kind=kind,
        lang=lang_of(text),
        delivery_id=event_id if isinstance(event_id, str) else None,
        bot_user=bot_user_id,
    )


def bot_user_id(body: Mapping[str, Any], context: Any) -> str | None:
    """The bot's own user id: from Bolt's context, else from the event's authorizations."""
    found = getattr(context, "bot_user_id", None)
    if isinstance(found, str) and found:
        return found
    authorizations = body.get("authorizations")
    if isinstance(authorizations, list):
        for authorization in authorizations:
            if isinstance(authorization, dict) and authorization.get("is_bot"):
                user = authorization.get("user_id")
                if isinstance(user, str) and user:
                    return user
    return None


__all__ = ["PERSON_SUBTYPES", "PLATFORM", "bot_user_id", "parse_event"]
