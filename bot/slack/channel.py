"""Slack as the conversation core sees it, and what every Slack listener shares.

`SlackChannel` answers the core's questions during a turn (`bot.conversation.turn.Channel`):
the writer's time zone (`users.info`, cached with their locale in `bot.slack.people`),
the earlier messages of a thread the bot joins partway (`bot.slack.thread_context`) and
the Slack user group of travel admins, and, in an assistant thread, the channel the
writer has open beside it (`viewing`, from `bot.slack.assistant`). It also holds the Web
API client and the people cache the listeners use, and makes the reply sink of each
message: streamed unless streaming is off, with the assistant thread's status instead of
the progress reaction in an assistant thread. An assistant thread is known from the
event itself (a reply in a direct message's thread: the manifest offers the assistant
view), never from a store.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from slack_sdk.web import WebClient

from bot.conversation.incoming import IncomingMessage
from bot.conversation.threads import Turn
from bot.slack.admins import SlackUserGroup
from bot.slack.assistant import AssistantThreads, ChannelNames
from bot.slack.people import People
from bot.slack.progress import ProgressReaction
from bot.slack.sink import SlackReplySink
from bot.slack.stream import StreamSwitch
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
        streaming: StreamSwitch | None = None,
        flush_seconds: float = 0.6,
        assistant: AssistantThreads | None = None,
    ) -> None:
        self.client = client
        self.people = people
        self.admin_group = admin_group
        self.progress = progress or ProgressReaction("")
        self.streaming = streaming or StreamSwitch(enabled=False)
        self.flush_seconds = flush_seconds
        self.assistant = assistant or AssistantThreads(client=None)
        self.names = ChannelNames()

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

    def viewing(self, msg: IncomingMessage) -> str | None:
        """The channel open beside an assistant thread, as `<#C123|name>`; else None."""
        if not self._maybe_assistant(msg):
            return None
        context = self.assistant.context(msg.tenant, msg.conversation, msg.thread) or {}
        channel = context.get("channel_id")
        return self.names.mention(self.client, channel) if channel else None

    def sink(self, msg: IncomingMessage, *, notices: ThreadPoolExecutor) -> SlackReplySink:
        """The reply to `msg`, in its thread."""
        return SlackReplySink(
            client=self.client,
            msg=msg,
            notices=notices,
            progress=self.progress,
            switch=self.streaming,
            flush_seconds=self.flush_seconds,
            assistant=self.assistant,
            in_assistant_thread=self._maybe_assistant(msg),
        )

    @staticmethod
    def _maybe_assistant(msg: IncomingMessage) -> bool:
        """A reply in a direct message's thread: an assistant thread, as the app offers
        the assistant view (Bolt reads such messages the same way)."""
        return msg.kind == "dm" and not msg.starts_thread


__all__ = ["SlackChannel"]
