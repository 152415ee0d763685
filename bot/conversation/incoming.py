"""A message someone wrote to the bot, as every chat platform hands it to the core.

A channel turns its platform's events into an `IncomingMessage`: who wrote it, in which
workspace, tenant or organisation, in which conversation and thread, its text with
mentions in the platform's markup (`Platform.markup`; the bot's own mention removed), its
language and kind, and the platform it came from (`bot.platform.Platform`). Nothing else
of the platform reaches the core.

Every per-person and per-thread key comes from the platform's one rule (`Platform.key`:
each id made safe first, NFC and a `:` escaped), so two platforms, or two people of one
platform, can never share a namespace, a thread or a claim.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Literal

from bot.platform import Platform
from memory.lang import Lang

# Where the message was written: a direct message, a mention of the bot, or a
# follow-up in a thread the bot takes part in (no mention needed there).
Kind = Literal["dm", "mention", "thread"]


@dataclass(frozen=True, slots=True)
class IncomingMessage:
    """One message for the bot, with nothing left of the platform but plain strings."""

    platform: Platform
    tenant: str  # the workspace, tenant or organisation
    user: str  # the writer's id on the platform
    conversation: str  # the channel, group or direct chat
    thread: str  # the thread's id: its first message's id for a message that starts one
    message_id: str
    text: str  # plain text; mentions in the platform's markup, the bot's own removed
    kind: Kind
    lang: Lang = "en"
    delivery_id: str | None = None  # the platform's event id (repeated by its retries)
    bot_user: str | None = None  # the bot's own user id on the platform

    @property
    def namespace(self) -> str:
        """The writer's memory namespace."""
        return self.namespace_of(self.user)

    def namespace_of(self, user: str) -> str:
        """The memory namespace of `user` in this message's workspace (e.g. a colleague)."""
        return self.platform.key(self.tenant, user)

    @property
    def thread_key(self) -> str:
        """The thread, unique across platforms and workspaces (thread history's key)."""
        return self.platform.key(self.tenant, self.conversation, self.thread)

    @property
    def message_key(self) -> str:
        """The message itself, whichever event delivered it (for answering it once)."""
        return self.platform.key(self.tenant, self.conversation, self.message_id)

    @property
    def turn_id(self) -> str:
        """A short id of the turn answering this message, for logs and feedback (no text)."""
        return hashlib.sha256(self.message_key.encode()).hexdigest()[:16]

    @property
    def delivery_key(self) -> str | None:
        """The event that delivered it, when the platform names one."""
        return self.platform.key(self.delivery_id) if self.delivery_id else None

    @property
    def starts_thread(self) -> bool:
        """True for a top-level message (its thread is the one it starts)."""
        return self.thread == self.message_id


__all__ = ["IncomingMessage", "Kind"]
