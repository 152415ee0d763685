"""The Slack `ReplySink`: one reply, in the thread of the message it answers.

The answer streams (`bot.slack.streaming.AnswerStream`): it appears with the model's first
token and grows as the model writes, and it ends with the feedback buttons under it
(`bot.slack.views.feedback`). Where it cannot stream (streaming off, no thread, the
method unavailable in the workspace, a stream broken halfway), it is posted once, when the
turn is over, converted to mrkdwn and split within Slack's limits (`chat.postMessage`,
waiting out rate limits), the feedback buttons under its last part. A plan follows as a
message of its own with the "Save trip" button (rate limits waited out; when Slack
refuses it, the writer is told how to save the trip otherwise). Kind replies (`fail`,
`busy`) are posted, never streamed, and carry no buttons.

While the agent works the person sees that it does: in an assistant thread (Slack's AI
app pane: a reply in a direct message's thread, `bot.slack.channel`) the thread's status
says what it is doing ("Recalling your travel preferences…", `activity`), and the thread
is titled after its first question, or after the plan's route; elsewhere, or when Slack
refuses the turn's first status, a progress reaction stays on the message until the
reply is out. A status is set only when it changes, and cleared at the end only if no
message followed it: Slack removes a thread's status when the app replies in it.

Where the app is an agent (the Agent messaging experience, `bot.slack.sessions`), the
turn opens or updates the thread's agent session: `processing` (titled after the
question) while it works, `active` once the reply is out; a plan retitles it. The stop
button stops the turn (`stopped`): the stream ends where it is, the thread is told, and
the session leaves `processing`.

The work shows with the answer (`step`, `work`: `bot.conversation.work`): in a stream,
each step is a `task_update` chunk under a `plan_update` title, and the preferences the
answer used are a last task whose output lists each with when it was said; an answer
posted at once carries the work as one context line under it.

What runs on Bolt's listener thread (`status`, `busy`) only queues work on the notice
pool: the progress reaction, the first status and the "busy" reply use a few threads of
their own and a short client timeout, so a slow Slack delays only the hourglass, never an
acknowledgement. `close` takes the reaction away (or clears the status) once the reply is
out.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TYPE_CHECKING, Any, TypeVar

from slack_sdk.errors import SlackApiError
from slack_sdk.models.messages.chunk import Chunk
from slack_sdk.web import WebClient

from bot.conversation.incoming import IncomingMessage
from bot.conversation.reply import PlanPart, ReplyPart
from bot.conversation.work import Step, Work
from bot.messages import t
from bot.metrics import Metrics
from bot.slack.answers import Answers
from bot.slack.api import SLACK_ERRORS, slack_error
from bot.slack.assistant import AssistantThreads
from bot.slack.markdown import to_mrkdwn
from bot.slack.progress import ProgressReaction
from bot.slack.sessions import AgentSessions, TurnSession
from bot.slack.streaming import AnswerStream, StreamSwitch
from bot.slack.thread_posts import BUSY_PATIENCE, ThreadPosts
from bot.slack.views import work as work_view
from bot.slack.views.feedback import feedback_block

if TYPE_CHECKING:
    from bot.slack.views.widgets import SlackMessage

log = logging.getLogger(__name__)

TITLE_LIMIT = 60

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
        switch: StreamSwitch | None = None,
        flush_seconds: float = 0.6,
        assistant: AssistantThreads | None = None,
        in_assistant_thread: bool = False,
        plan: Callable[[PlanPart], SlackMessage] | None = None,
        placed: Callable[[SlackMessage, str, str], None] | None = None,
        sessions: AgentSessions | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.client = client
        metrics = metrics or Metrics()
        self._answers = Answers(client, metrics)
        self._posts = ThreadPosts(
            client=client, msg=msg, answers=self._answers, metrics=metrics, on_posted=self._replied
        )
        self._session = (  # the thread's agent session, where the app is an agent
            TurnSession(
                sessions,
                progress.quick(client),
                team=msg.tenant,
                channel=msg.conversation,
                thread_ts=msg.thread,
                title=msg.text,
                user=msg.user,
            )
            if sessions is not None
            else None
        )
        self._tasks: list[Chunk] = []  # task updates not sent yet (steps that ended)
        self._planned = False  # the stream has the work's title
        self._work: Work | None = None
        self._plan = plan
        self._placed = placed  # a plan message posted: (it, channel, ts)
        self.msg = msg
        self.channel = msg.conversation
        self.thread_ts = msg.thread
        self.ts = msg.message_id
        self.user = msg.user
        self.in_assistant_thread = in_assistant_thread
        self._notices = notices
        self._progress = progress
        self._assistant = assistant
        self._reaction: Future[bool] | None = None
        self._status: Future[None] | None = None  # the first status, queued
        self._status_shown = False
        self._status_refused = False  # Slack refused a status here: the reaction instead
        self._reacted = False  # ... and it was added
        self._last_status = ""  # the status shown now ("" none)
        self._statuses = 0  # statuses set in this turn
        self._replied_at = 0  # `_statuses` when the thread last got a new message
        self._messages_seen = 0  # messages the stream had started then
        self.stream = AnswerStream(
            client,
            channel=msg.conversation,
            thread_ts=msg.thread,
            team=msg.tenant,
            user=msg.user,
            switch=switch or StreamSwitch(enabled=False),
            flush_seconds=flush_seconds,
        )

    # -- on Bolt's listener thread: queue, never wait -----------------------------------------

    def status(self, text: str) -> None:
        """Show that the bot works on it: the thread's status, or the progress reaction;
        and the thread's agent session is `processing`."""
        if self._session is not None:
            self._session.open(self._notify)
        if self.in_assistant_thread:
            self._status_shown = True
            self._status = self._notify(self._first_status, text)
        elif self._progress.name:
            self._reaction = self._notify(self._progress.add, self.client, self.channel, self.ts)

    def busy(self, text: str) -> None:
        self.close()
        self._notify(self._posts.busy, text)

    # -- on the agent pool ----------------------------------------------------------------

    def activity(self, text: str) -> None:
        """What the agent does now: sent text goes out first, then the status (if shown)."""
        self.stream.flush()
        self._note_stream()
        if self.in_assistant_thread:
            self._settle_status()
            if not self._status_refused:
                self._status_shown = True
                self._set_status(text)

    def step(self, step: Step) -> None:
        """A step of the work started or ended: a task in the stream (an ended one goes
        with the next step, or with the end of the answer)."""
        self._tasks.append(work_view.task(step))
        if step.status != "in_progress":
            return
        chunks = self._tasks if self._planned else [work_view.plan(self.msg.lang), *self._tasks]
        if self.stream.task(chunks):
            self._planned = True
            self._tasks = []
            self._note_stream()

    def work(self, work: Work) -> None:
        """Every step and the preferences the answer used: shown with the answer."""
        self._work = work

    def append(self, markdown: str) -> None:
        self.stream.append(markdown)
        self._note_stream()

    def finish(self, parts: Sequence[ReplyPart] = ()) -> None:
        buttons = [feedback_block(self.msg.turn_id, self.msg.lang)]
        tasks = work_view.last_tasks(
            self._tasks, self._work, planned=self._planned, lang=self.msg.lang
        )
        if not self.stream.stop(buttons, tasks):
            self._posts.answer(
                self.stream.unshown(), [*work_view.context_line(self._work), *buttons]
            )
        self._note_stream()
        if self.stream.stopped_by_user or self._posts.refused:
            return
        for part in parts:
            if isinstance(part, PlanPart) and self._plan is not None:
                drawn = self._plan(part)
                ts = self._posts.plan(drawn.text, drawn.blocks or [], typed=drawn.typed)
                if ts and self._placed is not None:
                    self._placed(drawn, self.channel, ts)
        self._title(parts)

    def fail(self, text: str) -> None:
        self._posts.say(text)

    def stopped(self, text: str) -> None:
        """The person stopped the turn: the stream ends where it is, and the thread is told
        (the session leaves `processing` at `close`)."""
        self.stream.halt()
        self._note_stream()
        self._posts.say(text)

    def refuse(self, text: str) -> None:
        """Only the writer sees it (an ephemeral message in the thread, if any); when Slack
        refuses that, a DM, else why not (`bot.slack.answers.Answers.tell`)."""
        thread = self.thread_ts if self.thread_ts != self.ts else None
        msg = self.msg
        self._answers.tell(
            msg.user, to_mrkdwn(text), lang=msg.lang, channel=self.channel, thread_ts=thread
        )

    def close(self) -> None:
        """Drop a reaction not yet added, else take it away (see `ProgressReaction`);
        in an assistant thread, clear a status no message has cleared."""
        reaction, self._reaction = self._reaction, None
        self._progress.withdraw(self.client, self.channel, self.ts, reaction)
        if self._session is not None:
            self._session.close()
        if self._status_shown:
            self._settle_status()
            self._status_shown = False
            if self._reacted:
                self._progress.remove(self.client, self.channel, self.ts)
            elif self._last_status and self._replied_at < self._statuses:
                self._set_status("")

    # -- Slack calls ----------------------------------------------------------------------

    def _first_status(self, text: str) -> None:
        """The turn's first status (notice pool); where Slack refuses one, the progress
        reaction instead, for the whole turn."""
        if self._set_status(text) or not self._status_refused or not self._progress.name:
            return
        self._reacted = self._progress.add(self.client, self.channel, self.ts)

    def _set_status(self, text: str) -> bool:
        """The assistant thread's status ("" clears it), unless it shows it already; best
        effort and quick. False when it could not be set."""
        if text == self._last_status and (text or self._statuses):
            return True
        try:
            self._progress.quick(self.client).assistant_threads_setStatus(
                channel_id=self.channel, thread_ts=self.thread_ts, status=text
            )
        except SLACK_ERRORS as exc:
            if isinstance(exc, SlackApiError) and self._statuses == 0:
                self._status_refused = True  # Slack answered: no status in this thread
            log.info("could not set the assistant status (%s)", slack_error(exc))
            return False
        self._last_status = text
        self._statuses += 1 if text else 0
        return True

    def _note_stream(self) -> None:
        """A message the stream started in the thread removed its status."""
        if self.stream.started > self._messages_seen:
            self._messages_seen = self.stream.started
            self._replied()

    def _replied(self) -> None:
        """A new message in the thread: Slack removed the thread's status."""
        self._replied_at = self._statuses
        self._last_status = ""

    def _settle_status(self) -> None:
        """Let the first status (queued on the notice pool) land before the next one."""
        first, self._status = self._status, None
        if first is None or first.cancel():
            return
        try:
            first.result(timeout=5)
        except (FutureTimeout, Exception):
            return

    def _title(self, parts: Sequence[ReplyPart]) -> None:
        """Title an assistant thread: after a plan's route, else once after its question;
        an agent session is retitled after a plan's route (it was titled when it opened)."""
        plans = [part for part in parts if isinstance(part, PlanPart)]
        if plans and self._session is not None:
            self._session.rename(_route(plans[-1], self.msg.lang))
        if not self.in_assistant_thread or self._assistant is None:
            return
        first = self._assistant.claim_title(self.msg.tenant, self.channel, self.thread_ts)
        if plans:
            title = _route(plans[-1], self.msg.lang)
        elif first:
            title = self.msg.text
        else:
            return
        title = " ".join(title.replace("*", "").split())
        if len(title) > TITLE_LIMIT:
            title = title[: TITLE_LIMIT - 1].rstrip() + "…"
        try:
            self._progress.quick(self.client).assistant_threads_setTitle(
                channel_id=self.channel, thread_ts=self.thread_ts, title=title
            )
        except SLACK_ERRORS as exc:
            log.info("could not title the assistant thread (%s)", slack_error(exc))

    def _notify(self, fn: Callable[..., T], *args: Any) -> Future[T] | None:
        """Run a Slack side effect on the notice pool; None once the pool is shut down."""
        try:
            return self._notices.submit(fn, *args)
        except RuntimeError:
            log.info("not sending a notice in %s: shutting down", self.channel)
            return None


def _route(plan: PlanPart, lang: str) -> str:
    trip = plan.trip
    return t(
        "trip_summary",
        lang,
        origin=trip.origin,
        destination=trip.destination,
        dates=trip.start.isoformat(),
    )


__all__ = ["BUSY_PATIENCE", "SlackReplySink"]
