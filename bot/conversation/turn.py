"""One turn of the conversation, whatever the chat platform: a message in, its reply out.

`Conversation.accept(msg, sink, channel)` runs on the platform's listener thread and
does only quick work, asking nothing of the platform: a thread follow-up is taken only
in a thread the bot is part of, the message is claimed (exactly one answer per message,
`bot.conversation.claims`), a mention makes its thread one the bot is part of at once
(`ThreadHistory.mark`: a follow-up written before the first answer is not ignored), and
its turn is queued on the agent pool, after any turn of the same thread still queued or
running in this process (`bot.conversation.lanes`: the follow-up sees that answer),
while the sink shows progress. Past `AGENT_MAX_PENDING` queued or running turns the
writer is told to come back later instead.

The turn (`run`, on the agent pool): length and empty checks; whether the message plans
for a colleague and whether the writer, a travel admin or not, may
(`bot.planning.delegation`); the thread's recent turns (Redis, or the platform for a
first mention partway through a thread); the agent run for the writer's namespace (or
reading a colleague's memory, never writing it); then the reply, handed to the sink as
Markdown plus the plan's part, or as a short kind reply in the writer's language
whatever failed. Both turns are remembered in the thread.

The answer streams: the agent hands its text to `sink.append` as the model writes it
(across tool calls), and says what it is doing to a sink that can show it
(`reply.ShowsActivity`). A turn that fails after part of its answer was shown cannot
take that part back: the kind reply follows it (`append`, then `finish` with no parts)
instead of `fail`. A sink that shows the work hears its steps and, with the answer, the
preferences it used (`bot.conversation.work`). A turn the person stopped (`stop`) ends
at once: no answer follows, nothing it would have saved is saved, and the sink says it
stopped (`reply.Stoppable`, else `fail`). A channel that knows where the writer is looking
(`ViewingChannel`: an assistant pane open beside a channel) has it told to the agent.

Metric names start with the platform's name (`<name>_replies_total`, ...); mentions are
written in the platform's markup (`Platform.mention`).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.agent.tools import ToolContext
from bot.agent.used import UsedPreference
from bot.conversation.lanes import Lanes
from bot.conversation.protocols import AgentLike, AgentReplyLike, Channel, ViewingChannel
from bot.conversation.reply import PlanPart, ReplyPart, Stoppable
from bot.conversation.stops import Stops
from bot.conversation.threads import Turn
from bot.conversation.work import Steps
from bot.errors import LLMNotConfigured, LLMUnavailable, TurnStopped
from bot.messages import t
from bot.planning.delegation import Delegation, asked_once, auto_save, delegate, record_read
from bot.planning.plan import planned_trip
from bot.planning.typed import in_travellers_words
from memory.errors import MemoryEngineError
from memory.intake import repaired

if TYPE_CHECKING:
    from bot.conversation.claims import Claims
    from bot.conversation.incoming import IncomingMessage
    from bot.conversation.reply import ReplySink
    from bot.conversation.threads import ThreadHistory
    from bot.metrics import Metrics
    from bot.planning.admins import AdminResolver
    from bot.planning.delegation import ReadLog
    from bot.planning.trips import TripStore

log = logging.getLogger(__name__)

# Room left in `ThreadHistory` for the turn being answered (the message and the reply),
# so saving them does not push the thread's opening message out.
_ROOM_FOR_THIS_TURN = 2


class _Streamed:
    """The sink's `append`, remembering whether any of the answer was shown."""

    def __init__(self, sink: ReplySink) -> None:
        self._sink = sink
        self.started = False

    def append(self, markdown: str) -> None:
        if markdown:
            self.started = True
            self._sink.append(markdown)


@dataclass(frozen=True, slots=True)
class Answer:
    """What a turn comes to: the reply text, its outcome, and the parts under it."""

    text: str
    outcome: str  # "ok", "refused", "stopped", or why none ("llm_unavailable", "llm_refused")
    parts: tuple[ReplyPart, ...] = ()
    used: tuple[UsedPreference, ...] = ()  # the remembered preferences the answer used


class Conversation:
    """Accepts messages and runs their turns; see the module docstring. Thread-safe."""

    def __init__(
        self,
        *,
        agent: AgentLike | None,
        threads: ThreadHistory,
        claims: Claims,
        admins: AdminResolver | None,
        trips: TripStore | None,
        metrics: Metrics,
        pool: ThreadPoolExecutor,
        max_pending: int = 500,
        max_chars: int = 4000,
        audit: ReadLog | None = None,
        stops: Stops | None = None,
    ) -> None:
        self.agent = agent
        self.threads = threads
        self.claims = claims
        self.admins = admins
        self.trips = trips
        self.audit = audit
        self.metrics = metrics
        self.pool = pool
        self.max_pending = max_pending
        self.max_chars = max_chars
        self._pending = 0
        self._lock = threading.Lock()
        self._lanes = Lanes()
        self._stops = stops or Stops()  # turns queued or running, by thread

    @property
    def pending(self) -> int:
        """Turns queued or running."""
        with self._lock:
            return self._pending

    # -- accepting (the platform's listener thread: quick work only) ------------------------

    def accept(self, msg: IncomingMessage, sink: ReplySink, channel: Channel) -> bool:
        """Claim the message and start its turn; False when it is not ours to answer.

        The pipeline (`bot.flows.pipeline`) does the same in its steps: `takes`, the
        claim, `start`.
        """
        if not self.takes(msg):
            return False
        if not self.claims.claim_message(msg):
            self.metrics.inc(f"{msg.platform.name}_events_duplicate_total", type=msg.kind)
            return False
        self.start(msg, sink, channel)
        return True

    def takes(self, msg: IncomingMessage) -> bool:
        """Whether `msg` is for the bot: a thread follow-up only in a thread it is part of."""
        return msg.kind != "thread" or self.threads.knows(msg.thread_key)

    def start(self, msg: IncomingMessage, sink: ReplySink, channel: Channel) -> None:
        """Queue the turn of a claimed message (or say the bot is busy)."""
        if msg.kind == "mention":
            self.threads.mark(msg.thread_key)
        with self._lock:
            busy = self._pending >= self.max_pending
            if not busy:
                self._pending += 1
        if busy:
            self.metrics.inc(f"{msg.platform.name}_replies_total", outcome="busy")
            sink.busy(t("busy", msg.lang))
            return
        sink.status(t("working", msg.lang))
        queued_at = time.monotonic()
        stop = self._stops.add(msg.thread_key)
        turn = lambda: self.run(msg, sink, channel, queued_at, stop)  # noqa: E731
        try:
            self._lanes.submit(self.pool, msg.thread_key, turn)
        except RuntimeError:  # the pool is shutting down
            with self._lock:
                self._pending -= 1
            self._stops.done(msg.thread_key, stop)
            sink.busy(t("busy", msg.lang))

    def stop(self, thread_key: str) -> int:
        """A stop button: the thread's turns here end, answering and saving nothing; how many."""
        return self._stops.stop(thread_key)

    # -- the turn (the agent pool) ------------------------------------------------------------

    def run(
        self,
        msg: IncomingMessage,
        sink: ReplySink,
        channel: Channel,
        queued_at: float,
        stop: threading.Event | None = None,
    ) -> None:
        """Answer `msg` through `sink`; never raises; ends without an answer once `stop`
        is set (`Conversation.stop`)."""
        if not msg.text.isascii():  # a lone surrogate reaches neither Redis nor the model
            msg = dataclasses.replace(msg, text=repaired(msg.text))
        started = time.monotonic()
        platform = msg.platform.name
        self.metrics.observe(f"{platform}_turn_queue_seconds", started - queued_at)
        outcome = "ok"
        streamed = _Streamed(sink)
        steps = Steps.shown_by(sink, msg.lang)
        try:
            answer = self.answer(msg, channel, on_text=streamed.append, on_status=steps, stop=stop)
            outcome = answer.outcome
            steps.end("complete" if outcome == "ok" else "error")
            if outcome == "stopped":  # no answer after the stop; what was shown stays
                (sink.stopped if isinstance(sink, Stoppable) else sink.fail)(answer.text)
                return  # the thread keeps nothing of a stopped request
            if outcome == "ok":
                steps.show(sink, answer.used)
            if outcome == "refused":  # only the writer sees it; nothing enters the thread
                sink.refuse(answer.text)
                if msg.kind == "mention":  # known again only if it has a history
                    self.threads.unmark(msg.thread_key)
                return
            if outcome == "ok":
                if not streamed.started:
                    sink.append(answer.text)
                sink.finish(answer.parts)
            elif streamed.started:  # part of an answer is shown: say why it stops there
                sink.append("\n\n" + answer.text)
                sink.finish(())
            else:
                sink.fail(answer.text)
            turns = [Turn("user", msg.text, msg.user)] if msg.text else []
            if outcome == "ok":
                turns.append(Turn("assistant", answer.text))
            self.threads.append(msg.thread_key, *turns)
        except Exception:
            outcome = "error"
            log.exception("could not answer a message in %s", msg.conversation)
        finally:
            self._stops.done(msg.thread_key, stop)
            try:
                sink.close()
            except Exception:
                log.exception("could not close the reply in %s", msg.conversation)
            with self._lock:
                self._pending -= 1
            seconds = time.monotonic() - started
            self.metrics.inc(f"{platform}_replies_total", outcome=outcome)
            self.metrics.observe(f"{platform}_turn_seconds", seconds)
            log.info("turn %s %s outcome=%s seconds=%.2f", msg.turn_id, platform, outcome, seconds)

    def answer(
        self,
        msg: IncomingMessage,
        channel: Channel,
        *,
        on_text: Callable[[str], None] | None = None,
        on_status: Callable[[str], None] | None = None,
        stop: threading.Event | None = None,
    ) -> Answer:
        """The reply to `msg`; never raises for expected failures.

        Asking to plan for someone else is refused (outcome "refused") unless the writer
        is a travel admin; an admin's run reads the traveller's memory and is never
        offered the record tool. `on_text` hears the answer as the model writes it and
        `on_status` what the agent is doing.
        """
        lang = msg.lang
        if not msg.text:
            return Answer(t("empty_mention", lang), "empty")
        if len(msg.text) > self.max_chars:
            text = t("message_too_long", lang, length=len(msg.text), limit=self.max_chars)
            return Answer(text, "too_long")
        is_admin = self._is_admin(msg, channel)
        delegation = self._delegation(msg, is_admin)
        if delegation is not None and not delegation.allowed:
            traveller = msg.platform.mention(delegation.traveller)
            refusal = t("plan_for_not_admin", lang, traveller=traveller)
            return Answer(refusal, "refused")
        if delegation is not None:
            self.threads.set_subject(msg.thread_key, delegation.traveller)
        if self.agent is None:
            return Answer(t("llm_not_configured", lang), "not_configured")
        ctx = ToolContext(
            namespace=msg.namespace,
            user_id=msg.user,
            tenant=msg.tenant,
            lang=lang,
            tz=channel.timezone(msg),
            viewing=channel.viewing(msg) if isinstance(channel, ViewingChannel) else None,
            progress=on_status,
            platform=msg.platform,
            travel_admin=is_admin,
            stop=stop,
        )
        if delegation is not None:
            record_read(self.audit, delegation, reader=msg.namespace, turn=msg.turn_id)
            ctx = dataclasses.replace(
                ctx,
                on_behalf_of=delegation.namespace,
                can_record=False,
                traveller_name=msg.platform.mention(delegation.traveller),
            )
        history = [_history_message(turn, msg) for turn in self._recent(msg, channel)]
        try:
            reply = self.agent.run(ctx, msg.text, history=history, on_text=on_text)
            ctx.check_stop()  # stopped as the answer ended: no plan is saved
        except TurnStopped:
            log.info("turn %s stopped by the person", msg.turn_id)
            return Answer(t("turn_stopped", lang), "stopped")
        except LLMNotConfigured:
            return Answer(t("llm_not_configured", lang), "not_configured")
        except LLMUnavailable as exc:  # the log names the cause; the person, what to do
            log.warning("model unavailable (%s): %s", exc.kind, exc)
            return Answer(t(exc.told_key, lang), exc.told_key)
        except MemoryEngineError as exc:
            log.warning("memory unavailable: %s", type(exc).__name__)
            return Answer(t("memory_unavailable", lang), "memory_unavailable")
        except Exception:
            log.exception("agent turn failed")
            return Answer(t("internal_error", lang), "error")
        text = (reply.text or "").strip()
        if not text:
            return Answer(t("internal_error", lang), "empty_answer")
        used = tuple(getattr(reply, "used", ()))
        return Answer(text, "ok", self._plan_parts(msg, reply, delegation), used)

    def _is_admin(self, msg: IncomingMessage, channel: Channel) -> Callable[[], bool]:
        """Whether the writer is a travel admin, asked once, only when something needs it."""
        admins = self.admins
        if admins is None:
            return lambda: False
        scope = msg.platform.key(msg.tenant)
        return asked_once(lambda: admins.is_admin(scope, msg.user, channel.admins))

    def _delegation(self, msg: IncomingMessage, is_admin: Callable[[], bool]) -> Delegation | None:
        return delegate(
            msg.text,
            user_id=msg.user,
            namespace_of=msg.namespace_of,
            is_admin=is_admin,
            mention=msg.platform.markup.mention_pattern,
            bot_user_id=msg.bot_user,  # mentioning the bot is never planning for it
            thread_subject=self.threads.subject(msg.thread_key),
        )

    def _recent(self, msg: IncomingMessage, channel: Channel) -> list[Turn]:
        """The thread's recent turns: from Redis, or from the platform for a first
        mid-thread mention (then saved, so follow-ups never ask the platform again)."""
        turns = self.threads.load(msg.thread_key)
        if turns or msg.kind != "mention" or msg.starts_thread:
            return turns
        earlier = channel.earlier_turns(
            msg,
            max_turns=self.threads.max_turns - _ROOM_FOR_THIS_TURN,
            max_chars=self.threads.max_chars_per_turn,
        )
        if earlier:
            self.threads.seed(msg.thread_key, *earlier)
        return earlier

    def _plan_parts(
        self, msg: IncomingMessage, reply: AgentReplyLike, delegation: Delegation | None
    ) -> tuple[ReplyPart, ...]:
        """The plan under the answer, if it planned a trip; an admin's plan is saved at once."""
        trip = planned_trip(reply.tool_calls or [])
        if trip is None:
            return ()
        trip = in_travellers_words(trip, msg.text)  # "成都" as they wrote it, not "Chengdu"
        traveller_ns = delegation.namespace if delegation is not None else msg.namespace
        saved = delegation is not None and auto_save(
            self.trips, trip, traveller_ns=traveller_ns, requester_ns=msg.namespace
        )
        part = PlanPart(
            trip=trip,
            traveller=traveller_ns,
            traveller_user=delegation.traveller if delegation is not None else msg.user,
            requester=msg.user,
            lang=msg.lang,
            saved=saved,
        )
        return (part,)


def _history_message(turn: Turn, msg: IncomingMessage) -> dict[str, str]:
    message = turn.as_message()
    if turn.role == "user" and turn.user and turn.user != msg.user:
        message["content"] = f"{msg.platform.mention(turn.user)}: {turn.text}"
    return message


__all__ = [
    "AgentLike",
    "AgentReplyLike",
    "Answer",
    "Channel",
    "Conversation",
    "ViewingChannel",
]
