"""How the bot may answer a message in a Feishu chat: in its thread, as a plain reply, or
only as a new message in the chat.

Every reply starts in the message's thread (`reply_in_thread`). Some chats refuse that:
Feishu answers 230071 ("The group to which the message belongs does not support reply in
thread") for a chat, and 230072 ("Aggregated messages do not support reply in thread")
for a merged message. The reply then goes as a plain reply; should Feishu refuse that too
for this message (`REPLY_REFUSED`), as a new message in the chat.

`ReplyModes` remembers what a chat (230071) or a message (230072) took, for
`REMEMBER_SECONDS`, so the later replies of an answer, and the next answers in that chat,
go the way that works at once instead of paying the error again. It is a process's
memory, bounded and thread-safe: another process learns it from its own first refusal.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Literal

log = logging.getLogger(__name__)

# Feishu's answers to a reply in a thread that the chat or message does not allow.
CHAT_REFUSES_THREADS = 230071
MESSAGE_REFUSES_THREADS = 230072
THREAD_REFUSED = frozenset({CHAT_REFUSES_THREADS, MESSAGE_REFUSES_THREADS})
# A plain reply refused for the message itself: a new message in the chat still works
# (230054: "This operation is not supported for this message type").
REPLY_REFUSED = THREAD_REFUSED | {230054}
REMEMBER_SECONDS = 3600.0
_KEPT = 10_000

Mode = Literal["thread", "plain", "chat"]  # reply in thread, plain reply, new message
ORDER: tuple[Mode, ...] = ("thread", "plain", "chat")


class ReplyModes:
    """What a chat or a message took last (see the module docstring)."""

    def __init__(
        self,
        *,
        remember_seconds: float = REMEMBER_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.remember_seconds = remember_seconds
        self._clock = clock
        self._known: OrderedDict[str, tuple[float, Mode]] = OrderedDict()
        self._lock = threading.Lock()

    def first(self, chat_id: str | None, message_id: str, *, in_thread: bool = True) -> Mode:
        """The way to try first for a reply to `message_id` in `chat_id` (a new message
        only with a `chat_id`)."""
        now = self._clock()
        modes: list[Mode] = [self._get(f"message:{message_id}", now)]
        if chat_id:
            modes.append(self._get(f"chat:{chat_id}", now))
        if not in_thread:
            modes.append("plain")
        mode = max(modes, key=ORDER.index)
        return "plain" if mode == "chat" and not chat_id else mode

    def after(
        self, chat_id: str | None, message_id: str, mode: Mode, code: int | None
    ) -> Mode | None:
        """Feishu refused `mode` with `code`: the way to try next (None: none is left, or
        the error is not a refusal of the way). The chat (230071) or the message takes
        the next way from now on."""
        refused = THREAD_REFUSED if mode == "thread" else REPLY_REFUSED
        if code not in refused or mode == "chat" or (mode == "plain" and not chat_id):
            return None
        following: Mode = "plain" if mode == "thread" else "chat"
        key = f"chat:{chat_id}" if chat_id and code == CHAT_REFUSES_THREADS else ""
        key = key or f"message:{message_id}"
        with self._lock:
            self._known[key] = (self._clock() + self.remember_seconds, following)
            self._known.move_to_end(key)
            while len(self._known) > _KEPT:
                self._known.popitem(last=False)
        log.info("Feishu refused a reply (%s); trying a %s reply", code, following)
        return following

    def _get(self, key: str, now: float) -> Mode:
        with self._lock:
            found = self._known.get(key)
        return found[1] if found is not None and found[0] > now else "thread"


__all__ = [
    "ORDER",
    "REMEMBER_SECONDS",
    "REPLY_REFUSED",
    "THREAD_REFUSED",
    "Mode",
    "ReplyModes",
]
