"""Replies posted in a Slack thread, and what the writer is told when Slack refuses one.

Every post goes through the Web API's one rate-limit policy (`bot.slack.api.patiently`:
`Retry-After` waited out within a patience) and ends as an outcome: taken (delivered, or
unconfirmed: Slack may have posted it, so it is never posted again) or refused. A refused
answer or kind reply is counted (`slack_reply_undelivered_total{reason}`) and the writer is
told why in their language, where only they see it (`Answers.tell`: ephemeral in the
thread, else a direct message, else the log says what an admin must fix); a refused plan
message says how to get its *Save trip* button back. A refused "busy" reply is itself a
notice: logged.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.flows import undelivered
from bot.flows.commands import PREFS as COMMAND
from bot.flows.undelivered import notice_key
from bot.messages import t
from bot.slack.answers import Answers, taken, why
from bot.slack.answers import post as post_answer
from bot.slack.api import REPLY_PATIENCE, Tried
from bot.slack.markdown import split_message, to_mrkdwn

if TYPE_CHECKING:
    from slack_sdk.web import WebClient

    from bot.conversation.incoming import IncomingMessage
    from bot.metrics import Metrics

log = logging.getLogger(__name__)

BUSY_PATIENCE = 10.0  # seconds of Retry-After a "busy" reply may wait out in total
SECTION_LIMIT = 3000  # characters of a section block's text (the part with the buttons)


class ThreadPosts:
    """The posts of one turn in its thread (see the module docstring)."""

    def __init__(
        self,
        *,
        client: WebClient,
        msg: IncomingMessage,
        answers: Answers,
        metrics: Metrics,
        on_posted: Callable[[], None],
    ) -> None:
        self.client = client
        self.msg = msg
        self.channel = msg.conversation
        self.thread_ts = msg.thread
        self.ts = msg.message_id
        self._answers = answers
        self._metrics = metrics
        self._on_posted = on_posted
        self.refused = False  # Slack refused a reply of this turn; the writer was told

    def post(self, markdown: str, *, patience: float = REPLY_PATIENCE) -> Tried | None:
        """`markdown` in the thread, split within Slack's limits (rate limits waited out
        within `patience`); the try Slack refused, if any (the parts after it are not
        posted: Slack would refuse them alike)."""
        for part in split_message(to_mrkdwn(markdown)):
            tried = self.part(part, patience=patience)
            if not taken(tried):
                return tried
        return None

    def answer(self, markdown: str, blocks: list[dict[str, Any]]) -> None:
        """The answer posted at once: its last part carries `blocks` under its text. When
        Slack refuses a part, the writer is told (`lost`)."""
        parts = split_message(to_mrkdwn(markdown), limit=SECTION_LIMIT)
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
            section = {"type": "section", "text": {"type": "mrkdwn", "text": part}}
            tried = self.part(part, blocks=[section, *blocks] if last else None)
            if not taken(tried):
                self.lost(tried)
                return

    def part(
        self,
        text: str,
        *,
        blocks: list[dict[str, Any]] | None = None,
        patience: float = REPLY_PATIENCE,
    ) -> Tried:
        """One message in the thread; one Slack may have posted is never posted again."""
        extra: dict[str, Any] = {"blocks": blocks} if blocks else {}
        tried = post_answer(
            self.client,
            self.channel,
            text,
            patience=patience,
            thread_ts=self.thread_ts,
            unfurl_links=False,
            **extra,
        )
        if taken(tried):
            self._on_posted()
        return tried

    def say(self, markdown: str) -> None:
        """A kind reply (`fail`, `stopped`); when Slack refuses it, the writer is told."""
        refused = self.post(markdown)
        if refused is not None:
            self.lost(refused)

    def lost(self, tried: Tried) -> None:
        """Slack refused a reply after the waits: counted (`slack_reply_undelivered_total`)
        and the writer told why, in their language, where only they see it (ephemeral in
        the thread, else a DM, else the log says why not: `Answers.tell`). Nothing more is
        posted in this turn (a plan under a lost answer would be a second notice)."""
        reason = why(tried)
        undelivered.count(self._metrics, "slack", reason, "reply")
        log.warning("could not post a reply in %s (%s: %s)", self.channel, reason, tried.error)
        self.refused = True
        msg = self.msg
        note = t(notice_key("slack", reason, "reply"), msg.lang, code=tried.error)
        thread = self.thread_ts if self.thread_ts != self.ts else None
        self._answers.tell(msg.user, note, lang=msg.lang, channel=self.channel, thread_ts=thread)

    def busy(self, text: str) -> None:
        """Tell the writer to come back later (notice pool; a short wait for rate limits).
        It is itself a notice: when Slack refuses it, the log says so."""
        refused = self.post(text, patience=BUSY_PATIENCE)
        if refused is not None:
            log.warning("could not post the busy reply (%s)", refused.error)

    def plan(self, text: str, blocks: list[dict[str, Any]], *, typed: str = "") -> str:
        """The plan's message, rate limits waited out. When Slack refuses it and it had
        buttons (*Save trip*), the writer is told how to save the trip otherwise: ephemeral
        in the thread, else a DM, else why not (`Answers.tell`): the command to send
        (`typed`), else to ask for the plan again. One Slack may have posted is not
        posted again. The message's ts, when Slack posted it and said so; else ""."""
        tried = self.part(text, blocks=blocks)
        if taken(tried):
            return tried.ts
        log.warning("could not post the save-trip message (%s)", tried.error)
        if any(block.get("type") == "actions" for block in blocks):
            msg = self.msg
            note = (
                t(
                    "slack_save_button_lost_typed",
                    msg.lang,
                    command=f"`{typed}`",
                    slash=f"`{COMMAND} {typed}`",
                )
                if typed
                else t("slack_save_button_lost", msg.lang)
            )
            self._answers.tell(
                msg.user, note, lang=msg.lang, channel=self.channel, thread_ts=self.thread_ts
            )
        return ""


__all__ = ["BUSY_PATIENCE", "SECTION_LIMIT", "ThreadPosts"]
