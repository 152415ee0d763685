"""The Feishu `ReplySink`: one reply, in the thread of the message it answers.

- While the agent runs: a reaction on the message (`FEISHU_PROGRESS_REACTION`, "OnIt" by
  default), taken away once the answer is there; with the reaction set empty, a card
  saying "working on it" instead, which the answer then replaces.
- The answer is card Markdown (`bot.feishu.markdown`), replied with `reply_in_thread`;
  in a chat that refuses thread replies, as a plain reply, else as a new message in the
  chat (`bot.feishu.reply_modes`): the answer, the streaming card and the notices alike.
  The core may hand it over in one `append` (today's core) or in many pieces (a core
  that streams tokens): from the second piece on, the answer streams into a CardKit card
  (`bot.feishu.streaming`); a one-piece answer is a single reply. A long answer is
  split over several cards. The final text always arrives: shown in the card, or (when
  the card cannot show it) the whole answer replied again.
- A plan follows as a card of its own with its scores and *Save trip*, drawn by the
  channel's widgets (`bot.feishu.widgets`).
- A refusal is for the writer only: in a group it goes to them in a direct message.
- The work (`step`, `work`: `bot.conversation.work`): a folded collapsible panel above
  the answer in its card, with each step as it starts and ends (the card opens at the
  first step, so the person sees them while the agent works) and, with the answer, the
  preferences it used, each with when it was said.

Every reply has a uuid derived from the message and its place in the answer, so Feishu
keeps one message however often a reply is retried. What runs on the listener thread
(`status`, `busy`) only queues work on the notice pool.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from bot.conversation.incoming import IncomingMessage
from bot.conversation.reply import PlanPart, ReplyPart
from bot.conversation.work import Step, Work
from bot.feishu.api import FeishuAPI, FeishuError
from bot.feishu.cards import Work as Panel
from bot.feishu.cards import answer_card
from bot.feishu.markdown import split, to_card_markdown
from bot.feishu.streaming import CardStream
from bot.messages import t

log = logging.getLogger(__name__)

BUSY_PATIENCE = 10.0  # seconds of rate limits a "busy" reply may wait out
OPEN_WAIT = 15.0  # longest wait for the "working on it" card before answering without it

T = TypeVar("T")


def reply_uuid(message_id: str, part: str) -> str:
    """The uuid of one reply to `message_id` (Feishu allows 50 characters)."""
    return hashlib.sha1(f"{message_id}:{part}".encode()).hexdigest()[:40]


class FeishuReplySink:
    """Replies to one Feishu message (see the module docstring)."""

    def __init__(
        self,
        *,
        api: FeishuAPI,
        msg: IncomingMessage,
        chat_type: str,
        notices: ThreadPoolExecutor,
        reaction: str = "OnIt",
        stream_interval: float = 0.3,
        plan: Callable[[PlanPart], dict[str, Any]] | None = None,
    ) -> None:
        self.api = api
        self.msg = msg
        self.chat_type = chat_type
        self._notices = notices
        self._emoji = reaction
        self._plan = plan
        self._text = ""
        self._pieces = 0
        self._reaction: Future[str] | None = None
        self._opening: Future[bool] | None = None
        self._steps: dict[str, Step] = {}  # the work's steps so far, by id, in order
        self._work: Work | None = None
        self._stream = CardStream(
            api,
            reply_to=msg.message_id,
            uuid=reply_uuid(msg.message_id, "stream"),
            placeholder="…",
            chat_id=msg.conversation,
            interval=stream_interval,
        )

    # -- on the listener thread: queue, never wait --------------------------------------

    def status(self, text: str) -> None:
        """A reaction on the message; without one, a "working on it" card."""
        if self._emoji:
            self._reaction = self._notify(self._add_reaction)
        else:
            self._stream.placeholder = text
            self._opening = self._notify(self._stream.open)

    def busy(self, text: str) -> None:
        self.close()
        self._notify(self._reply_quietly, text, "busy")

    # -- on the agent pool --------------------------------------------------------------

    def step(self, step: Step) -> None:
        """A step started or ended: shown in the card's work panel (the card opens now)."""
        self._steps[step.id] = step
        panel = self._panel()
        if self._stream.opened or self._waiting_card():
            self._stream.show_work(panel[1])
        else:
            self._stream.open(self._text, work=panel)

    def work(self, work: Work) -> None:
        self._work = work

    def append(self, markdown: str) -> None:
        self._text += markdown
        self._pieces += 1
        if self._pieces < 2 and not self._waiting_card():
            return  # one piece may be the whole answer: it is replied at `finish`
        if self._stream.opened or self._stream.open(self._text):
            self._stream.update(self._text)

    def finish(self, parts: Sequence[ReplyPart] = ()) -> None:
        chunks = split(self._text) or [""]
        rest = chunks
        # The card ends showing the answer's first part; one that cannot (its final
        # update and its replacement failed) leaves the whole answer to the replies below.
        card = self._waiting_card() or self._stream.opened
        work = self._panel() if self._work is not None or self._steps else None
        if card and self._stream.close(chunks[0], work):
            rest, work = chunks[1:], None
        for index, chunk in enumerate(rest):
            if chunk:
                self._reply(answer_card(chunk, work if index == 0 else None), f"answer-{index}")
        for part in parts:
            if isinstance(part, PlanPart) and self._plan is not None:
                self._reply_best_effort(self._plan(part), "plan")

    def fail(self, text: str) -> None:
        if self._waiting_card() or self._stream.opened:
            shown = f"{self._text.strip()}\n\n{text}" if self._text.strip() else text
            if self._stream.close(shown):
                return
        self._reply(answer_card(text), "fail")

    def refuse(self, text: str) -> None:
        """Only the writer sees it: in a group, a direct message; else in the thread."""
        if self.chat_type != "p2p":
            try:
                self.api.send(
                    self.msg.user,
                    id_type="open_id",
                    msg_type="interactive",
                    content=answer_card(text),
                    uuid=reply_uuid(self.msg.message_id, "refuse"),
                )
                self._close_placeholder()
                return
            except FeishuError as exc:
                log.info("could not message the writer directly (%s)", exc.code)
        if self._waiting_card() and self._stream.close(text):
            return
        self._reply_best_effort(answer_card(text), "refuse")

    def close(self) -> None:
        """Take the reaction away, once it is there (a pending one is dropped)."""
        reaction, self._reaction = self._reaction, None
        if reaction is None or reaction.cancel():
            return
        reaction.add_done_callback(self._undo_reaction)

    def _panel(self) -> Panel:
        """The work panel: its title, and each step, then the preferences used."""
        work = self._work
        lang = work.lang if work is not None else self.msg.lang
        steps = work.steps if work is not None else tuple(self._steps.values())
        marks = {"in_progress": "⏳", "complete": "✅", "error": "⚠️"}
        lines = [f"{marks[step.status]} {step.title}" for step in steps]
        if work is not None and work.used:
            lines += ["", f"**{work.used_title}**"]
            lines += [
                f"- {u.text}（{u.when}）" if lang == "zh" else f"- {u.text} ({u.when})"
                for u in work.used
            ]
        return t("work_title", lang), to_card_markdown("\n".join(lines))

    # -- Feishu calls -------------------------------------------------------------------

    def _waiting_card(self) -> bool:
        """Whether a "working on it" card is (or will be) there to write the answer into."""
        opening = self._opening
        if opening is None:
            return False
        try:
            return bool(opening.result(timeout=OPEN_WAIT))
        except Exception:  # it failed, or Feishu is too slow to wait for
            return False

    def _close_placeholder(self) -> None:
        if self._waiting_card():
            self._stream.close(t("replied_privately", self.msg.lang))

    def _reply(self, card: dict[str, Any], part: str, *, patience: float = 30.0) -> None:
        self.api.reply(
            self.msg.message_id,
            msg_type="interactive",
            content=card,
            chat_id=self.msg.conversation,
            uuid=reply_uuid(self.msg.message_id, part),
            patience=patience,
        )

    def _reply_best_effort(self, card: dict[str, Any], part: str) -> None:
        try:
            self._reply(card, part)
        except FeishuError as exc:
            log.warning("could not post the %s card (%s)", part, exc.code)

    def _reply_quietly(self, text: str, part: str) -> None:
        try:
            self._reply(answer_card(text), part, patience=BUSY_PATIENCE)
        except FeishuError as exc:
            log.warning("could not post the %s reply (%s)", part, exc.code)

    def _add_reaction(self) -> str:
        """Best effort and quick (notice pool): a failure only costs the reaction."""
        try:
            return self.api.react(self.msg.message_id, self._emoji)
        except FeishuError as exc:
            log.info("could not add the progress reaction (%s)", exc.code)
            return ""

    def _undo_reaction(self, done: Future[str]) -> None:
        if done.cancelled() or done.exception() is not None or not done.result():
            return
        try:
            self.api.unreact(self.msg.message_id, done.result())
        except FeishuError as exc:
            log.info("could not remove the progress reaction (%s)", exc.code)

    def _notify(self, fn: Callable[..., T], *args: Any) -> Future[T] | None:
        """Run a Feishu side effect on the notice pool; None once it is shut down."""
        try:
            return self._notices.submit(fn, *args)
        except RuntimeError:
            log.info("not sending a notice in %s: shutting down", self.msg.conversation)
            return None


__all__ = ["BUSY_PATIENCE", "FeishuReplySink", "reply_uuid"]
