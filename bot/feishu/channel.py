"""Feishu as the core sees it: the edge the pipeline feeds (`bot.flows.pipeline.Edge`).

The SDK's dispatcher (`bot.feishu.events`; fed by the HTTP route and the long connection)
calls the handlers here on the thread that received the event, so they only do quick
work and Feishu gets its acknowledgement at once:

- `on_message` (`im.message.receive_v1`): the core's pipeline (count → parse → claim once
  → command or conversation); the parser (`bot.feishu.incoming`) notes the topic thread
  for the turn's questions (`bot.feishu.turns`);
- `on_menu` (`application.bot.menu_v6`, key `travel_prefs`): the preferences card, sent
  to the person directly, once per event, in their language as last seen (the event
  carries no locale: `bot.conversation.languages`);
- `on_card` (`card.action.trigger`): a card button, read back into its action and answered
  by the core's flows within Feishu's three seconds (each callback once: its event id and
  action token are claimed, so a captured click sent again is answered with an empty
  response and changes nothing); the work runs on the task pool and
  the callback waits for it at most `answer_within` seconds; done in time, the answer is
  the new card and a toast; otherwise a "working on it" toast at once, and the card is
  updated when the work is done (a slow database never shows the person an error).

A command's outcome (`show`) is drawn by the widgets (`bot.feishu.widgets`): in a direct
chat it is the reply; in a group, what is the person's own goes to them directly and the
group thread only hears that it was sent. When it cannot be sent, the person is told by
what still works, or it is logged why nothing can (`bot.feishu.undelivered`).

Every message the channel sends carries a uuid derived from what it answers (the message,
the menu event, the approval request and its step: `reply_uuid`), so Feishu keeps one
message per logical send (for an hour) and a send whose answer was lost in transport (a
read error or timeout, a reset after the request) is sent again safely
(`bot.feishu.api`).
"""

from __future__ import annotations

import logging
import uuid as uuidlib
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from lark_oapi.event.callback.model.p2_card_action_trigger import (
    P2CardActionTrigger,
    P2CardActionTriggerResponse,
)

from bot.conversation.replays import request_name
from bot.feishu.api import UUID_WINDOW, FeishuAPI, FeishuError
from bot.feishu.cards import answer_card
from bot.feishu.incoming import PLATFORM, field, parse_message, text_field
from bot.feishu.sink import FeishuReplySink, reply_uuid
from bot.feishu.turns import FeishuTurns
from bot.feishu.undelivered import ADMIN_FIX, notice, sent_of, ways, why
from bot.feishu.widgets import REASON_FIELD, FeishuWidgets
from bot.flows import undelivered
from bot.flows.actions import SHOW_PREFS, Action, Request
from bot.flows.approvals import Sent, person_id
from bot.flows.pipeline import Incoming
from bot.flows.views import Outcome, ReasonForm, render
from bot.messages import t

if TYPE_CHECKING:
    from bot.flows.pipeline import Pipeline
    from bot.flows.trips import TripFlows
    from bot.platform import Platform
    from memory.lang import Lang

log = logging.getLogger(__name__)

MENU_KEY = "travel_prefs"  # the event key of the bot menu's preferences item
ANSWER_WITHIN = 2.0  # seconds a card callback waits for its work (Feishu allows 3)
# How long a click stays claimed: longer than a signed callback is accepted (an hour).
CLICK_TTL_SECONDS = 2 * 3600


@dataclass(frozen=True)
class Where:
    """Where a command's outcome goes: a reply to `reply_to`, or the person directly."""

    open_id: str
    lang: Lang
    reply_to: str | None = None  # the message that asked (None: the bot menu)
    in_group: bool = True
    event: str = ""  # the menu event that asked (its id), when `reply_to` is None


@dataclass(frozen=True, slots=True)
class Toast:
    """What a card callback answers: a toast, and the card that replaces the clicked one."""

    text: str
    kind: str = "info"  # "info", "success", "warning", "error"
    card: dict[str, Any] | None = None


class FeishuChannel:
    """The Feishu edge of the pipeline (see the module docstring)."""

    platform: Platform = PLATFORM
    resend_window = UUID_WINDOW  # a send is sent again with its uuid within this while

    def __init__(
        self,
        *,
        api: FeishuAPI,
        turns: FeishuTurns,
        pipeline: Pipeline,
        trips: TripFlows,
        tasks: ThreadPoolExecutor,
        notices: ThreadPoolExecutor,
        run_task: Callable[..., None],
        reaction: str = "OnIt",
        default_lang: Lang = "en",
        max_age: float | None = None,
        answer_within: float = ANSWER_WITHIN,
    ) -> None:
        self.api = api
        self.turns = turns
        self.pipeline = pipeline
        self.trips = trips
        self.tasks = tasks
        self.notices = notices
        self.run_task = run_task
        self.reaction = reaction
        self.default_lang = default_lang
        self.max_age = max_age
        self.answer_within = answer_within
        self.widgets = FeishuWidgets()
        self.metrics = pipeline.metrics

    # -- the SDK's handlers -------------------------------------------------------------------

    def on_message(self, data: Any) -> None:
        self.pipeline.message(self, data, kind="im.message.receive_v1")

    def on_menu(self, data: Any) -> None:
        tenant = text_field(data, "header", "tenant_key")
        user = text_field(data, "event", "operator", "operator_id", "open_id")
        event_id = text_field(data, "header", "event_id")
        request = None
        if text_field(data, "event", "event_key") == MENU_KEY and tenant and user:
            once = (f"bot:seen:event:{PLATFORM.key(event_id)}",) if event_id else ()
            request = Request(
                PLATFORM, tenant, user, Action(SHOW_PREFS), self.default_lang, once=once
            )
        if self.pipeline.admit(PLATFORM, request, kind="application.bot.menu_v6") and request:
            self.run_task(self._menu, request, event_id)

    def _menu(self, request: Request, event_id: str) -> None:
        """The menu's preferences card, on the task pool. A menu event carries no locale:
        the card, or why it could not be sent, speaks the person's language as last seen
        (their last message's, else their remembered facts'; `Pipeline.language_of`),
        `DEFAULT_LANGUAGE` when nothing says it."""
        lang = self.pipeline.language_of(request.namespace) or self.default_lang
        request = replace(request, lang=lang)
        where = Where(request.user, lang, event=event_id)
        self.deliver(where, self.pipeline.flows.handle(request))

    def on_card(self, data: P2CardActionTrigger) -> P2CardActionTriggerResponse:
        request = self._click(data)
        lang: Lang = request.lang if request is not None else "en"
        if not self.pipeline.admit(PLATFORM, request, kind="card"):
            if request is None:
                return _response(Toast(t("prefs_unknown_action", lang)))
            return P2CardActionTriggerResponse({})  # the same click again: nothing to say
        assert request is not None
        message_id = text_field(data, "event", "context", "open_message_id")
        try:
            work: Future[Outcome] = self.tasks.submit(self.pipeline.flows.handle, request)
        except RuntimeError:  # shutting down
            return _response(Toast(t("busy", lang), "warning"))
        try:
            outcome = work.result(timeout=self.answer_within)
            self._ask_why(outcome, message_id, request.user)
            return _response(self._toast(outcome))
        except FutureTimeout:
            work.add_done_callback(lambda done: self._late(done, message_id, request.user))
            return _response(Toast(t("working", lang)))
        except Exception:
            log.exception("a card action failed")
            return _response(Toast(t("internal_error", lang), "error"))

    def on_ignored(self, data: Any) -> None:
        kind = text_field(data, "header", "event_type") or "unknown"
        self.metrics.inc("feishu_events_ignored_total", type=kind)

    # -- the pipeline's edge ------------------------------------------------------------------

    def parse(self, event: Any) -> Incoming | None:
        turns = self.turns
        if turns.bot_open_id is None:  # unknown at start-up: ask again (once a minute)
            self.run_task(turns.refresh_bot)
        parsed = parse_message(
            event,
            bot_open_id=turns.bot_open_id,
            default_lang=self.default_lang,
            max_age=self.max_age,
        )
        if parsed is None:
            return None
        turns.remember_thread(parsed.msg, parsed.thread_id)
        return Incoming(parsed.msg, parsed.chat_type)

    def channel(self, incoming: Incoming) -> FeishuTurns:
        return self.turns

    def sink(self, incoming: Incoming) -> FeishuReplySink:
        assert incoming.msg is not None
        return FeishuReplySink(
            api=self.api,
            msg=incoming.msg,
            chat_type=str(incoming.where),
            notices=self.notices,
            reaction=self.reaction,
            plan=lambda part: self.widgets.plan(self.trips.plan_view(part, PLATFORM)),
        )

    def show(self, incoming: Incoming, outcome: Outcome) -> None:
        msg = incoming.msg
        assert msg is not None
        lang = incoming.lang or msg.lang
        where = Where(msg.user, lang, reply_to=msg.message_id, in_group=incoming.where != "p2p")
        self.deliver(where, outcome)

    def deliver(self, where: Where, outcome: Outcome) -> None:
        """A command's outcome: the reply in a direct chat; in a group (or from the menu),
        the person's own to them directly, and a note in the group thread."""
        card = render(self.widgets, outcome.view)
        # One uuid per logical send: the message or the menu event it answers (an event
        # without an id, never seen from Feishu, still gets one for its own retries).
        key = where.reply_to or f"menu:{where.event or uuidlib.uuid4().hex}"
        direct = bool(where.reply_to) and not (outcome.private and where.in_group)
        try:
            if where.reply_to and direct:
                self._reply(where.reply_to, card, reply_uuid(key, "prefs"))
                return
            self.api.send(
                where.open_id,
                id_type="open_id",
                msg_type="interactive",
                content=card,
                uuid=reply_uuid(key, "prefs"),
            )
        except FeishuError as exc:
            self._undelivered(where, key, exc, direct=direct)
            return
        if where.reply_to:
            note = answer_card(t("prefs_sent_privately", where.lang))
            try:
                self._reply(where.reply_to, note, reply_uuid(key, "prefs-note"))
            except FeishuError as exc:  # the card itself reached the person
                log.warning("could not say in the group that the card was sent (%s)", exc.code)

    def _undelivered(self, where: Where, key: str, exc: FeishuError, *, direct: bool) -> None:
        """The card did not reach the person: tell them through what still works, or log
        why nothing can (`bot.feishu.undelivered`)."""
        reason = why(exc)
        undelivered.tell(
            self.metrics,
            "feishu",
            reason,
            error=str(exc.code),
            notice=lambda: notice(exc, where.lang),
            ways=ways(
                self.api,
                reason,
                reply_to=where.reply_to or "",
                open_id=where.open_id,
                uuid=reply_uuid(key, "prefs-undelivered"),
                direct=direct,
            ),
            admin_fix=ADMIN_FIX,
            log=log,
            subject="prefs",
        )

    # -- card buttons -------------------------------------------------------------------------

    def _click(self, data: Any) -> Request | None:
        value = field(data, "event", "action", "value")
        value = value if isinstance(value, Mapping) else {}
        tenant = text_field(data, "header", "tenant_key") or text_field(
            data, "event", "operator", "tenant_key"
        )
        user = text_field(data, "event", "operator", "open_id")
        if not (tenant and user):
            return None
        lang: Lang = "zh" if value.get("l") == "zh" else "en"
        data_ = {k: v for k, v in value.items() if k not in ("a", "l")}
        form = field(data, "event", "action", "form_value")
        if isinstance(form, Mapping) and REASON_FIELD in form:  # the reason form, submitted
            data_["reason"] = str(form.get(REASON_FIELD) or "")
        chat = text_field(data, "event", "context", "open_chat_id")
        message = text_field(data, "event", "context", "open_message_id")
        where = {"conversation": chat, "thread": message} if message else {}
        action = Action(str(value.get("a") or ""), data_)
        ids = (text_field(data, "header", "event_id"), text_field(data, "event", "token"))
        once = tuple(request_name(PLATFORM, i) for i in ids if i)
        return Request(
            PLATFORM,
            tenant,
            user,
            action,
            lang,
            admins=self.turns.admins,
            once=once,
            once_ttl=CLICK_TTL_SECONDS,
            where=where,
        )

    def _toast(self, outcome: Outcome) -> Toast:
        card = render(self.widgets, outcome.view) if outcome.replace else None
        return Toast(outcome.short, outcome.tone, card)

    def _ask_why(self, outcome: Outcome, message_id: str, user: str) -> None:
        """An out-of-policy choice: the reason form, replied under the clicked card."""
        if isinstance(outcome.view, ReasonForm) and message_id:
            form = render(self.widgets, outcome.view)
            uuid = reply_uuid(message_id, f"reason-{user}")
            self.run_task(self._reply, message_id, form, uuid)

    def _late(self, done: Future[Outcome], message_id: str, user: str = "") -> None:
        """The work finished after the callback was answered: update the card now."""
        if done.cancelled() or done.exception() is not None:
            return
        self._ask_why(done.result(), message_id, user)
        toast = self._toast(done.result())
        if toast.card is None or not message_id:
            return
        try:
            self.api.update_card(message_id, toast.card)
        except FeishuError as exc:
            log.warning("could not update a card after a slow action (%s)", exc.code)

    def _reply(self, message_id: str, card: dict[str, Any], uuid: str) -> None:
        self.api.reply(message_id, msg_type="interactive", content=card, uuid=uuid)

    # -- approvals: to a person, into a thread (`bot.flows.approvals.Messenger`) -----------

    def to_person(self, namespace: str, outcome: Outcome, *, key: str) -> Sent:
        """A card to the person (`im/v1/messages`, `receive_id_type=open_id`); `key`
        names the send, so a retried one is the same message."""
        card = render(self.widgets, outcome.view)
        try:
            self.api.send(
                person_id(namespace),
                id_type="open_id",
                msg_type="interactive",
                content=card,
                uuid=reply_uuid(key, "approval"),
            )
        except FeishuError as exc:
            return sent_of(exc, "could not send an approval card")
        return Sent.DELIVERED

    def to_thread(self, where: Mapping[str, Any], outcome: Outcome, *, key: str) -> Sent:
        """A card in reply to the message `where` names (in its thread); `key` as for
        `to_person`."""
        message, chat = str(where.get("thread") or ""), str(where.get("conversation") or "")
        if not message:
            return Sent.NOT_DELIVERED
        card = render(self.widgets, outcome.view)
        try:
            self.api.reply(
                message,
                msg_type="interactive",
                content=card,
                chat_id=chat or None,
                uuid=reply_uuid(key, "approval"),
            )
        except FeishuError as exc:
            return sent_of(exc, "could not tell an approval's outcome")
        return Sent.DELIVERED


def _response(toast: Toast) -> P2CardActionTriggerResponse:
    """The callback's answer; never None (the SDK would answer 500)."""
    body: dict[str, Any] = {"toast": {"type": toast.kind, "content": toast.text[:200]}}
    if toast.card is not None:
        body["card"] = {"type": "raw", "data": toast.card}
    return P2CardActionTriggerResponse(body)


__all__ = ["ANSWER_WITHIN", "MENU_KEY", "FeishuChannel", "Toast", "Where"]
