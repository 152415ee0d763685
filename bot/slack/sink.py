"""The Slack `ReplySink`: one reply, posted in the thread of the message it answers.

Today the sink buffers the Markdown stream and posts it once the turn is over,
converted to mrkdwn and split within Slack's limits (`chat.postMessage`, waiting out
rate limits); a plan follows as a message of its own with the "Save trip" button
(best effort: the answer is already posted). Slack's chat streaming can replace
`append`/`finish` later without touching the core.

What runs on Bolt's listener thread (`status`, `busy`) only queues work on the notice
pool: the progress reaction and the "busy" reply use a few threads of their own and a
short client timeout, so a slow Slack delays only the hourglass, never an
acknowledgement. `close` takes the reaction away once the reply is posted.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from slack_sdk.web import WebClient

from bot.conversation.incoming import IncomingMessage
from bot.conversation.reply import PlanPart, ReplyPart
from bot.slack.api import POST_PATIENCE, post, slack_error
from bot.slack.mrkdwn import split_message, to_mrkdwn
from bot.slack.progress import ProgressReaction
from bot.slack.views.trip import plan_message

log = logging.getLogger(__name__)

BUSY_PATIENCE = 10.0  # seconds of Retry-After a "busy" reply may wait out in total

T = TypeVar("T")


class SlackReplySink:
    """Replies to one Slack message (see the module docstring)."""

    def __init__(
        self,
        *,
        client: WebClient,
        msg: IncomingMessage,
        notices: ThreadPoolExecutor,
        progress: ProgressReaction,
    ) -> None:
        self.client = client
        self.channel = msg.conversation
        self.thread_ts = msg.thread
        self.ts = msg.message_id
        self.user = msg.user
        self._notices = notices
        self._progress = progress
        self._reaction: Future[bool] | None = None
        self._buffer: list[str] = []

    # -- on Bolt's listener thread: queue, never wait -----------------------------------------

    def status(self, text: str) -> None:
        """Show the progress reaction (the text is for channels that can show one)."""
        if self._progress.name:
            self._reaction = self._notify(self._progress.add, self.client, self.channel, self.ts)

    def busy(self, text: str) -> None:
        self.close()
        self._notify(self._post_busy, text)

    # -- on the agent pool ----------------------------------------------------------------

    def append(self, markdown: str) -> None:
        self._buffer.append(markdown)

    def finish(self, parts: Sequence[ReplyPart] = ()) -> None:
        self._post("".join(self._buffer))
        self._buffer.clear()
        for part in parts:
            if isinstance(part, PlanPart):
                self._post_blocks(*plan_message(part))

    def fail(self, text: str) -> None:
        self._post(text)

    def refuse(self, text: str) -> None:
        """Only the writer sees it (an ephemeral message in the thread, if any)."""
        try:
            self.client.chat_postEphemeral(
                channel=self.channel,
                user=self.user,
                text=to_mrkdwn(text),
                thread_ts=self.thread_ts if self.thread_ts != self.ts else None,
            )
        except Exception as exc:
            log.warning("could not post an ephemeral reply (%s)", type(exc).__name__)

    def close(self) -> None:
        """Drop a reaction not yet added, else take it away (see `ProgressReaction`)."""
        reaction, self._reaction = self._reaction, None
        self._progress.withdraw(self.client, self.channel, self.ts, reaction)

    # -- Slack calls ----------------------------------------------------------------------

    def _post(self, markdown: str, *, patience: float = POST_PATIENCE) -> None:
        for part in split_message(to_mrkdwn(markdown)):
            post(
                self.client,
                channel=self.channel,
                thread_ts=self.thread_ts,
                text=part,
                patience=patience,
            )

    def _post_busy(self, text: str) -> None:
        """Tell the writer to come back later (notice pool; a short wait for rate limits)."""
        try:
            self._post(text, patience=BUSY_PATIENCE)
        except Exception as exc:
            log.warning("could not post the busy reply (%s)", slack_error(exc))

    def _post_blocks(self, text: str, blocks: list[dict[str, Any]]) -> None:
        """Best effort: the answer is already posted; a lost button is only logged."""
        try:
            self.client.chat_postMessage(
                channel=self.channel, thread_ts=self.thread_ts, text=text, blocks=blocks
            )
        except Exception as exc:
            log.warning("could not post the save-trip message (%s)", type(exc).__name__)

    def _notify(self, fn: Callable[..., T], *args: Any) -> Future[T] | None:
        """Run a Slack side effect on the notice pool; None once the pool is shut down."""
        try:
            return self._notices.submit(fn, *args)
        except RuntimeError:
            log.info("not sending a notice in %s: shutting down", self.channel)
            return None


__all__ = ["BUSY_PATIENCE", "SlackReplySink"]
