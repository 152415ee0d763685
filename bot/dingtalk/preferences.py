"""A person's preferences in DingTalk: what is remembered, the web page, forgetting it all.

- "/travel-prefs" (or 我的偏好 / 偏好设置) answers with the summary of what is remembered,
  made inert, on an ActionCard whose buttons open the web preferences page for this
  person (when a link provider gives one) and ask to *Forget all*;
- *Forget all* asks first: the question's "yes" carries a code naming the person's own
  namespace (`bot.dingtalk.actions`, ten minutes), so only the owner can confirm it, and
  only once; "cancel" changes nothing;
- in a group all of this goes to the person one-to-one (what the robot remembers about
  someone is theirs, not the group's), and the group is told so.

The page link comes from an injected `PreferencesURL` (namespace and language to a URL,
or None); without one the card has no page button.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.dingtalk.api import DingTalkError
from bot.dingtalk.cards import forget_prompt, prefs_card, text_reply
from bot.dingtalk.markdown import inert
from bot.messages import t
from bot.prefs import remembered
from bot.prefs.links import LinkProvider, no_link
from memory.errors import MemoryEngineError

if TYPE_CHECKING:
    from bot.conversation.incoming import IncomingMessage
    from bot.dingtalk.actions import PendingActions
    from bot.dingtalk.delivery import Delivery, Reply
    from bot.metrics import Metrics
    from bot.prefs.revocations import Revocations
    from memory.protocol import LongTermMemory

log = logging.getLogger(__name__)

FORGET_TTL_SECONDS = 600
KIND = "forget_all"


class Preferences:
    """The preferences commands (see the module docstring); run on the task pool."""

    def __init__(
        self,
        *,
        memory: LongTermMemory,
        actions: PendingActions,
        metrics: Metrics,
        preferences_url: LinkProvider = no_link,
        revocations: Revocations | None = None,
    ) -> None:
        self.memory = memory
        self.actions = actions
        self.metrics = metrics
        self.preferences_url = preferences_url
        self.revocations = revocations

    def show(self, msg: IncomingMessage, delivery: Delivery) -> None:
        lang = msg.lang
        try:
            count = len(self.memory.items(msg.namespace))
            summary = self.memory.retrieve(msg.namespace) if count else ""
        except MemoryEngineError:
            delivery.send(text_reply(t("home_unavailable", lang)))
            return
        if count:
            text = t("dingtalk_prefs_show", lang, count=count, summary=inert(summary))
        else:
            text = t("prefs_show_empty", lang)
        try:
            url = self.preferences_url(msg.namespace, lang)
        except Exception:
            log.exception("the preferences page link failed")
            url = None
        self._private(delivery, prefs_card(text, lang, page_url=url, can_forget=count > 0), lang)

    def ask_forget(self, msg: IncomingMessage, delivery: Delivery) -> None:
        lang = msg.lang
        try:
            count = len(self.memory.items(msg.namespace))
        except MemoryEngineError:
            delivery.send(text_reply(t("home_unavailable", lang)))
            return
        if not count:
            self._private(delivery, text_reply(t("prefs_forget_nothing", lang)), lang)
            return
        code = self.actions.put({"kind": KIND, "ns": msg.namespace}, ttl_seconds=FORGET_TTL_SECONDS)
        self._private(delivery, forget_prompt(count, code, lang), lang)

    def confirm_forget(self, msg: IncomingMessage, delivery: Delivery, code: str) -> None:
        """The "yes": only the person whose memory it is, and only once."""
        lang = msg.lang
        pending = self.actions.get(code)
        if pending is None or pending.get("kind") != KIND:
            delivery.send(text_reply(t("dingtalk_forget_expired", lang)))
            return
        if pending.get("ns") != msg.namespace:
            self.metrics.inc("dingtalk_forget_refused_total")
            delivery.send(text_reply(t("dingtalk_forget_not_yours", lang)))
            return
        if self.actions.take(code) is None:  # another delivery of the same "yes" was first
            delivery.send(text_reply(t("dingtalk_forget_expired", lang)))
            return
        text = remembered.forget_all(
            self.memory, msg.namespace, lang, self.metrics, revocations=self.revocations
        )
        delivery.send(text_reply(text))

    def cancel_forget(self, msg: IncomingMessage, delivery: Delivery) -> None:
        delivery.send(text_reply(t("prefs_forget_cancelled", msg.lang)))

    def help(self, msg: IncomingMessage, delivery: Delivery) -> None:
        delivery.send(text_reply(t("dingtalk_prefs_help", msg.lang)))

    def _private(self, delivery: Delivery, reply: Reply, lang: str) -> None:
        """One-to-one: as is in a one-to-one chat; from a group, privately, and a note there."""
        if not delivery.destination.is_group:
            delivery.send(reply)
            return
        try:
            delivery.send_private(reply)
        except DingTalkError as exc:
            log.warning("could not answer privately (%s)", exc.reason)
            delivery.send(text_reply(t("dingtalk_prefs_private_failed", lang)))
            return
        delivery.send(text_reply(t("dingtalk_prefs_private", lang)))


__all__ = ["FORGET_TTL_SECONDS", "Preferences"]
