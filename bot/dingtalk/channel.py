"""DingTalk as the conversation core sees it (`bot.conversation.turn.Channel`), and what
every DingTalk message handler shares.

- Travel admins are the staff ids of `DINGTALK_ADMIN_STAFF_IDS` (`StaffAdmins`, an
  `AdminGroup`; `TRAVEL_ADMIN_USER_IDS` still counts, as everywhere), and only for
  writers of the robot's own organisation (`guest()` for the others).
- The writer's time zone is `TRAVEL_TIMEZONE`: a robot cannot read a person's.
- A robot cannot read a chat's earlier messages, so a thread's history is only what the
  bot itself kept (`ThreadHistory`).
- With an AI card template (`DINGTALK_CARD_TEMPLATE_ID`), answers stream into AI cards
  (`bot.dingtalk.ai_card`).

It also makes each message's `Delivery` and reply sink. A message whose
`sessionWebhook` is not one DingTalk hands out (`OpenAPI.webhook_allowed`) is answered
through the OpenAPI alone, to the writer's staff id or the group, whichever way the
message came in (HTTP or Stream): the webhook is dropped, counted
(`dingtalk_webhooks_refused_total`) and logged at WARNING without the message, once a
minute with a count of the others.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from bot.dingtalk.ai_card import AICardTemplate
from bot.dingtalk.delivery import Delivery, Destination
from bot.dingtalk.sink import DingTalkReplySink
from bot.web.notices import Notices

if TYPE_CHECKING:
    from bot.conversation.incoming import IncomingMessage
    from bot.conversation.threads import Turn
    from bot.dingtalk.api import OpenAPI
    from bot.dingtalk.timers import Timers
    from bot.dingtalk.trips import TripOffers
    from bot.metrics import Metrics
    from memory.lang import Lang

log = logging.getLogger(__name__)


class StaffAdmins:
    """The travel admins named by `DINGTALK_ADMIN_STAFF_IDS` (an `AdminGroup`).

    Its id changes with the list, so a list changed at a restart is never answered
    from the admin cache of the old one.
    """

    def __init__(self, staff_ids: frozenset[str]) -> None:
        self._members = staff_ids
        digest = hashlib.sha256(",".join(sorted(staff_ids)).encode()).hexdigest()[:12]
        self.id = f"dingtalk-staff-{digest}"

    def members(self) -> frozenset[str] | None:
        return self._members


class DingTalkChannel:
    """The DingTalk side of every turn (see the module docstring)."""

    def __init__(
        self,
        *,
        api: OpenAPI,
        timers: Timers,
        notices: ThreadPoolExecutor,
        metrics: Metrics,
        offers: TripOffers,
        admin_staff_ids: frozenset[str] = frozenset(),
        timezone: str = "UTC",
        progress_after: float = 0.0,
        card: AICardTemplate | None = None,
    ) -> None:
        self.api = api
        self.timers = timers
        self.notices = notices
        self.metrics = metrics
        self.offers = offers
        self._admins = StaffAdmins(admin_staff_ids) if admin_staff_ids else None
        self._timezone = timezone
        self.progress_after = progress_after
        self.card = card
        self._notices = Notices(log)

    @property
    def admin_group(self) -> StaffAdmins | None:
        return self._admins

    def timezone(self, msg: IncomingMessage) -> str:
        return self._timezone

    def earlier_turns(self, msg: IncomingMessage, *, max_turns: int, max_chars: int) -> list[Turn]:
        return []

    def guest(self) -> DingTalkChannel:
        """This channel for a writer from another organisation (a cross-organisation
        group): staff ids are only unique within one, so nobody there is a travel admin."""
        view = copy.copy(self)
        view._admins = None
        return view

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

    def sink(self, delivery: Delivery, *, lang: Lang = "en") -> DingTalkReplySink:
        """The reply to one message (written in `lang`), through `delivery`."""
        return DingTalkReplySink(
            delivery=delivery,
            notices=self.notices,
            timers=self.timers,
            metrics=self.metrics,
            progress_after=self.progress_after,
            offer_save=self.offers.offer,
            card=self.card,
            lang=lang,
        )


__all__ = ["DingTalkChannel", "StaffAdmins"]
