"""DingTalk as the core sees it: the edge the pipeline feeds (`bot.flows.pipeline.Edge`)
and the answers to the conversation's questions (`bot.conversation.turn.Channel`).

Stream mode (`bot.dingtalk.long_connection`) and HTTP mode (`bot.dingtalk.http`) hand each
robot message's JSON to `DingTalkChannel.receive`, which gives it to the core's pipeline
(count → parse → claim once → command or conversation). What only DingTalk knows:

- **parse**: `bot.dingtalk.incoming` reads the message and where to answer it (its session
  webhook, else the OpenAPI: `bot.dingtalk.delivery`); a command that carries a code (a
  tapped button: `保存行程 K7P2M9QX`) is read back into its action (`bot.dingtalk.widgets`).
  A `sessionWebhook` that is not one DingTalk hands out (`OpenAPI.webhook_allowed`) is
  dropped, whichever way the message came in (HTTP or Stream): the message is answered
  through the OpenAPI alone, to the writer's staff id or the group, and the webhook is
  counted (`dingtalk_webhooks_refused_total`) and logged at WARNING without the message,
  once a minute with a count of the others;
- **sink**: the answer, and the plan under it drawn by the widgets
  (`bot.dingtalk.sink`);
- **show**: a command's outcome, drawn by the widgets; in a group, what is the person's
  own (their preferences, a confirmation) goes to them one-to-one and the group hears that
  it did. When no way takes the answer, the person is told why in a short plain text (in
  the same chat), unless DingTalk may have shown it; when nothing can reach them, it is
  counted and the log says what an admin must fix (`bot.dingtalk.undelivered`);
- **the turn's questions**: travel admins are the staff ids of `DINGTALK_ADMIN_STAFF_IDS`,
  and only for writers of the robot's own organisation (staff ids are only unique within
  one); the time zone is `TRAVEL_TIMEZONE` (a robot cannot read a person's); a robot
  cannot read a chat's earlier messages, so a thread's history is only what the bot kept.

With an AI card template (`DINGTALK_CARD_TEMPLATE_ID`), answers stream into AI cards
(`bot.dingtalk.ai_card`).
"""

from __future__ import annotations

import dataclasses
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.dingtalk.ai_card import AICardTemplate
from bot.dingtalk.api import DingTalkError, OpenAPI
from bot.dingtalk.delivery import Delivery, Destination, Reply
from bot.dingtalk.incoming import PLATFORM, parse_message
from bot.dingtalk.sink import DingTalkReplySink
from bot.dingtalk.undelivered import ADMIN_FIX, code_of, why
from bot.dingtalk.widgets import DingTalkWidgets, markdown_reply, text_reply
from bot.flows import undelivered
from bot.flows.approvals import Sent, person_id
from bot.flows.code_commands import code_action
from bot.flows.codes import PendingActions
from bot.flows.commands import tidy
from bot.flows.pipeline import Incoming
from bot.flows.undelivered import notice_key
from bot.flows.views import Outcome, PlanView, render
from bot.http.notices import Notices
from bot.messages import t
from bot.planning.admins import NOBODY, Admins

if TYPE_CHECKING:
    from collections.abc import Mapping

    from bot.conversation.threads import Turn
    from bot.dingtalk.timers import Timers
    from bot.flows.pipeline import Pipeline
    from bot.flows.trips import TripFlows
    from bot.metrics import Metrics
    from bot.platform import Platform
    from memory.lang import Lang

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Where:
    """Where the answers to one message go, and whether its writer is one of the robot's
    own organisation."""

    delivery: Delivery
    own_corp: bool = True


@dataclass(frozen=True)
class Turns:
    """The conversation's questions, answered for DingTalk (see the module docstring)."""

    admins: Admins
    zone: str = "UTC"

    def timezone(self, msg: Any) -> str:
        return self.zone

    def earlier_turns(self, msg: Any, *, max_turns: int, max_chars: int) -> list[Turn]:
        return []


class DingTalkChannel:
    """The DingTalk edge of the pipeline (see the module docstring)."""

    platform: Platform = PLATFORM

    def __init__(
        self,
        *,
        api: OpenAPI,
        codes: PendingActions,
        pipeline: Pipeline,
        trips: TripFlows,
        timers: Timers,
        notices: ThreadPoolExecutor,
        metrics: Metrics,
        admin_staff_ids: frozenset[str] = frozenset(),
        timezone: str = "UTC",
        progress_after: float = 0.0,
        default_lang: Lang = "en",
        card: AICardTemplate | None = None,
    ) -> None:
        self.api = api
        self.codes = codes
        self.pipeline = pipeline
        self.trips = trips
        self.timers = timers
        self.notices = notices
        self.metrics = metrics
        self.progress_after = progress_after
        self.default_lang = default_lang
        self.card = card
        self.turns = Turns(Admins(named=admin_staff_ids), timezone)
        self.guests = Turns(NOBODY, timezone)
        self._notices = Notices(log)

    def receive(self, data: Mapping[str, Any]) -> str:
        """One robot message (checked by `message_problem`); what became of it."""
        return self.pipeline.message(self, data)

    # -- the pipeline's edge ------------------------------------------------------------------

    def parse(self, event: Any) -> Incoming | None:
        received = parse_message(event, default_lang=self.default_lang)
        if received is None:
            return None
        where = Where(self.delivery(received.destination), received.own_corp)
        msg = received.msg
        if msg is None:
            return Incoming(None, where, key=received.key, lang=received.lang)
        found = code_action(tidy(msg.text), self.codes)
        if found is None:
            return Incoming(msg, where)
        action, lang = found
        return Incoming(msg, where, lang=lang, action=action)

    def delivery(self, destination: Destination) -> Delivery:
        """The replies to one message; never through a webhook that is not DingTalk's."""
        if destination.webhook and not self.api.webhook_allowed(destination.webhook):
            self.metrics.inc("dingtalk_webhooks_refused_total")
            self._notices.warning(
                "foreign webhook",
                "a DingTalk message named a session webhook outside DingTalk's origins; "
                "answering through the OpenAPI",
            )
            destination = dataclasses.replace(destination, webhook="", webhook_expires=0.0)
        return Delivery(self.api, destination)

    def channel(self, incoming: Incoming) -> Turns:
        where: Where = incoming.where
        return self.turns if where.own_corp else self.guests

    def sink(self, incoming: Incoming) -> DingTalkReplySink:
        where: Where = incoming.where
        widgets = DingTalkWidgets(self.codes, in_group=where.delivery.destination.is_group)
        return DingTalkReplySink(
            delivery=where.delivery,
            notices=self.notices,
            timers=self.timers,
            metrics=self.metrics,
            progress_after=self.progress_after,
            plan=lambda part: widgets.plan(self.trips.plan_view(part, PLATFORM)),
            card=self.card,
            lang=incoming.msg.lang if incoming.msg is not None else self.default_lang,
        )

    def show(self, incoming: Incoming, outcome: Outcome) -> None:
        where: Where = incoming.where
        delivery = where.delivery
        widgets = DingTalkWidgets(self.codes, in_group=delivery.destination.is_group)
        view = outcome.view
        # A card cannot be redrawn once sent: a saved plan is said in a line.
        reply = (
            markdown_reply(outcome.text) if isinstance(view, PlanView) else render(widgets, view)
        )
        lang = incoming.lang or (incoming.msg.lang if incoming.msg else self.default_lang)
        try:
            if outcome.private and delivery.destination.is_group:
                self._private(delivery, reply, lang)
            else:
                delivery.send(reply)
        except DingTalkError as exc:
            self.metrics.inc("dingtalk_send_failures_total", kind="command")
            self._undelivered(delivery, exc, lang)

    def _undelivered(self, delivery: Delivery, exc: DingTalkError, lang: Lang) -> None:
        """No way took a command's answer: tell the person in a short plain text by what
        still works, or log what an admin must fix (`bot.dingtalk.undelivered`)."""
        reason = why(exc)

        def in_the_chat(notice: str) -> bool:
            try:
                delivery.send(text_reply(notice))  # "unconfirmed" when it may be there
                return True
            except DingTalkError as again:
                log.warning("could not tell the person either (%s)", again.reason)
                return False

        # A one-to-one chat the robot may not write to: no way.
        ways = [in_the_chat] if reason != "unreachable" else []
        undelivered.tell(
            self.metrics,
            "dingtalk",
            reason,
            error=exc.reason,
            notice=lambda: t(notice_key("dingtalk", reason), lang, code=code_of(exc)),
            ways=ways,
            admin_fix=ADMIN_FIX,
            log=log,
        )

    def _private(self, delivery: Delivery, reply: Reply, lang: Lang) -> None:
        """From a group: one-to-one to the writer, and a note in the group. A one-to-one
        send that may have arrived counts as sent (`Delivery.send_private`); once it is
        sent, a failed note is only logged: the answer is not lost."""
        try:
            delivery.send_private(reply)
        except DingTalkError as exc:
            log.warning("could not answer privately (%s)", exc.reason)
            delivery.send(text_reply(t("dingtalk_prefs_private_failed", lang)))
            return
        try:
            delivery.send(text_reply(t("dingtalk_prefs_private", lang)))
        except DingTalkError as exc:
            log.warning("answered privately; could not say so in the group (%s)", exc.reason)

    # -- approvals: to a person, into a thread (`bot.flows.approvals.Messenger`) -----------

    def to_person(self, namespace: str, outcome: Outcome, *, key: str) -> Sent:
        """The robot's one-to-one message (`oToMessages/batchSend`) to the staff id (it
        takes no idempotency key, so `key` goes unused); a 500/504 is unconfirmed."""
        reply = render(DingTalkWidgets(self.codes), outcome.view)
        msg_key, param = reply.openapi_message()
        try:
            self.api.send_to_users([person_id(namespace)], msg_key, param, maybe_done=True)
        except DingTalkError as exc:
            return _failed(exc, "could not send an approval card")
        return Sent.DELIVERED

    def to_thread(self, where: Mapping[str, Any], outcome: Outcome, *, key: str) -> Sent:
        """In the chat it was asked from: the group (`groupMessages/send`), or one-to-one
        to the person (their thread of a direct chat)."""
        in_group = where.get("kind") not in ("dm", None)
        reply = render(DingTalkWidgets(self.codes, in_group=in_group), outcome.view)
        msg_key, param = reply.openapi_message()
        conversation, user = str(where.get("conversation") or ""), str(where.get("user") or "")
        try:
            if in_group and conversation:
                self.api.send_to_group(conversation, msg_key, param, maybe_done=True)
            elif user:
                self.api.send_to_users([user], msg_key, param, maybe_done=True)
            else:
                return Sent.NOT_DELIVERED
        except DingTalkError as exc:
            return _failed(exc, "could not tell an approval's outcome")
        return Sent.DELIVERED

    def close(self) -> None:
        self.timers.close()
        self.api.close()


def _failed(exc: DingTalkError, what: str) -> Sent:
    """A send that failed: unconfirmed when DingTalk may have it (it is not sent again:
    DingTalk takes no idempotency key); unreachable when DingTalk refused it for good (the
    person outside the robot's visible range: logged with the admin's fix); else not
    delivered."""
    if exc.maybe_sent:
        log.warning("%s: unconfirmed, DingTalk may have it (%s)", what, exc.reason)
        return Sent.UNCONFIRMED
    if why(exc) == "unreachable":  # refused for good: sending again is no use
        fix = ADMIN_FIX["unreachable"]
        log.warning(
            "%s: DingTalk refuses it for good (%s); an admin must: %s", what, code_of(exc), fix
        )
        return Sent.UNREACHABLE
    log.warning("%s (%s)", what, exc.reason)
    return Sent.NOT_DELIVERED


__all__ = ["DingTalkChannel", "Turns", "Where"]
