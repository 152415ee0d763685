"""DMs, @mentions and thread follow-ups: one agent turn per message, answered in its thread.

The listener runs on Bolt's listener pool and only does quick work: filter the event,
claim it (exactly one answer per message) and queue it. No Slack Web API call happens
there: a slow or rate-limited Slack would otherwise hold Bolt's threads and starve the
acknowledgements of commands and actions. The progress reaction and the "busy" reply go
to a small pool of their own (so progress shows within a second or two even while every
agent worker is busy, and the reaction call gives up after two seconds); the turn goes
to the agent pool.

The turn itself: load the thread's recent turns, run the agent for the writer's
namespace `{team_id}:{user_id}`, post the answer (converted to mrkdwn, split within
Slack's limits) in the thread, remember both turns, remove the reaction. Every failure
ends in a short, kind reply in the writer's language.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from slack_sdk.errors import SlackApiError
from slack_sdk.web import WebClient

from bot.agent.tools import ToolContext
from bot.conversation.threads import Turn
from bot.errors import LLMNotConfigured, LLMUnavailable
from bot.messages import lang_of, t
from bot.planning.delegation import Delegation, auto_save, delegate, trip_blocks
from bot.planning.planner import planned_trip
from bot.slack.mrkdwn import clean_text, split_message, to_mrkdwn
from bot.slack.progress import ProgressReaction
from bot.slack.thread_context import thread_turns
from memory.errors import MemoryEngineError

if TYPE_CHECKING:
    from slack_bolt import App

    from bot.deps import Deps

log = logging.getLogger(__name__)

Kind = Literal["dm", "mention", "thread"]

# Message subtypes that are still a person writing to us; every other subtype (edits,
# deletions, joins, bot messages, channel topic changes, ...) is ignored.
_USER_SUBTYPES = frozenset({None, "file_share", "thread_broadcast"})
_MAX_POST_ATTEMPTS = 4
_MAX_RETRY_AFTER = 30.0
_TZ_CACHE_SECONDS = 3600.0
# Progress reactions and "busy" replies: their own few threads, and a short client
# timeout, so a slow Slack delays only the hourglass, never an acknowledgement.
_NOTICE_WORKERS = 8
_BUSY_PATIENCE = 10.0  # seconds of Retry-After a "busy" reply may wait out in total

T = TypeVar("T")


class AgentReplyLike(Protocol):
    @property
    def text(self) -> str: ...


class AgentLike(Protocol):
    """What the conversation needs of the agent (`bot.agent.loop.Agent`)."""

    def run(
        self, ctx: ToolContext, user_message: str, history: Sequence[Mapping[str, str]] = ()
    ) -> AgentReplyLike: ...


@dataclass(frozen=True, slots=True)
class Incoming:
    """A message someone wrote to the bot, as the conversation needs it."""

    kind: Kind
    team_id: str
    channel: str
    user: str
    text: str
    ts: str
    thread_ts: str
    event_id: str | None = None
    bot_user_id: str | None = None

    @property
    def namespace(self) -> str:
        return f"{self.team_id}:{self.user}"


def parse_event(
    body: Mapping[str, Any], event: Mapping[str, Any], *, bot_user_id: str | None
) -> Incoming | None:
    """The message in an `app_mention` or `message` event, or None when it is not for us.

    Ignores bots (including this one), edits, deletions, joins and other subtypes, and
    channel messages that are neither mentions nor replies in a thread. Whether the bot
    takes part in that thread is checked later (it needs Redis).
    """
    event_type = event.get("type")
    if event_type not in ("app_mention", "message"):
        return None
    if event.get("bot_id") or event.get("bot_profile") or event.get("hidden"):
        return None
    if event.get("subtype") not in _USER_SUBTYPES:
        return None
    user, channel, ts = event.get("user"), event.get("channel"), event.get("ts")
    if not (isinstance(user, str) and isinstance(channel, str) and isinstance(ts, str)):
        return None
    if bot_user_id and user == bot_user_id:
        return None
    team_id = body.get("team_id") or event.get("team") or ""
    if not isinstance(team_id, str) or not team_id:
        return None
    thread_ts = event.get("thread_ts")
    thread_ts = thread_ts if isinstance(thread_ts, str) and thread_ts else ts
    kind: Kind
    if event_type == "app_mention":
        kind = "mention"
    elif event.get("channel_type") == "im":
        kind = "dm"
    elif thread_ts != ts:
        kind = "thread"
    else:
        return None  # a top-level channel message without a mention is not for us
    raw_text = event.get("text")
    text = clean_text(raw_text if isinstance(raw_text, str) else "", bot_user_id)
    event_id = body.get("event_id")
    return Incoming(
        kind=kind,
        team_id=team_id,
        channel=channel,
        user=user,
        text=text,
        ts=ts,
        thread_ts=thread_ts,
        event_id=event_id if isinstance(event_id, str) else None,
        bot_user_id=bot_user_id,
    )


class Conversation:
    """Answers DMs, mentions and thread follow-ups; see the module docstring."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps
        self.settings = deps.settings
        self._pending = 0
        self._lock = threading.Lock()
        self._tz_cache: dict[str, tuple[float, str]] = {}
        self._notices = ThreadPoolExecutor(max_workers=_NOTICE_WORKERS, thread_name_prefix="notice")
        self._progress = ProgressReaction(deps.settings.slack_progress_reaction)

    def register(self, app: App) -> None:
        app.event("app_mention")(self.on_event)
        app.event("message")(self.on_event)

    def close(self) -> None:
        """Stop the notice pool (called by `Deps.close` once the agent pool has stopped).

        Reactions still queued are dropped; ones under way finish within their timeout.
        """
        self._notices.shutdown(wait=True, cancel_futures=True)

    # -- the listener (Bolt's pool: quick work only) ----------------------------------------

    def on_event(
        self, body: dict[str, Any], event: dict[str, Any], context: Any, client: WebClient
    ) -> None:
        event_type = str(event.get("type") or "unknown")
        self.deps.metrics.inc("slack_events_total", type=event_type)
        incoming = parse_event(body, event, bot_user_id=_bot_user_id(body, context))
        if incoming is None:
            self.deps.metrics.inc("slack_events_ignored_total", type=event_type)
            return
        self.accept(incoming, client)

    def accept(self, msg: Incoming, client: WebClient) -> bool:
        """Claim the message and queue its turn; False when it is not ours to answer.

        Quick whatever Slack does: only Redis is asked here; the progress reaction and
        the "busy" reply are queued on the notice pool.
        """
        if msg.kind == "thread" and not self.deps.threads.knows(
            msg.team_id, msg.channel, msg.thread_ts
        ):
            return False
        if not self.deps.dedupe.claim(
            event_id=msg.event_id, team_id=msg.team_id, channel=msg.channel, ts=msg.ts
        ):
            self.deps.metrics.inc("slack_events_duplicate_total", type=msg.kind)
            return False
        lang = lang_of(msg.text)
        with self._lock:
            busy = self._pending >= self.settings.agent_max_pending
            if not busy:
                self._pending += 1
        if busy:
            self.deps.metrics.inc("slack_replies_total", outcome="busy")
            self._notify(self._post_busy, client, msg, lang)
            return True
        progress = None
        if self.settings.slack_progress_reaction:
            progress = self._notify(self._progress.add, client, msg)
        try:
            self.deps.executor.submit(self._turn, msg, client, progress, time.monotonic())
        except RuntimeError:  # the pool is shutting down
            with self._lock:
                self._pending -= 1
            self._progress.withdraw(client, msg, progress)
            self._notify(self._post_busy, client, msg, lang)
        return True

    def _notify(
        self, fn: Callable[..., T], client: WebClient, msg: Incoming, *args: Any
    ) -> Future[T] | None:
        """Run a Slack side effect on the notice pool; None once the pool is shut down."""
        try:
            return self._notices.submit(fn, client, msg, *args)
        except RuntimeError:
            log.info("not sending a notice in %s: shutting down", msg.channel)
            return None

    @property
    def pending(self) -> int:
        """Turns queued or running."""
        with self._lock:
            return self._pending

    # -- the turn (the agent pool) ------------------------------------------------------------

    def _turn(
        self,
        msg: Incoming,
        client: WebClient,
        progress: Future[bool] | None,
        queued_at: float,
    ) -> None:
        started = time.monotonic()
        self.deps.metrics.observe("slack_turn_queue_seconds", started - queued_at)
        lang = lang_of(msg.text)
        outcome = "ok"
        try:
            answer, outcome, followup = self._answer(msg, client, lang)
            if outcome == "refused":  # only the writer sees it; nothing enters the thread
                self._post_ephemeral(client, msg, answer)
                return
            self._post_reply(client, msg, answer)
            if followup is not None:
                self._post_blocks(client, msg, *followup)
            turns = [Turn("user", msg.text, msg.user)] if msg.text else []
            if outcome == "ok":
                turns.append(Turn("assistant", answer))
            self.deps.threads.append(msg.team_id, msg.channel, msg.thread_ts, *turns)
        except Exception:
            outcome = "error"
            log.exception("could not answer a message in %s", msg.channel)
        finally:
            self._progress.withdraw(client, msg, progress)
            with self._lock:
                self._pending -= 1
            self.deps.metrics.inc("slack_replies_total", outcome=outcome)
            self.deps.metrics.observe("slack_turn_seconds", time.monotonic() - started)

    def _answer(
        self, msg: Incoming, client: WebClient, lang: str
    ) -> tuple[str, str, tuple[str, list[dict[str, Any]]] | None]:
        """(the reply in markdown, outcome, the plan's follow-up message or None).

        Never raises for expected failures. Asking to plan for someone else is refused
        (outcome "refused") unless the writer is a travel admin; an admin's run reads the
        traveller's memory and is never offered the record tool.
        """
        limit = self.settings.slack_max_message_chars
        if not msg.text:
            return t("empty_mention", lang), "empty", None
        if len(msg.text) > limit:
            too_long = t("message_too_long", lang, length=len(msg.text), limit=limit)
            return too_long, "too_long", None
        threads = self.deps.threads
        delegation = delegate(
            msg.text,
            team_id=msg.team_id,
            user_id=msg.user,
            admins=self.deps.admins,
            bot_user_id=msg.bot_user_id,  # mentioning the bot is never planning for it
            thread_subject=threads.subject(msg.team_id, msg.channel, msg.thread_ts),
        )
        if delegation is not None and not delegation.allowed:
            refusal = t("plan_for_not_admin", lang, traveller=f"<@{delegation.traveller}>")
            return refusal, "refused", None
        if delegation is not None:
            threads.set_subject(msg.team_id, msg.channel, msg.thread_ts, delegation.traveller)
        agent = self.deps.agent
        if agent is None:
            return t("llm_not_configured", lang), "not_configured", None
        ctx = ToolContext(
            namespace=msg.namespace,
            user_id=msg.user,
            team_id=msg.team_id,
            lang="zh" if lang == "zh" else "en",
            tz=self._timezone(client, msg.user),
            extras={"channel": msg.channel, "thread_ts": msg.thread_ts},
        )
        if delegation is not None:
            ctx = dataclasses.replace(
                ctx,
                on_behalf_of=delegation.namespace,
                can_record=False,
                extras={**ctx.extras, "traveller_name": f"<@{delegation.traveller}>"},
            )
        history = [
            self._history_message(turn, msg.user)
            for turn in thread_turns(self.deps.threads, client, msg)
        ]
        try:
            reply = agent.run(ctx, msg.text, history=history)
        except LLMNotConfigured:
            return t("llm_not_configured", lang), "not_configured", None
        except LLMUnavailable as exc:
            log.warning("model unavailable: %s", exc)
            return t("llm_unavailable", lang), "llm_unavailable", None
        except MemoryEngineError as exc:
            log.warning("memory unavailable: %s", type(exc).__name__)
            return t("memory_unavailable", lang), "memory_unavailable", None
        except Exception:
            log.exception("agent turn failed")
            return t("internal_error", lang), "error", None
        text = (reply.text or "").strip()
        if not text:
            return t("internal_error", lang), "empty_answer", None
        return text, "ok", self._trip_followup(msg, reply, delegation, lang)

    def _trip_followup(
        self, msg: Incoming, reply: Any, delegation: Delegation | None, lang: str
    ) -> tuple[str, list[dict[str, Any]]] | None:
        """The "Save trip" message under a plan; admins' plans are saved at once."""
        trip = planned_trip(getattr(reply, "tool_calls", None) or [])
        if trip is None:
            return None
        traveller_ns = delegation.namespace if delegation is not None else msg.namespace
        saved = delegation is not None and auto_save(
            self.deps.trips, trip, traveller_ns=traveller_ns, requester_ns=msg.namespace
        )
        return trip_blocks(
            trip, traveller_ns=traveller_ns, requester=msg.user, lang=lang, saved=saved
        )

    @staticmethod
    def _history_message(turn: Turn, writer: str) -> dict[str, str]:
        message = turn.as_message()
        if turn.role == "user" and turn.user and turn.user != writer:
            message["content"] = f"<@{turn.user}>: {turn.text}"
        return message

    def _timezone(self, client: WebClient, user: str) -> str:
        now = time.monotonic()
        with self._lock:
            cached = self._tz_cache.get(user)
        if cached is not None and cached[0] > now:
            return cached[1]
        tz = "UTC"
        try:
            profile: Any = client.users_info(user=user).get("user") or {}
            found = profile.get("tz") if isinstance(profile, dict) else None
            if isinstance(found, str) and found:
                tz = found
        except Exception as exc:
            log.info("users.info failed (%s); assuming UTC", type(exc).__name__)
        with self._lock:
            if len(self._tz_cache) > 10_000:
                self._tz_cache.clear()
            self._tz_cache[user] = (now + _TZ_CACHE_SECONDS, tz)
        return tz

    # -- Slack side effects -------------------------------------------------------------------

    def _post_reply(
        self,
        client: WebClient,
        msg: Incoming,
        markdown: str,
        *,
        patience: float = _MAX_RETRY_AFTER * (_MAX_POST_ATTEMPTS - 1),
    ) -> None:
        for part in split_message(to_mrkdwn(markdown)):
            post(client, channel=msg.channel, thread_ts=msg.thread_ts, text=part, patience=patience)

    def _post_busy(self, client: WebClient, msg: Incoming, lang: str) -> None:
        """Tell the writer to come back later (notice pool; a short wait for rate limits)."""
        try:
            self._post_reply(client, msg, t("busy", lang), patience=_BUSY_PATIENCE)
        except Exception as exc:
            log.warning("could not post the busy reply (%s)", type(exc).__name__)

    @staticmethod
    def _post_blocks(
        client: WebClient, msg: Incoming, text: str, blocks: list[dict[str, Any]]
    ) -> None:
        """Best effort: the answer is already posted; a lost button is only logged."""
        try:
            client.chat_postMessage(
                channel=msg.channel, thread_ts=msg.thread_ts, text=text, blocks=blocks
            )
        except Exception as exc:
            log.warning("could not post the save-trip message (%s)", type(exc).__name__)

    @staticmethod
    def _post_ephemeral(client: WebClient, msg: Incoming, markdown: str) -> None:
        try:
            client.chat_postEphemeral(
                channel=msg.channel,
                user=msg.user,
                text=to_mrkdwn(markdown),
                thread_ts=msg.thread_ts if msg.thread_ts != msg.ts else None,
            )
        except Exception as exc:
            log.warning("could not post an ephemeral reply (%s)", type(exc).__name__)


def post(
    client: WebClient,
    *,
    channel: str,
    thread_ts: str | None,
    text: str,
    patience: float = _MAX_RETRY_AFTER * (_MAX_POST_ATTEMPTS - 1),
) -> None:
    """`chat.postMessage`, waiting out rate limits (`Retry-After`) a few times.

    It sleeps, so it is never called on Bolt's listener threads. `patience` caps the
    total wait: a rate limit that asks for more raises the `SlackApiError`.
    """
    waited = 0.0
    for attempt in range(1, _MAX_POST_ATTEMPTS + 1):
        try:
            client.chat_postMessage(
                channel=channel, thread_ts=thread_ts, text=text, unfurl_links=False
            )
            return
        except SlackApiError as exc:
            if exc.response.status_code != 429 or attempt == _MAX_POST_ATTEMPTS:
                raise
            retry_after = _retry_after(exc.response.headers)
            if waited + retry_after > patience:
                raise
            log.info("rate limited by Slack; retrying in %.1f s", retry_after)
            time.sleep(retry_after)
            waited += retry_after


def _retry_after(headers: Mapping[str, Any]) -> float:
    for key, value in headers.items():
        if key.lower() == "retry-after":
            raw = value[0] if isinstance(value, list) and value else value
            try:
                return min(max(float(raw), 0.0), _MAX_RETRY_AFTER)
            except (TypeError, ValueError):
                break
    return 1.0


def _bot_user_id(body: Mapping[str, Any], context: Any) -> str | None:
    """The bot's own user id: from Bolt's context, else from the event's authorizations."""
    found = getattr(context, "bot_user_id", None)
    if isinstance(found, str) and found:
        return found
    authorizations = body.get("authorizations")
    if isinstance(authorizations, list):
        for authorization in authorizations:
            if isinstance(authorization, dict) and authorization.get("is_bot"):
                user = authorization.get("user_id")
                if isinstance(user, str) and user:
                    return user
    return None


def register(app: App, deps: Deps) -> Conversation:
    """Wire the conversation listeners into `app`."""
    conversation = Conversation(deps)
    conversation.register(app)
    return conversation


__all__ = ["Conversation", "Incoming", "clean_text", "parse_event", "post", "register"]
