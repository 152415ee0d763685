"""A message someone wrote to the bot, as every chat platform hands it to the core.

A channel (`bot.slack`, later `bot.feishu` and `bot.dingtalk`) turns its platform's
events into an `IncomingMessage`: who wrote it, in which workspace, tenant or corp, in
which conversation and thread, its text with mentions written `<@USER_ID>` (the bot's
own mention removed), its language and kind. Nothing else of the platform reaches the
core.

Every per-person and per-thread key comes from one rule, `qualified`: Slack's parts are
joined as they always were (namespace `TEAM:USER`, so memory kept before there was a
second platform stays reachable); any other platform's are prefixed with its name, e.g.
`feishu:TENANT:OPEN_ID` or `dingtalk:CORP:STAFF_ID`. Each part is a platform's id made
safe first (`bot.conversation.namespaces.platform_id`: NFC, a `:` in an id escaped), so
two platforms, or two people of one platform, can never share a namespace, a thread or
a claim.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Literal

from bot.conversation.namespaces import platform_id
from memory.lang import Lang

# Where the message was written: a direct message, a mention of the bot, or a
# follow-up in a thread the bot takes part in (no mention needed there).
Kind = Literal["dm", "mention", "thread"]

SLACK = "slack"  # the platform whose keys carry no prefix (they predate the others)


def qualified(platform: str, *parts: str) -> str:
    """`parts` (ids) joined with ":" into a key of `platform` (see the module docstring)."""
    ids = [platform_id(part) for part in parts]
    return ":".join(ids if platform == SLACK else (platform, *ids))


def in_workspace(namespace: str, platform: str, tenant: str) -> bool:
    """Whether `namespace` is a person's of `tenant` (workspace, tenant or corp) on
    `platform`: what a button or form naming a namespace is checked against, so a click
    on one platform can never reach a namespace of another, or of another workspace."""
    prefix = qualified(platform, tenant, "")
    person = namespace[len(prefix) :]
    return namespace.startswith(prefix) and bool(person) and ":" not in person


@dataclass(frozen=True, slots=True)
class IncomingMessage:
    """One message for the bot, with nothing left of the platform but plain strings."""

    platform: str  # "slack", "feishu", "dingtalk"
    tenant: str  # Slack workspace (team id), Feishu tenant key, DingTalk corp id
    user: str  # the writer's id on the platform
    conversation: str  # the channel, group or direct chat
    thread: str  # the thread's id: its first message's id for a message that starts one
    message_id: str
    text: str  # plain text; mentions as `<@USER_ID>`, the bot's own mention removed
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
        return qualified(self.platform, self.tenant, user)

    @property
    def thread_key(self) -> str:
        """The thread, unique across platforms and workspaces (thread history's key)."""
        return qualified(self.platform, self.tenant, self.conversation, self.thread)

    @property
    def message_key(self) -> str:
        """The message itself, whichever event delivered it (for answering it once)."""
        return qualified(self.platform, self.tenant, self.conversation, self.message_id)

    @property
    def turn_id(self) -> str:
        """A short id of the turn answering this message, for logs and feedback (no text)."""
        return hashlib.sha256(self.message_key.encode()).hexdigest()[:16]

    @property
    def delivery_key(self) -> str | None:
        """The event that delivered it, when the platform names one."""
        return qualified(self.platform, self.delivery_id) if self.delivery_id else None

    @property
    def starts_thread(self) -> bool:
        """True for a top-level message (its thread is the one it starts)."""
        return self.thread == self.message_id


__all__ = ["SLACK", "IncomingMessage", "Kind", "in_workspace", "qualified"]
