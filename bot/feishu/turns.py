"""Feishu's answers to the conversation's questions (`bot.conversation.turn.Channel`).

`FeishuTurns` answers the core's questions during a turn, and knows who the bot is:

- the writer's time zone: `TRAVEL_TIMEZONE`. Feishu's contact API documents no time
  zone of a person (its user has a work city and a country, neither of them a zone), so
  no call is spent asking;
- a topic thread's earlier messages, for a first mention partway through it: one call
  to the list API (people's text and post messages, tagged with who wrote them; the
  bot's own cards are left out); any failure means no earlier context;
- the travel admins: `FEISHU_ADMIN_OPEN_IDS` (the core's `Admins`);
- the bot's own open_id (`/bot/v3/info`), asked once and again a minute after a
  failure, so its mention can be told from a colleague's (the parser asks it).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from typing import Any

from bot.conversation.incoming import IncomingMessage
from bot.conversation.threads import Turn
from bot.feishu.api import FeishuAPI, FeishuError
from bot.feishu.incoming import body_text, text_field
from bot.planning.admins import Admins

log = logging.getLogger(__name__)

BOT_RETRY_SECONDS = 60.0
_REMEMBERED = 10_000  # threads of recent messages kept in memory


class FeishuTurns:
    """The Feishu side of every turn; see the module docstring."""

    def __init__(
        self,
        *,
        api: FeishuAPI,
        admin_open_ids: frozenset[str] = frozenset(),
        bot_open_id: str | None = None,
        timezone: str = "UTC",
    ) -> None:
        self.api = api
        self.admins = Admins(named=admin_open_ids)
        self._bot = bot_open_id
        self._bot_tried = 0.0
        self._timezone = timezone
        self._threads: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()

    # -- the bot itself -----------------------------------------------------------------

    @property
    def bot_open_id(self) -> str | None:
        """The bot's open_id once known (never asks Feishu: listener threads read it)."""
        return self._bot

    def resolve_bot(self) -> str | None:
        """Ask Feishu for the bot's open_id unless known or asked within the last minute."""
        with self._lock:
            if self._bot or time.monotonic() - self._bot_tried < BOT_RETRY_SECONDS:
                return self._bot
            self._bot_tried = time.monotonic()
        try:
            found = self.api.bot_open_id()
        except FeishuError as exc:
            log.warning("could not read the bot's own identity (%s); retrying later", exc.code)
            return None
        with self._lock:
            self._bot = found or None
        return self._bot

    def refresh_bot(self) -> None:
        """`resolve_bot` for the task pool."""
        self.resolve_bot()

    # -- the core's questions -----------------------------------------------------------

    def timezone(self, msg: IncomingMessage) -> str:
        return self._timezone

    def remember_thread(self, msg: IncomingMessage, thread_id: str | None) -> None:
        """Note the topic thread a message is in, for `earlier_turns`."""
        if not thread_id:
            return
        with self._lock:
            self._threads[msg.message_key] = thread_id
            while len(self._threads) > _REMEMBERED:
                self._threads.popitem(last=False)

    def earlier_turns(self, msg: IncomingMessage, *, max_turns: int, max_chars: int) -> list[Turn]:
        with self._lock:
            thread_id = self._threads.get(msg.message_key)
        if not thread_id or max_turns <= 0:
            return []
        try:
            items = self.api.thread_messages(thread_id)
        except FeishuError as exc:
            log.info("no earlier thread context (%s)", exc.code)
            return []
        turns: list[Turn] = []
        for item in items:
            if text_field(item, "message_id") == msg.message_id:
                break  # the message being answered: what follows came later
            turn = self._turn(item)
            if turn is not None:
                turns.append(turn)
        if len(turns) > max_turns:
            turns = turns[:1] + turns[len(turns) - max_turns + 1 :]
        return [Turn(turn.role, turn.text[:max_chars], turn.user) for turn in turns]

    def _turn(self, item: dict[str, Any]) -> Turn | None:
        if item.get("deleted") or text_field(item, "sender", "sender_type") != "user":
            return None
        content = text_field(item, "body", "content")
        text = body_text(text_field(item, "msg_type"), content, item.get("mentions"), self._bot)
        user = text_field(item, "sender", "id")
        return Turn("user", text, user) if text and user else None


__all__ = ["FeishuTurns"]
