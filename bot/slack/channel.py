"""Slack as the core sees it: the edge the pipeline feeds, and what every Slack listener
shares.

`SlackChannel` is the pipeline's edge (`bot.flows.pipeline.Edge`): it parses an event into
the core's message (`bot.slack.incoming`; Slack's commands are slash commands, so a
message's text is never one of the core's preferences commands, except a code command the
bot's own message offered: `save trip CODE`, `保存行程 CODE`, and the reason for an
out-of-policy choice, `reason CODE why`, `理由 CODE 为什么`: `bot.flows.code_commands`)
and makes its reply sink. A code command's outcome is shown where it was typed: in its
thread when it is for everyone there (a trip saved, approvers asked), else only to the
writer (`/travel-prefs save trip CODE`, which only its writer sees, is answered to them
alone, and what follows in their DM: `bot.slack.listeners.prefs_command`). A typed save
of an out-of-policy choice cannot open the reason modal (a modal
needs a click's trigger): the writer is asked in a message with *Give a reason*, which
opens it, and what to send instead (`bot.slack.views.approval.reason_message`).

It answers the core's questions during a turn (`bot.conversation.turn.Channel`): the
writer's time zone (`users.info`, cached with their locale in `bot.slack.people`), the
earlier messages of a thread the bot joins partway (`bot.slack.thread_context`), the
travel admins (`TRAVEL_ADMIN_USER_IDS` and the Slack user group) and, in an assistant
thread, the channel the writer has open beside it (`viewing`, from
`bot.slack.assistant`). It also holds the Web API client and the people cache the
listeners use, and makes the reply sink of each message: streamed unless streaming is
off, with the assistant thread's status instead of the progress reaction in an assistant
thread. An assistant thread is known from the event itself (a reply in a direct
message's thread: the manifest offers the assistant view), never from a store.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from slack_sdk.web import WebClient

from bot.conversation.incoming import IncomingMessage
from bot.conversation.reply import PlanPart
from bot.conversation.threads import Turn
from bot.flows.actions import APPROVAL_REASON, SAVE_TRIP, Action
from bot.flows.approvals import Sent, person_id
from bot.flows.code_commands import code_action
from bot.flows.pipeline import Incoming
from bot.flows.views import Outcome, render
from bot.planning.admins import NOBODY, Admins
from bot.slack.answers import ADMIN_FIX, UNREACHABLE, Answers, post
from bot.slack.api import maybe_posted
from bot.slack.assistant import AssistantThreads, ChannelNames
from bot.slack.incoming import PLATFORM, bot_user_id, parse_event
from bot.slack.people import People
from bot.slack.plan_message import placed, redraw
from bot.slack.progress import ProgressReaction
from bot.slack.sessions import AgentSessions
from bot.slack.sink import SlackReplySink
from bot.slack.streaming import StreamSwitch
from bot.slack.thread_context import earlier_turns
from bot.slack.views.widgets import SlackMessage, SlackWidgets

if TYPE_CHECKING:
    from bot.flows.codes import PendingActions
    from bot.flows.pipeline import Pipeline
    from bot.platform import Platform
    from memory.lang import Lang

log = logging.getLogger(__name__)

# The code commands Slack's messages offer (its buttons carry their data themselves): a
# plan's `save trip CODE`, and `reason CODE why` where no reason modal can open.
CODE_ACTIONS = frozenset({SAVE_TRIP, APPROVAL_REASON})


class SlackChannel:
    """The Slack side of every turn and listener; see the module docstring."""

    platform: Platform = PLATFORM

    def __init__(
        self,
        *,
        client: WebClient,
        pipeline: Pipeline,
        notices: ThreadPoolExecutor,
        people: People,
        admins: Admins = NOBODY,
        progress: ProgressReaction | None = None,
        streaming: StreamSwitch | None = None,
        flush_seconds: float = 0.6,
        assistant: AssistantThreads | None = None,
        sessions: AgentSessions | None = None,
        codes: PendingActions | None = None,
    ) -> None:
        self.client = client
        self.codes = codes  # what the plan messages offer as `save trip CODE`
        self.sessions = sessions  # agent sessions (the Agent messaging experience)
        self.pipeline = pipeline
        self.notices = notices
        self.widgets = SlackWidgets(codes)
        self.people = people
        self.admins = admins
        self.progress = progress or ProgressReaction("")
        self.streaming = streaming or StreamSwitch(enabled=False)
        self.flush_seconds = flush_seconds
        self.assistant = assistant or AssistantThreads(client=None)
        self.names = ChannelNames()

    # -- the pipeline's edge ------------------------------------------------------------------

    def parse(self, event: Any) -> Incoming | None:
        body, event, context = event
        msg = parse_event(body, event, bot_user_id=bot_user_id(body, context))
        if msg is None:
            return None
        # Written to the bot: a DM, a mention, or a follow-up in a thread it is part of
        # (one it is not part of is nobody's business here, whatever its words).
        to_bot = self.pipeline.conversation.takes(msg)
        found = self.code_command(msg.text) if to_bot else None
        if found is None:
            return Incoming(msg, commands=False)
        action, lang = found
        return Incoming(msg, commands=False, lang=lang, action=action)

    def code_command(self, text: str) -> tuple[Action, Lang] | None:
        """The action of a code command Slack offers (`save trip CODE`, `reason CODE
        why`), or None."""
        if self.codes is None:
            return None
        return code_action(text, self.codes, accepts=CODE_ACTIONS)

    def channel(self, incoming: Incoming) -> SlackChannel:
        return self

    def show(self, incoming: Incoming, outcome: Outcome) -> None:
        """A typed command's outcome where it was typed (slash commands answer through
        `bot.slack.preferences`): for everyone there (a trip saved), in its thread; else
        only to the writer, ephemeral there, else a direct message, else why not
        (`bot.slack.answers`). A public one Slack refuses goes to the writer the same way;
        one Slack may have posted is never posted again. A typed save also draws its plan
        message again, as a click would (`bot.slack.plan_message`); a save of a trip saved
        before is answered in its words alone: the plan message already says who saved it,
        and the plan is not posted a second time."""
        msg = incoming.msg
        if msg is None:
            return
        drawn = render(self.widgets, outcome.view)
        if incoming.action is not None and outcome.unchanged:
            drawn = replace(drawn, text=outcome.text or drawn.text, blocks=None)
        extra: dict[str, Any] = {"blocks": drawn.blocks} if drawn.blocks else {}
        answers = Answers(self.client, self.pipeline.metrics)
        lang = incoming.lang or msg.lang
        channel = msg.conversation
        shown = False
        if not outcome.private and drawn.modal is None:
            tried = post(self.client, channel, drawn.text, thread_ts=msg.thread, **extra)
            shown = tried.sent != Sent.NOT_DELIVERED
            if not shown:
                log.info("could not post a command's outcome in its thread (%s)", tried.error)
        if not shown:
            thread = msg.thread if msg.thread != msg.message_id else None
            answers.tell(
                msg.user, drawn.text, lang=lang, channel=channel, thread_ts=thread, **extra
            )
        if incoming.action is not None:  # a typed save: its plan message, as a click leaves it
            redraw(self.client, self.widgets, incoming.action, outcome)

    # -- approvals: to a person, into a thread (`bot.flows.approvals.Messenger`) -----------

    def to_person(self, namespace: str, outcome: Outcome, *, key: str) -> Sent:
        """A direct message to the person (`chat.postMessage` to their user id; it takes
        no key of ours, so `key` goes unused)."""
        return self._post(person_id(namespace), None, outcome)

    def to_thread(self, where: Mapping[str, Any], outcome: Outcome, *, key: str) -> Sent:
        channel, thread = str(where.get("conversation") or ""), str(where.get("thread") or "")
        if not channel:
            return Sent.NOT_DELIVERED
        return self._post(channel, thread or None, outcome)

    def _post(self, channel: str, thread: str | None, outcome: Outcome) -> Sent:
        """`chat.postMessage`: delivered; unreachable when Slack refused it for good (the
        errors `bot.slack.answers.UNREACHABLE` names: logged with what an admin must do);
        not delivered when Slack answered with another error (503 `service_unavailable`,
        `ratelimited`: tried again later) or the request never left; unconfirmed when it
        failed after Slack may have posted it: a read error or timeout, or an answer
        Slack documents as possibly partly done (`MAYBE_POSTED`): never sent again, as
        `chat.postMessage` takes no key that would drop a repeat."""
        drawn = render(self.widgets, outcome.view)
        extra: dict[str, Any] = {"blocks": drawn.blocks} if drawn.blocks else {}
        tried = post(self.client, channel, drawn.text, thread_ts=thread, **extra)
        log = logging.getLogger(__name__)
        if tried.sent == Sent.NOT_DELIVERED and maybe_posted(tried):
            log.warning("Slack may have posted it (%s); not sent again", tried.error)
            return Sent.UNCONFIRMED
        if tried.sent == Sent.NOT_DELIVERED and tried.error in UNREACHABLE:
            fix = ADMIN_FIX["unreachable"]
            log.warning("Slack will not take this post (%s); an admin must: %s", tried.error, fix)
            return Sent.UNREACHABLE
        if tried.sent == Sent.NOT_DELIVERED:
            log.warning("could not post to Slack (%s)", tried.error)
        return tried.sent

    # -- the turn's questions -----------------------------------------------------------------

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

    def sink(self, incoming: Incoming) -> SlackReplySink:
        assert incoming.msg is not None
        return self.sink_for(incoming.msg)

    def sink_for(self, msg: IncomingMessage) -> SlackReplySink:
        """The reply to `msg`, in its thread."""
        return SlackReplySink(
            client=self.client,
            msg=msg,
            notices=self.notices,
            plan=lambda part: self.widgets.plan(
                self.pipeline.flows.trips.plan_view(part, PLATFORM)
            ),
            placed=lambda drawn, channel, ts: placed(self.codes, drawn, channel, ts),
            progress=self.progress,
            switch=self.streaming,
            flush_seconds=self.flush_seconds,
            assistant=self.assistant,
            in_assistant_thread=self._maybe_assistant(msg),
            sessions=self.sessions,
            metrics=self.pipeline.metrics,
        )

    def _plan(self, part: PlanPart) -> SlackMessage:
        return self.widgets.plan(self.pipeline.flows.trips.plan_view(part, PLATFORM))

    @staticmethod
    def _maybe_assistant(msg: IncomingMessage) -> bool:
        """A reply in a direct message's thread: an assistant thread, as the app offers
        the assistant view (Bolt reads such messages the same way)."""
        return msg.kind == "dm" and not msg.starts_thread


__all__ = ["CODE_ACTIONS", "SlackChannel"]
