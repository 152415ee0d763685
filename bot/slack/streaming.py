"""One answer shown in Slack while it is written: `chat.startStream`, `appendStream`, `stopStream`.

`AnswerStream` takes the answer's Markdown as the model writes it. The first piece
starts the stream at once (`chat.startStream` in the thread, for the person asking), so
the answer appears as soon as the model's first token does; after that what arrives is
sent at most every `flush_seconds` (or sooner once `MAX_PENDING` characters wait), which
keeps well within Slack's limits, and `flush()` sends what waits whenever the agent turns
to a tool. `stop(blocks)` sends the rest with the blocks under the answer (the feedback
buttons). Slack renders the streamed text as Markdown itself; what the bot sends may still
only ping the people it names: special mentions become plain text and links must be web
or mail links (`safe_markdown`), and a piece that ends inside `<...>` or `[...](...)` is
held back until it closes. A message holds at most `MESSAGE_LIMIT` characters: a longer
answer goes on in a second streamed message.

Where streaming is not possible the answer is posted once instead, by the sink, from
`unshown()`: with no thread to stream into, when Slack refuses to start (the method is
unavailable in the workspace, `unknown_method` or `not_allowed`: remembered for the
workspace a while, `StreamSwitch`), or when the stream breaks halfway (an append or the
stop is refused). A broken stream's message is deleted first, so the person sees the
answer once, whole; should the delete fail, only the part not yet shown is posted. A rate
limit on an append only delays the next one; on the stop it is waited out. When the
person presses Stop, the rest is dropped.

The work shows in the same message (`task`): each step of the agent as a `task_update`
chunk (`slack_sdk`'s `TaskUpdateChunk`) under a `plan_update` title, sent at once (the
text waiting goes first, so the order is the order things happened), or starting the
stream when no text came yet. Tasks are best effort: should Slack refuse one, the
stream goes on with text only; they count nothing against the message's characters.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.models.messages.chunk import Chunk
from slack_sdk.web import WebClient

from bot.retry import retry_after
from bot.slack.api import MAX_RETRY_AFTER, SLACK_ERRORS, slack_error
from bot.slack.markdown import ready, safe_markdown

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 11_000  # characters per streamed message (Slack takes 12,000 per call)
MAX_PENDING = 1_000  # characters that are sent without waiting for the next flush
STOP_ATTEMPTS = 3
# Slack's answers when streaming is not available in a workspace: remembered a while.
UNAVAILABLE = frozenset(
    {
        "unknown_method",
        "not_allowed",
        "not_allowed_token_type",
        "missing_scope",
        "feature_not_enabled",
        "method_deprecated",
        "no_permission",
    }
)
UNAVAILABLE_SECONDS = 600.0


class WorkspaceSwitch:
    """Whether to try a Slack feature in a workspace: off for `UNAVAILABLE_SECONDS` after
    Slack said it is not available there (`off`); thread-safe."""

    def __init__(
        self, *, enabled: bool = True, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.enabled = enabled
        self._clock = clock
        self._off_until: dict[str, float] = {}
        self._lock = threading.Lock()

    def available(self, team: str) -> bool:
        if not self.enabled:
            return False
        with self._lock:
            return self._off_until.get(team, 0.0) <= self._clock()

    def off(self, team: str) -> None:
        with self._lock:
            self._off_until[team] = self._clock() + UNAVAILABLE_SECONDS


class StreamSwitch(WorkspaceSwitch):
    """Whether to try streaming in a workspace: off a while after Slack said it is unavailable."""

    def refused(self, team: str, error: str) -> None:
        """Slack refused to start a stream; an `UNAVAILABLE` answer turns the team off."""
        if error in UNAVAILABLE:
            log.info("chat streaming is not available in a workspace (%s)", error)
            self.off(team)


class AnswerStream:
    """One answer streamed into a thread; see the module docstring. Not thread-safe."""

    def __init__(
        self,
        client: WebClient,
        *,
        channel: str,
        thread_ts: str | None,
        team: str,
        user: str,
        switch: StreamSwitch,
        flush_seconds: float = 0.6,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self.channel = channel
        self.thread_ts = thread_ts
        self.team = team
        self.user = user
        self.switch = switch
        self.flush_seconds = flush_seconds
        self._clock = clock
        streamable = bool(thread_ts) and switch.available(team)
        self._state = "new" if streamable else "off"  # new, live, off, stopped_by_user
        self._raw = ""  # the whole answer so far, as appended
        self._sent = 0  # how much of it Slack has (or, after a failed delete, had shown)
        self._messages: list[str] = []  # the streamed messages' ts, oldest first
        self._started = 0  # messages started, whatever became of them
        self._chars = 0  # characters in the current streamed message
        self._next = 0.0  # no send before this (the flush interval, or a rate limit)
        self._tasks = True  # False once Slack refused a task chunk: text only from then
        self._held = 0.0  # no send before this: a rate limit

    @property
    def started(self) -> int:
        """How many messages this answer has started in the thread so far."""
        return self._started

    @property
    def stopped_by_user(self) -> bool:
        """The person pressed Stop: nothing more of this answer is shown."""
        return self._state == "stopped_by_user"

    def append(self, markdown: str) -> None:
        """Take the next piece of the answer; send it if it is time."""
        self._raw += markdown
        if self._state == "new" and self._raw.strip() and self._clock() >= self._next:
            self._start()
        elif self._state == "live" and (
            self._clock() >= self._next
            or len(self._raw) - self._sent >= MAX_PENDING
            or self._first_text_due()
        ):
            self.flush()

    @property
    def live(self) -> bool:
        """Whether the answer is streaming now (a task can be shown in it)."""
        return self._state == "live"

    def task(self, chunks: Sequence[Chunk]) -> bool:
        """Show `chunks` (task and plan updates) in the stream now, starting it if no text
        came yet; False when they could not be shown (not streaming, or refused)."""
        if not chunks or not self._tasks or self._state not in ("new", "live"):
            return False
        if self._state == "new":
            return self._start(chunks)
        if self._raw[self._sent :].strip():
            self._next = 0.0
            self.flush()  # the text written before the step goes first
        if self._state != "live":
            return False
        try:
            self._call("chat_appendStream", chunks=list(chunks))
        except SlackApiError as exc:
            return self._task_refused(slack_error(exc))
        except SLACK_ERRORS as exc:
            log.info("could not show a step in the stream (%s)", slack_error(exc))
            return False
        return True

    def _first_text_due(self) -> bool:
        """A stream a step began shows the answer's first words at once, as a stream
        begun with them does (only a rate limit holds them)."""
        return self._state == "live" and self._chars == 0 and self._clock() >= self._held

    def _task_refused(self, error: str) -> bool:
        if error == "stopped_by_user":
            self._broken(error)
        elif error != "ratelimited":
            log.info("Slack refused a task in the stream (%s); text only", error)
            self._tasks = False
        return False

    def flush(self) -> None:
        """Send what waits now (what can be sent: an unclosed link waits for its end)."""
        if self._clock() < self._next and not self._first_text_due():
            return
        if self._state == "new" and self._raw.strip():
            self._start()
            return
        if self._state != "live":
            return
        pending = self._raw[self._sent :]
        cut = ready(pending)
        if cut == 0:
            return
        try:
            self._send(safe_markdown(pending[:cut]))
        except SlackApiError as exc:
            if exc.response.status_code == 429:
                self._next = self._held = self._clock() + _wait(exc)
                return
            self._broken(slack_error(exc))
            return
        except SLACK_ERRORS as exc:
            self._broken(slack_error(exc))
            return
        self._sent += cut
        self._next = self._clock() + self.flush_seconds

    def stop(self, blocks: Sequence[dict[str, Any]] = (), chunks: Sequence[Chunk] = ()) -> bool:
        """End the stream with the rest of the answer, `chunks` (the last task updates)
        and `blocks` under it.

        True when the whole answer is shown (or the person stopped it); False when it
        must be posted instead: `unshown()` says what.
        """
        if self._state == "stopped_by_user":
            return True
        if self._state != "live":
            return False
        rest = safe_markdown(self._raw[self._sent :])
        tasks = list(chunks) if self._tasks else []
        for attempt in range(1, STOP_ATTEMPTS + 1):
            try:
                rest = self._fit(rest)
                self._call(
                    "chat_stopStream",
                    markdown_text=rest or None,
                    blocks=list(blocks) or None,
                    chunks=tasks or None,
                )
                self._sent = len(self._raw)
                return True
            except SlackApiError as exc:
                if exc.response.status_code == 429 and attempt < STOP_ATTEMPTS:
                    time.sleep(_wait(exc))
                    continue
                if tasks and slack_error(exc) not in ("stopped_by_user", "ratelimited"):
                    self._tasks, tasks = False, []  # the answer matters, not its tasks
                    continue
                self._broken(slack_error(exc))
                return self._state == "stopped_by_user"
            except SLACK_ERRORS as exc:
                self._broken(slack_error(exc))
                return False
        return False  # pragma: no cover (the loop always returns)

    def halt(self) -> None:
        """The person stopped the turn: end the stream where it is, sending nothing more
        (Slack may have ended it already: then there is nothing to do)."""
        if self._state == "live":
            try:
                self._call("chat_stopStream")
            except SLACK_ERRORS as exc:
                log.info("the stopped answer's stream is over (%s)", slack_error(exc))
        if self._state in ("new", "live"):
            self._state = "stopped_by_user"

    def unshown(self) -> str:
        """The Markdown still to post when the answer was not (wholly) streamed."""
        return self._raw[self._sent :]

    # -- Slack calls --------------------------------------------------------------------

    def _start(self, chunks: Sequence[Chunk] = ()) -> bool:
        """Start the stream with the text waiting (or only `chunks`: a first step);
        whether it started."""
        pending = self._raw
        cut = min(ready(pending), _break(pending, MESSAGE_LIMIT))
        if not pending[:cut].strip() and not chunks:
            return False
        text = safe_markdown(pending[:cut]) if pending[:cut].strip() else ""
        if not text:
            cut = 0
        try:
            answer = self.client.chat_startStream(
                channel=self.channel,
                thread_ts=self.thread_ts or "",
                recipient_team_id=self.team,
                recipient_user_id=self.user,
                markdown_text=text or None,
                chunks=list(chunks) or None,
            )
        except SlackApiError as exc:
            if exc.response.status_code == 429:
                self._next = self._held = self._clock() + _wait(exc)
                return False
            error = slack_error(exc)
            if chunks and error not in UNAVAILABLE:
                return self._task_refused(error)  # the text starts it later, alone
            self.switch.refused(self.team, error)
            log.info("not streaming this answer: Slack refused to start (%s)", error)
            self._state = "off"
            return False
        except SLACK_ERRORS as exc:
            log.info("not streaming this answer (%s)", slack_error(exc))
            self._state = "off"
            return False
        self._messages.append(str(answer.get("ts") or ""))
        self._started += 1
        self._state = "live"
        self._chars = len(text)
        self._sent = cut
        self._next = self._clock() + self.flush_seconds
        return True

    def _send(self, text: str) -> None:
        """Append `text` to the stream, going on in a new message past `MESSAGE_LIMIT`."""
        text = self._fit(text)
        if text:
            self._call("chat_appendStream", markdown_text=text)
            self._chars += len(text)

    def _fit(self, text: str) -> str:
        """End a full message with what fits and go on in new ones; returns what is left
        for the current message (not sent yet).

        A new message starts with its first text: Slack refuses a `chat.startStream` with
        neither `markdown_text` nor `chunks`. Only blank lines past the limit start none.
        """
        while self._chars + len(text) > MESSAGE_LIMIT:
            cut = _break(text, MESSAGE_LIMIT - self._chars)
            head, text = text[:cut], text[cut:].lstrip("\n")
            if not text.strip():
                return head
            self._call("chat_stopStream", markdown_text=head or None)
            cut = _break(text, MESSAGE_LIMIT)
            answer = self.client.chat_startStream(
                channel=self.channel,
                thread_ts=self.thread_ts or "",
                recipient_team_id=self.team,
                recipient_user_id=self.user,
                markdown_text=text[:cut],
            )
            self._messages.append(str(answer.get("ts") or ""))
            self._started += 1
            self._chars = cut
            text = text[cut:]
        return text

    def _call(self, method: str, **args: Any) -> None:
        getattr(self.client, method)(channel=self.channel, ts=self._messages[-1], **args)

    def _broken(self, error: str) -> None:
        """The stream failed halfway: take its message back, so the answer is posted once."""
        if error == "stopped_by_user":
            log.info("the person stopped the answer")
            self._state = "stopped_by_user"
            return
        log.warning("the answer's stream broke (%s); posting it instead", error)
        self._state = "off"
        if len(self._messages) != 1:
            return  # several messages: post only what none of them shows
        try:
            self.client.chat_delete(channel=self.channel, ts=self._messages[0])
        except SLACK_ERRORS as exc:
            log.warning("could not delete the broken stream (%s)", slack_error(exc))
            return
        self._messages.clear()
        self._sent = 0


def _wait(exc: SlackApiError) -> float:
    asked = retry_after(exc.response.headers)
    return 1.0 if asked is None else min(max(asked, 0.0), MAX_RETRY_AFTER)


def _break(text: str, room: int) -> int:
    """Where to cut `text` within `room` characters: a paragraph, a line, a space."""
    room = max(room, 1)
    if len(text) <= room:
        return len(text)
    for mark in ("\n\n", "\n", " "):
        at = text.rfind(mark, 0, room)
        if at > room // 2:
            return at + len(mark)
    return room


__all__ = [
    "MAX_PENDING",
    "MESSAGE_LIMIT",
    "AnswerStream",
    "StreamSwitch",
    "ready",
    "safe_markdown",
]
