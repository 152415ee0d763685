"""One path for every event a channel receives: count → parse → claim once → command or
conversation, written once, used by every channel the way a listener middleware is.

A channel hands each event to the `Pipeline` with its `Edge`: its platform, its parser,
its reply sink, and where a command's answer goes. Then, the same for every platform:

1. **count** `{platform}_events_total{type}`;
2. **parse**: the edge turns the event into an `Incoming` (or a click into a `Request`);
   what is not for the bot is counted `{platform}_events_ignored_total` and dropped;
3. **claim once** (`bot.conversation.claims`): a message by its event and its own id, a
   click or command by the name its edge gives (a trigger, a callback's token); a
   redelivery or replay is counted `{platform}_events_duplicate_total` and dropped;
4. **route**: a command (a text command of `bot.flows.commands`, or a button a message
   carries) is answered by the flows (`Flows`) on the task pool and shown by the edge;
   anything else is a turn of the conversation (`Conversation.start`).

A writer the platform names no person for (an external contact) is told politely, once,
that the bot serves members of the organisation; nothing is remembered.

Everything here runs on the channel's listener thread and only does quick work: no
platform call, no memory read.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from bot.conversation.replays import Seen, first_signature
from bot.flows.actions import (
    APPROVAL_REASON,
    APPROVE,
    FORGET_PREFS,
    FORGET_PREFS_NO,
    FORGET_PREFS_YES,
    PREFS_HELP,
    REJECT,
    SAVE_TRIP,
    SHOW_PREFS,
    STALE,
    Action,
    Request,
)
from bot.flows.commands import parse_command
from bot.flows.views import Notice, Outcome
from bot.messages import stated_lang
from memory.lang import Lang

if TYPE_CHECKING:
    from bot.conversation.claims import Claims
    from bot.conversation.incoming import IncomingMessage
    from bot.conversation.languages import Languages
    from bot.conversation.reply import ReplySink
    from bot.conversation.turn import Channel, Conversation
    from bot.flows.approvals import ApprovalFlows
    from bot.flows.preferences import PreferenceFlows
    from bot.flows.trips import TripFlows
    from bot.metrics import Metrics
    from bot.platform import Platform

log = logging.getLogger(__name__)

# What a stale button or code was for, and how to say it is gone.
_STALE = {
    SAVE_TRIP: "trip_save_unknown",
    FORGET_PREFS_YES: "prefs_forget_expired",
    APPROVE: "approval_unknown",
    REJECT: "approval_unknown",
    APPROVAL_REASON: "approval_unknown",
}


@dataclass(frozen=True)
class Incoming:
    """A parsed message event: the core's message, and what the channel needs to answer it.

    `msg` is None for a writer the platform names no person for; `key` then names the
    message, to answer it once. `action` is a button the message carries (a code a tap
    sent); `commands` whether its text may be a command (False where the platform has
    commands of its own).
    """

    msg: IncomingMessage | None
    where: Any = None  # the channel's own: a chat type, a destination...
    key: str = ""
    lang: Lang | None = None  # the answer's language, when not the message's
    action: Action | None = None
    commands: bool = True


class Edge(Protocol):
    """What a channel supplies for its events (see the module docstring)."""

    @property
    def platform(self) -> Platform: ...

    def parse(self, event: Any) -> Incoming | None:
        """The message in `event`, or None when it is not for the bot."""
        ...

    def sink(self, incoming: Incoming) -> ReplySink:
        """Where the answer to a message goes."""
        ...

    def channel(self, incoming: Incoming) -> Channel:
        """The platform's answers to the conversation's questions, for this writer."""
        ...

    def show(self, incoming: Incoming, outcome: Outcome) -> None:
        """Show a command's outcome in the chat (task pool; drawn by the channel's widgets)."""
        ...


class Flows:
    """Answers every `Request` by its action's name, whatever the platform."""

    def __init__(
        self,
        *,
        preferences: PreferenceFlows,
        trips: TripFlows,
        approvals: ApprovalFlows | None = None,
    ) -> None:
        self.preferences = preferences
        self.trips = trips
        self.approvals = approvals
        self._routes: dict[str, Callable[[Request], Outcome]] = {
            SHOW_PREFS: preferences.show,
            PREFS_HELP: _help,
            FORGET_PREFS: preferences.ask_forget,
            FORGET_PREFS_YES: preferences.forget,
            FORGET_PREFS_NO: preferences.cancel,
            SAVE_TRIP: trips.save,
        }
        if approvals is not None:
            self._routes |= {
                APPROVAL_REASON: approvals.submit,
                APPROVE: approvals.decide,
                REJECT: approvals.decide,
            }

    def handle(self, request: Request) -> Outcome:
        """The outcome of `request` (reads and writes memory: the task pool)."""
        route = self._routes.get(request.action.name)
        if route is not None:
            return route(request)
        was = str(request.action.data.get("was") or "") if request.action.name == STALE else ""
        stale = Notice(_STALE.get(was, "prefs_unknown_action"), request.lang)
        return Outcome(stale, text=stale.text(), tone="warning", private=True)


def _help(request: Request) -> Outcome:
    help_text = Notice("prefs_help", request.lang)
    return Outcome(help_text, text=help_text.text(), private=False)


class Pipeline:
    """count → parse → claim once → command or conversation (see the module docstring)."""

    def __init__(
        self,
        *,
        conversation: Conversation,
        flows: Flows,
        claims: Claims,
        metrics: Metrics,
        run_task: Callable[..., None],
        default_lang: Lang = "en",
        languages: Languages | None = None,
    ) -> None:
        """`languages`: where each person's last answered language is noted, for events
        that carry none (`language_of`)."""
        self.conversation = conversation
        self.languages = languages
        self.flows = flows
        self.claims = claims
        self.metrics = metrics
        self.run_task = run_task
        self.default_lang = default_lang

    # -- messages -------------------------------------------------------------------------

    def message(self, edge: Edge, event: Any, *, kind: str = "message") -> str:
        """One message event; what became of it ("accepted", "duplicate", "ignored", ...)."""
        name = edge.platform.name
        self.metrics.inc(f"{name}_events_total", type=kind)
        incoming = edge.parse(event)
        if incoming is None:
            self.metrics.inc(f"{name}_events_ignored_total", type=kind)
            return "ignored"
        msg = incoming.msg
        if msg is None:
            return self._outsider(edge, incoming)
        action = incoming.action
        if action is None and incoming.commands and msg.kind != "thread":
            command = parse_command(msg.text, default_lang=self.default_lang)
            if command is not None:
                action, incoming = Action(command.action), _in_lang(incoming, command.lang)
        if action is None and not self.conversation.takes(msg):
            return "ignored"  # a follow-up in a thread the bot is not part of
        if not self.claims.claim_message(msg):
            self.metrics.inc(f"{name}_events_duplicate_total", type=msg.kind)
            return "duplicate"
        said = stated_lang(msg.text)  # only what the text says: "MU5101" keeps the last
        if self.languages is not None and said is not None:  # off the event's thread
            self.run_task(self.languages.note, msg.namespace, said)
        if action is None:
            self.conversation.start(msg, edge.sink(incoming), edge.channel(incoming))
            return "accepted"
        request = Request(
            platform=edge.platform,
            tenant=msg.tenant,
            user=msg.user,
            action=action,
            lang=incoming.lang or msg.lang,
            admins=edge.channel(incoming).admins,
            where=where_of(msg),
        )
        self.run_task(self._command, edge, incoming, request)
        return f"command_{action.name}"

    def _command(self, edge: Edge, incoming: Incoming, request: Request) -> None:
        """A command, on the task pool: the flows answer, the edge shows it."""
        edge.show(incoming, self.flows.handle(request))

    def _outsider(self, edge: Edge, incoming: Incoming) -> str:
        if not self.claims.claim(f"bot:seen:msg:{incoming.key}"):
            self.metrics.inc(f"{edge.platform.name}_events_duplicate_total", type="outsider")
            return "duplicate"
        notice = Notice("outsider", incoming.lang or self.default_lang)
        outcome = Outcome(notice, text=notice.text(), private=False)
        self.run_task(edge.show, incoming, outcome)
        return "external"

    # -- clicks and commands --------------------------------------------------------------

    def language_of(self, namespace: str) -> Lang | None:
        """The person's language for an event that carries none (`bot.conversation.languages`:
        their last message's, else their remembered facts'); None when nothing says it."""
        return self.languages.of(namespace) if self.languages is not None else None

    def act(self, platform: Platform, request: Request | None, *, kind: str) -> Outcome | None:
        """A parsed click or command: counted, claimed once, answered by the flows.

        None when it was not for the bot (`request` None) or was handled already. Reads
        and writes memory: the caller runs it where slow work may run.
        """
        if not self.admit(platform, request, kind=kind) or request is None:
            return None
        return self.flows.handle(request)

    def first_signature(
        self, platform: Platform, signature: str, body: bytes, *, ttl_seconds: int
    ) -> Seen:
        """A signature that covers no body, claimed once with the body it came with
        (`bot.conversation.replays.first_signature`): "first", "again" (a redelivery:
        counted `{platform}_events_duplicate_total{type=signature}` and dropped) or
        "reused" (another body: the caller refuses it)."""
        seen = first_signature(self.claims, platform, signature, body, ttl_seconds=ttl_seconds)
        if seen == "again":
            self.metrics.inc(f"{platform.name}_events_duplicate_total", type="signature")
        return seen

    def admit(self, platform: Platform, request: Request | None, *, kind: str) -> bool:
        """Count a click or command and claim it once; whether to go on with it."""
        name = platform.name
        self.metrics.inc(f"{name}_events_total", type=kind)
        if request is None:
            self.metrics.inc(f"{name}_events_ignored_total", type=kind)
            return False
        if request.once and not self.claims.claim(*request.once, ttl_seconds=request.once_ttl):
            self.metrics.inc(f"{name}_events_duplicate_total", type=kind)
            return False
        return True


def where_of(msg: IncomingMessage) -> dict[str, str]:
    """Where a message was written, as a `Request.where`: its conversation and thread (a
    channel adds what else it needs to post there)."""
    return {
        "conversation": msg.conversation,
        "thread": msg.thread,
        "kind": msg.kind,
        "user": msg.user,
    }


def _in_lang(incoming: Incoming, lang: Lang) -> Incoming:
    return Incoming(incoming.msg, incoming.where, incoming.key, lang, incoming.action)


__all__ = ["Edge", "Flows", "Incoming", "Pipeline", "where_of"]
