"""The earlier messages of a Slack thread, for a first @mention partway through it.

When someone mentions the bot under a colleague's message ("@bot plan this for me"),
the thread has no turns in `ThreadHistory` yet, so the model would miss what the thread
is about. `earlier_turns` reads the thread once with `conversations.replies` and turns it
into history: people's messages as user turns (tagged with who wrote them), the bot's
own messages as assistant turns, other bots and non-message events left out. The
conversation then saves the turns in `ThreadHistory`, so follow-ups read Redis and never
call Slack again.

Any failure (rate limit, missing scope, network) means no earlier context, never a
failed turn; logs name the error, never the text of a message.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web import WebClient

from bot.conversation.threads import Turn
from bot.slack.api import slack_error
from bot.slack.incoming import PERSON_SUBTYPES
from bot.slack.markdown import clean_text

log = logging.getLogger(__name__)

# The bot's own messages: plain ones, and those posted as `bot_message`.
_OWN_SUBTYPES = frozenset({None, "bot_message"})


def earlier_turns(
    client: WebClient,
    *,
    channel: str,
    thread_ts: str,
    before_ts: str,
    bot_user_id: str | None,
    max_turns: int,
    max_chars: int,
) -> list[Turn]:
    """The thread's messages before `before_ts` as turns, oldest first ([] on any failure).

    One `conversations.replies` call; Slack answers with the thread's opening messages,
    so in a long thread the model sees how it started. At most `max_turns` turns (the
    opening message and the latest ones), each cut to `max_chars`.
    """
    if max_turns <= 0:
        return []
    try:
        response = client.conversations_replies(channel=channel, ts=thread_ts, limit=max_turns)
        messages = response.get("messages")
    except SlackApiError as exc:
        log.info("no earlier thread context: conversations.replies said %s", slack_error(exc))
        return []
    except Exception as exc:
        log.info("no earlier thread context: conversations.replies failed (%s)", type(exc).__name__)
        return []
    if not isinstance(messages, list):
        return []
    turns = list(_turns(messages, before_ts=before_ts, bot_user_id=bot_user_id))
    if len(turns) > max_turns:
        turns = turns[:1] + turns[len(turns) - max_turns + 1 :]
    return [Turn(turn.role, turn.text[:max_chars], turn.user) for turn in turns]


def _turns(messages: Iterable[Any], *, before_ts: str, bot_user_id: str | None) -> Iterable[Turn]:
    before = _ts(before_ts)
    for message in messages:
        if not isinstance(message, Mapping) or message.get("hidden"):
            continue
        ts, user, text = message.get("ts"), message.get("user"), message.get("text")
        at = _ts(ts)
        if before is None or at is None or at >= before:
            continue  # the message being answered, or written after it
        if not isinstance(text, str) or not isinstance(user, str):
            continue
        text = clean_text(text, bot_user_id)
        if not text:
            continue
        subtype = message.get("subtype")
        if bot_user_id and user == bot_user_id:
            if subtype in _OWN_SUBTYPES:
                yield Turn("assistant", text)
        elif not (message.get("bot_id") or message.get("bot_profile")) and (
            subtype in PERSON_SUBTYPES
        ):
            yield Turn("user", text, user)


def _ts(value: object) -> Decimal | None:
    if not isinstance(value, str):
        return None
    try:
        stamp = Decimal(value)
    except InvalidOperation:
        return None
    return stamp if stamp.is_finite() else None


__all__ = ["earlier_turns"]
