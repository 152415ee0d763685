"""Card buttons (`card.action.trigger`), each answered within Feishu's three seconds.

A click's work (saving a trip, forgetting, counting what is remembered) runs on the task
pool; the callback waits for it at most `answer_within` seconds. Done in time, the answer
is the new card and a toast; otherwise the answer is a "working on it" toast at once and
the card is updated when the work is done. So a slow database never shows the person an
error, and the long connection's event loop is never held for long.

- *Save trip* (`bot.feishu.plan_card`): only the traveller or the admin who asked for
  the plan may save it, and only into their own tenant; the trip is saved under
  catalogue city names (saving twice saves once) and the card says who saved it.
- *Forget all*, then *Yes* or *Cancel* (`bot.feishu.prefs_card`): only the person the
  card belongs to; anyone else's click changes nothing and is told so.
- A button this version no longer knows: a toast, nothing changed.

Each callback is handled once (`bot.conversation.replays.first_request` on its event id
and its action token): a captured click sent again, however much later, is answered
with an empty response and changes nothing (`feishu_events_duplicate_total{type=card}`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lark_oapi.event.callback.model.p2_card_action_trigger import (
    P2CardActionTrigger,
    P2CardActionTriggerResponse,
)

from bot.conversation.incoming import in_workspace, qualified
from bot.conversation.replays import first_request
from bot.feishu.api import FeishuAPI, FeishuError
from bot.feishu.incoming import PLATFORM, field, text_field
from bot.feishu.markdown import mention
from bot.feishu.plan_card import SAVE_TRIP, read_save_request, saved_card
from bot.feishu.prefs_card import FORGET, FORGET_NO, FORGET_YES, forget_prompt, notice_card
from bot.messages import t
from bot.planning.trips import InvalidTrip, save_planned
from bot.prefs import remembered
from memory.errors import MemoryEngineError, StoreUnavailable
from memory.lang import Lang

if TYPE_CHECKING:
    from bot.deps import Deps

log = logging.getLogger(__name__)

ANSWER_WITHIN = 2.0  # seconds a callback over HTTP waits for its work (Feishu allows 3)
# How long a click stays claimed: longer than a signed callback is accepted (an hour).
CLICK_TTL_SECONDS = 2 * 3600


@dataclass(frozen=True, slots=True)
class Click:
    """Who clicked which button, on which card."""

    tenant: str
    user: str
    value: Mapping[str, Any]
    message_id: str

    @property
    def namespace(self) -> str:
        return qualified(PLATFORM, self.tenant, self.user)

    @property
    def lang(self) -> Lang:
        return "zh" if self.value.get("l") == "zh" else "en"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a click comes to: a toast, and the card that replaces the clicked one."""

    toast: str
    kind: str = "info"  # "info", "success", "warning", "error"
    card: dict[str, Any] | None = None


class CardActions:
    """The `card.action.trigger` handler (see the module docstring)."""

    def __init__(self, *, deps: Deps, api: FeishuAPI, answer_within: float = ANSWER_WITHIN) -> None:
        self.deps = deps
        self.api = api
        self.answer_within = answer_within
        self._handlers: dict[str, Callable[[Click], Outcome]] = {
            SAVE_TRIP: self.save_trip,
            FORGET: self.ask_forget,
            FORGET_YES: self.forget,
            FORGET_NO: self.cancel_forget,
        }

    def __call__(self, data: P2CardActionTrigger) -> P2CardActionTriggerResponse:
        self.deps.metrics.inc("feishu_events_total", type="card.action.trigger")
        value = field(data, "event", "action", "value")
        value = value if isinstance(value, dict) else {}
        click = Click(
            tenant=text_field(data, "header", "tenant_key")
            or text_field(data, "event", "operator", "tenant_key"),
            user=text_field(data, "event", "operator", "open_id"),
            value=value,
            message_id=text_field(data, "event", "context", "open_message_id"),
        )
        handler = self._handlers.get(str(value.get("a") or ""))
        if handler is None or not (click.tenant and click.user):
            return _response(Outcome(t("prefs_unknown_action", click.lang)))
        ids = (text_field(data, "header", "event_id"), text_field(data, "event", "token"))
        if not first_request(self.deps.claims, PLATFORM, *ids, ttl_seconds=CLICK_TTL_SECONDS):
            self.deps.metrics.inc("feishu_events_duplicate_total", type="card")
            return P2CardActionTriggerResponse({})
        try:
            work: Future[Outcome] = self.deps.pools.tasks.submit(handler, click)
        except RuntimeError:  # shutting down
            return _response(Outcome(t("busy", click.lang), "warning"))
        try:
            return _response(work.result(timeout=self.answer_within))
        except FutureTimeout:
            work.add_done_callback(lambda done: self._late(done, click))
            return _response(Outcome(t("working", click.lang)))
        except Exception:
            log.exception("a card action failed")
            return _response(Outcome(t("internal_error", click.lang), "error"))

    def _late(self, done: Future[Outcome], click: Click) -> None:
        """The work finished after the callback was answered: update the card now."""
        if done.cancelled() or done.exception() is not None:
            return
        outcome = done.result()
        if outcome.card is None or not click.message_id:
            return
        try:
            self.api.update_card(click.message_id, outcome.card)
        except FeishuError as exc:
            log.warning("could not update a card after a slow action (%s)", exc.code)

    # -- the buttons (task pool) --------------------------------------------------------

    def save_trip(self, click: Click) -> Outcome:
        request = read_save_request(click.value)
        if request is None:
            return Outcome(t("prefs_unknown_action", click.lang), "warning")
        lang = request.lang
        own_tenant = in_workspace(request.traveller_ns, PLATFORM, click.tenant)
        allowed = click.namespace == request.traveller_ns or click.user == request.requester
        if not (own_tenant and allowed):
            return Outcome(t("trip_save_not_allowed", lang), "error")
        trips = self.deps.trips
        if trips is None:
            return Outcome(t("trip_save_failed", lang), "error")
        try:
            _, created = save_planned(
                trips, request.trip, request.traveller_ns, created_by=click.namespace
            )
        except (InvalidTrip, StoreUnavailable) as exc:
            log.warning("could not save a trip (%s)", type(exc).__name__)
            return Outcome(t("trip_save_failed", lang), "error")
        note = t("trip_saved" if created else "trip_already_saved", lang, user=mention(click.user))
        toast = t("trip_saved_toast" if created else "trip_already_saved", lang)
        return Outcome(toast, "success", saved_card(request, note))

    def ask_forget(self, click: Click) -> Outcome:
        if not self._owner(click):
            return Outcome(t("prefs_card_not_yours", click.lang), "error")
        try:
            count = len(self.deps.memory.items(click.namespace))
        except MemoryEngineError:
            return Outcome(t("home_unavailable", click.lang), "error")
        if not count:
            text = t("prefs_forget_nothing", click.lang)
            return Outcome(text, card=notice_card(text, lang=click.lang))
        prompt = forget_prompt(lang=click.lang, owner=click.user, count=count)
        return Outcome(t("prefs_forget_ask", click.lang, count=count), "warning", prompt)

    def forget(self, click: Click) -> Outcome:
        if not self._owner(click):
            return Outcome(t("prefs_card_not_yours", click.lang), "error")
        text = remembered.forget_all(
            self.deps.memory,
            click.namespace,
            click.lang,
            self.deps.metrics,
            revocations=self.deps.revocations,
        )
        return Outcome(text, "success", notice_card(text, lang=click.lang))

    def cancel_forget(self, click: Click) -> Outcome:
        if not self._owner(click):
            return Outcome(t("prefs_card_not_yours", click.lang), "error")
        text = t("prefs_forget_cancelled", click.lang)
        return Outcome(text, card=notice_card(text, lang=click.lang))

    @staticmethod
    def _owner(click: Click) -> bool:
        return bool(click.user) and click.value.get("owner") == click.user


def _response(outcome: Outcome) -> P2CardActionTriggerResponse:
    """The callback's answer; never None (the SDK would answer 500)."""
    body: dict[str, Any] = {"toast": {"type": outcome.kind, "content": outcome.toast[:200]}}
    if outcome.card is not None:
        body["card"] = {"type": "raw", "data": outcome.card}
    return P2CardActionTriggerResponse(body)


__all__ = ["ANSWER_WITHIN", "CLICK_TTL_SECONDS", "CardActions", "Click", "Outcome"]
