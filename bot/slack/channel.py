"""Slack as the conversation core sees it, and what every Slack listener shares.

`SlackChannel` answers the core's questions during a turn (`bot.conversation.turn.Channel`):
the writer's time zone (`users.info`, cached with their locale in `bot.slack.people`),
the earlier messages of a thread the bot joins partway (`bot.slack.thread_context`) and
the Slack user group of travel admins. It also holds the Web API client and the people
cache the listeners use, and makes the reply sink of each message.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from slack_sdk.web import WebClient

from bot.conversation.incoming import IncomingMessage
from bot.conversation.threads import Turn
from bot.slack.admins import SlackUserGroup
from bot.slack.people import People
from bot.slack.progress import ProgressReaction
from bot.slack.sink import SlackReplySink
from bot.slack.thread_context import earlier_turns


class SlackChannel:
    """The Slack side of every turn and listener; see the module docstring."""

    def __init__(
        self,
        *,
        client: WebClient,
        people: People,
        admin_group: SlackUserGroup | None = None,
        progress: ProgressReaction | None = None,
    ) -> None:
        self.client = client
        self.people = people
        self.admin_group = admin_group
        self.progress = progress or ProgressReaction("")

    def timezone(self, msg: IncomingMessage) -> str:
        return self.people.get(self.client, msg.tenant, msg.user).tz

    def earlier_turns(self, msg: IncomingMessage, *, max_turns: int, max_chars: int) -> list[Turn]:
        return earlier_turns(
            self.client,
            channel=msg.conversation,
            thread_ts=msg.thread,
            before_ts=msg.message_id,
            bot_user_id=msg.bot_user,
            max_turns=max_turns,
            max_chars=max_chars,
        )

    def sink(self, msg: IncomingMessage, *, notices: ThreadPoolExecutor) -> SlackReplySink:
        """The reply to `msg`, posted in its thread."""
        return SlackReplySink(client=self.client, msg=msg, notices=notices, progress=self.progress)


__all__ = ["SlackChannel"]
