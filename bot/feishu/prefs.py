"""A person's preferences in Feishu: the card `/travel-prefs` and the bot's menu answer.

`/travel-prefs`, 偏好设置 or 我的偏好 (alone in a message), or the bot menu's
`travel_prefs` item, shows the preferences card (`bot.feishu.prefs_card`). In a direct
chat it is the reply; in a group it goes to the person in a direct message (what they
keep is theirs alone), and the group thread only hears that it was sent. Everything here
reads memory or calls Feishu, so it runs on the task pool.

*Edit* needs a link to the web preferences page: the link provider is injected
(namespace and language → URL, or None: then no *Edit* button).
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

from bot.feishu.api import FeishuAPI, FeishuError
from bot.feishu.cards import answer_card
from bot.feishu.incoming import PLATFORM
from bot.feishu.markdown import escape
from bot.feishu.prefs_card import prefs_card
from bot.feishu.sink import reply_uuid
from bot.messages import t
from bot.prefs import remembered
from bot.prefs.links import LinkProvider, no_link
from memory.errors import MemoryEngineError
from memory.lang import Lang

if TYPE_CHECKING:
    from memory.protocol import LongTermMemory

log = logging.getLogger(__name__)

MENU_KEY = "travel_prefs"  # the event key of the bot menu's preferences item
COMMANDS = frozenset({"/travel-prefs", "travel-prefs", "偏好设置", "我的偏好", "/偏好设置"})


def is_prefs_command(text: str) -> bool:
    """Whether a message asks for the preferences card (the command alone, any case)."""
    return re.sub(r"[\s。.!！?？]+$", "", text.strip()).lower() in COMMANDS


class FeishuPreferences:
    """Shows the preferences card (see the module docstring)."""

    def __init__(
        self, *, api: FeishuAPI, memory: LongTermMemory, link: LinkProvider = no_link
    ) -> None:
        self.api = api
        self.memory = memory
        self.link = link

    def card_for(self, tenant: str, open_id: str, lang: Lang) -> dict[str, object]:
        """The preferences card of one person, as memory holds it now."""
        namespace = PLATFORM.key(tenant, open_id)
        try:
            count = len(self.memory.items(namespace))
        except MemoryEngineError:
            return answer_card(t("home_unavailable", lang))
        text = remembered.show(self.memory, namespace, lang, escape=escape)
        try:
            url = self.link(namespace, lang)
        except Exception:  # a link we cannot make is a card without *Edit*
            log.warning("could not make the preferences page link", exc_info=True)
            url = None
        return prefs_card(lang=lang, text=text, owner=open_id, count=count, edit_url=url)

    def answer(
        self,
        *,
        tenant: str,
        open_id: str,
        lang: Lang,
        reply_to: str | None,
        in_group: bool,
    ) -> None:
        """Send the card: as the reply in a direct chat, else to the person directly."""
        card = self.card_for(tenant, open_id, lang)
        key = reply_to or f"menu:{tenant}:{open_id}"
        try:
            if reply_to and not in_group:
                self.api.reply(
                    reply_to, msg_type="interactive", content=card, uuid=reply_uuid(key, "prefs")
                )
                return
            self.api.send(
                open_id,
                id_type="open_id",
                msg_type="interactive",
                content=card,
                uuid=reply_uuid(key, "prefs") if reply_to else None,
            )
            if reply_to:
                notice = answer_card(t("prefs_sent_privately", lang))
                self.api.reply(
                    reply_to,
                    msg_type="interactive",
                    content=notice,
                    uuid=reply_uuid(key, "prefs-note"),
                )
        except FeishuError as exc:
            log.warning("could not send the preferences card (%s)", exc.code)


__all__ = [
    "COMMANDS",
    "MENU_KEY",
    "FeishuPreferences",
    "is_prefs_command",
]
