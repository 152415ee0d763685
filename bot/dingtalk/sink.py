"""The DingTalk `ReplySink`: one reply, in the chat of the message it answers.

Markdown arrives through `append`, once with the whole answer (today's core) or as many
deltas (a streaming core). With an AI card template configured (`bot.dingtalk.ai_card`)
the answer streams into an AI card as the model writes it: the card appears with its
first words and grows, paced like Slack's streams. Otherwise, or when the card cannot be
created or cannot show the final text, the sink posts the answer when the turn finishes,
in the Markdown DingTalk renders (`bot.dingtalk.markdown`), split within DingTalk's
limits, through the message's session webhook or, once that has expired or failed, the
OpenAPI (`bot.dingtalk.delivery`); an answer longer than a card holds goes on in such
messages. Either way the answer arrives once, whole. The model's reasoning
(`<think>…</think>`) is never shown. A plan follows as a card of its own, drawn by the
channel's widgets with its scores and a way to save it (best effort: the answer is
already there).

Progress: DingTalk robots cannot react to a message, so when a turn is still running
`DINGTALK_PROGRESS_SECONDS` after it was accepted the writer gets one short "Working on
it…" reply (`bot.dingtalk.timers` schedules it; the notice pool sends it). A quick turn
sends none, nor does one whose AI card is already showing the answer.

The work (`step`, `work`: `bot.conversation.work`): in the AI card, the steps show as
quoted lines while the agent works (the card appears with the first step), and the
answer ends with one quoted line saying which remembered preferences it used, with when
each was said; without a card, that line is quoted under the answer's Markdown.

`status` and `busy` run on the listener thread and only schedule or queue work. A
refusal (planning for a colleague without being a travel admin) reaches only the
writer: in a group it goes to them one-to-one (in the group only if that fails).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor

from bot.conversation.reply import PlanPart, ReplyPart
from bot.conversation.work import Step, Work
from bot.dingtalk.ai_card import CARD_TEXT_LIMIT, AICard, AICardTemplate
from bot.dingtalk.api import DingTalkError
from bot.dingtalk.delivery import Delivery, Reply
from bot.dingtalk.markdown import answer_markdown, split, without_reasoning
from bot.dingtalk.timers import Timer, Timers
from bot.dingtalk.widgets import text_reply
from bot.messages import t
from bot.metrics import Metrics
from memory.lang import Lang

log = logging.getLogger(__name__)


class DingTalkReplySink:
    """Replies to one DingTalk message (see the module docstring)."""

    def __init__(
        self,
        *,
        delivery: Delivery,
        notices: ThreadPoolExecutor,
        timers: Timers,
        metrics: Metrics,
        progress_after: float = 0.0,
        plan: Callable[[PlanPart], Reply] | None = None,
        card: AICardTemplate | None = None,
        flush_seconds: float = 0.6,
        lang: Lang = "en",
    ) -> None:
        self.delivery = delivery
        self._notices = notices
        self._timers = timers
        self._metrics = metrics
        self._progress_after = progress_after
        self._plan = plan
        self._lang = lang
        self._buffer: list[str] = []
        self._lock = threading.Lock()
        self._done = False
        self._timer: Timer | None = None
        self._steps: dict[str, Step] = {}  # the work's steps so far, by id, in order
        self._work: Work | None = None
        self.card = (
            AICard(delivery.api, delivery.destination, card, flush_seconds=flush_seconds)
            if card is not None and card.template_id
            else None
        )

    # -- on the listener thread: schedule or queue, never wait --------------------------------

    def status(self, text: str) -> None:
        if self._progress_after > 0:
            self._timer = self._timers.call_later(self._progress_after, self._progress, text)

    def busy(self, text: str) -> None:
        self._stop_progress()
        self._notify(self._send_quietly, text_reply(text), "busy")

    # -- on the agent pool ----------------------------------------------------------------------

    def step(self, step: Step) -> None:
        """A step started or ended: shown in the AI card at once (it appears with it)."""
        self._steps[step.id] = step
        if self.card is not None and step.status == "in_progress":
            self._show_card(now=True)

    def work(self, work: Work) -> None:
        self._work = work

    def append(self, markdown: str) -> None:
        self._buffer.append(markdown)
        card = self.card
        if card is None or not card.due:  # the answer so far is rendered only when sent
            return
        self._show_card()

    def _show_card(self, *, now: bool = False) -> None:
        """The answer so far in the card, under the steps while they run."""
        assert self.card is not None
        shown, _ = answer_markdown(without_reasoning("".join(self._buffer), final=False))
        running = _steps_quote(self._steps.values())
        self.card.show(_card_part("\n\n".join(p for p in (running, shown) if p)), now=now)
        if self.card.live:
            self._stop_progress()  # the card shows the answer coming

    def finish(self, parts: Sequence[ReplyPart] = ()) -> None:
        self._stop_progress()
        text, at_users = answer_markdown(without_reasoning("".join(self._buffer)))
        self._buffer.clear()
        if self._work is not None and self._work.used:
            text = f"{text}\n\n{_quoted(self._work.used_line())}"
        chunks = split(text)
        if self.card is not None and self.card.live and chunks:
            head, *rest = split(text, CARD_TEXT_LIMIT)
            if self._finish_card(head):
                chunks = split("\n\n".join(rest))  # what a card does not hold follows
        for chunk in chunks:
            self._send(text_reply(chunk, tuple(u for u in at_users if f"@{u}" in chunk)), "answer")
        for part in parts:
            if isinstance(part, PlanPart) and self._plan is not None:
                self._send_quietly(self._plan(part), "plan")

    def fail(self, text: str) -> None:
        self._stop_progress()
        if self.card is not None and self.card.live:  # the card shows part of an answer
            self.append("\n\n" + text)
            self.finish()
            return
        self._send(text_reply(text), "failure")

    def refuse(self, text: str) -> None:
        """Only the writer sees it: one-to-one in a group (the group only if that fails)."""
        self._stop_progress()
        markdown, _ = answer_markdown(text)
        reply = text_reply(markdown)  # no @: a refusal pings nobody
        try:
            self.delivery.send_private(reply)
            self._metrics.inc("dingtalk_replies_sent_total", kind="refusal", via="private")
        except DingTalkError as exc:
            log.warning("could not send a refusal privately (%s)", exc.reason)
            self._send(reply, "refusal")

    def close(self) -> None:
        self._stop_progress()
        if self.card is not None and self.card.live:  # the turn ended without `finish`
            shown, _ = answer_markdown(without_reasoning("".join(self._buffer)))
            self._finish_card(_card_part(shown))

    # -- sending --------------------------------------------------------------------------------

    def _finish_card(self, text: str) -> bool:
        assert self.card is not None
        if self.card.finish(text, note=t("dingtalk_card_answer_below", self._lang)):
            self._metrics.inc("dingtalk_replies_sent_total", kind="answer", via="card")
            return True
        self._metrics.inc("dingtalk_send_failures_total", kind="card")
        return False

    def _send(self, reply: Reply, kind: str) -> None:
        try:
            via = self.delivery.send(reply)
        except DingTalkError as exc:
            self._metrics.inc("dingtalk_send_failures_total", kind=kind)
            log.warning("could not send a DingTalk %s (%s)", kind, exc.reason)
            raise
        self._metrics.inc("dingtalk_replies_sent_total", kind=kind, via=via)

    def _send_quietly(self, reply: Reply, kind: str) -> None:
        """Best effort: a failure is counted and logged, never raised."""
        with contextlib.suppress(DingTalkError):
            self._send(reply, kind)

    def _progress(self, text: str) -> None:
        """The "working on it" reply (notice pool), unless the answer came first."""
        with self._lock:
            if self._done:
                return
        self._send_quietly(text_reply(text), "progress")

    def _stop_progress(self) -> None:
        with self._lock:
            self._done = True
            timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()

    def _notify(self, fn: Callable[..., None], *args: object) -> None:
        try:
            self._notices.submit(fn, *args)
        except RuntimeError:
            log.info("not sending a DingTalk notice: shutting down")


def _steps_quote(steps: Iterable[Step]) -> str:
    """The steps while the agent works, as quoted lines ("" when it did none yet)."""
    marks = {"in_progress": "⏳", "complete": "✅", "error": "⚠️"}
    return "  \n".join(f"> {marks[step.status]} {step.title}" for step in steps)


def _quoted(line: str) -> str:
    """One line quoted in DingTalk's Markdown (a quote ends at a blank line)."""
    return "> " + " ".join(line.split())


def _card_part(text: str) -> str:
    """What of the answer a card shows: all of it, or its first paragraphs (the rest
    follows as messages)."""
    return text if len(text) <= CARD_TEXT_LIMIT else split(text, CARD_TEXT_LIMIT)[0]


__all__ = ["DingTalkReplySink"]
