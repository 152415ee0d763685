"""What a person asks for with a command or a button, and who asks.

A widget offers buttons as `Action`s: a name (what it does) and a little data (whose
card it is, the trip to save), JSON-friendly so a channel can carry it in its platform's
button (a value, a callback payload, a short code). A channel's parser turns a click or a
command back into a `Request`: the action, who asks (platform, workspace, person), in
which language, the travel admins of their workspace, and the name that claims this
delivery once. The flows answer a `Request` whatever the platform it came from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.planning.admins import NOBODY, Admins
from bot.platform import Platform
from memory.lang import Lang

# The actions of the preferences and trip flows.
SHOW_PREFS = "prefs.show"
PREFS_HELP = "prefs.help"
FORGET_PREFS = "prefs.forget"  # asks first
FORGET_PREFS_YES = "prefs.forget.yes"  # data: {"owner": namespace}
FORGET_PREFS_NO = "prefs.forget.no"  # data: {"owner": namespace}
SAVE_TRIP = "trip.save"  # data: the trip (`bot.flows.trips.encode`); "p": an option picked
# The approval of an out-of-policy choice (`bot.flows.approvals`).
APPROVAL_REASON = "approval.reason"  # data: the form's (`ReasonForm.submit`) and "reason"
APPROVE = "approval.approve"  # data: {"id": request id}
REJECT = "approval.reject"  # data: {"id": request id}
# A button or code this version no longer knows, or one that expired; data {"was": name}.
STALE = "stale"

TRIGGER_TTL_SECONDS = 3600  # longer than a signed request stays valid: a replay finds it


@dataclass(frozen=True)
class Action:
    """A button's meaning: what it asks for, and the data it carries."""

    name: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Request:
    """Someone asking for an action (see the module docstring)."""

    platform: Platform
    tenant: str
    user: str
    action: Action
    lang: Lang = "en"
    admins: Admins = NOBODY  # the travel admins of the asker's workspace
    # The names that claim this delivery once (a trigger, an event, a callback's token:
    # `bot.conversation.replays.request_name`); none when the channel claimed it already.
    once: tuple[str, ...] = ()
    once_ttl: int = TRIGGER_TTL_SECONDS
    # Where the asker is: the channel's own address of the conversation and thread
    # (JSON-friendly), where an approval's outcome is told later; {} when it has none.
    where: Mapping[str, Any] = field(default_factory=dict)

    @property
    def namespace(self) -> str:
        return self.platform.key(self.tenant, self.user)

    @property
    def scope(self) -> str:
        """The asker's workspace, as admin caches and namespaces key it."""
        return self.platform.key(self.tenant)

    def of(self, action: Action) -> Request:
        """This request, asking for `action` instead."""
        return Request(
            self.platform,
            self.tenant,
            self.user,
            action,
            self.lang,
            self.admins,
            self.once,
            self.once_ttl,
            self.where,
        )


__all__ = [
    "APPROVAL_REASON",
    "APPROVE",
    "FORGET_PREFS",
    "FORGET_PREFS_NO",
    "FORGET_PREFS_YES",
    "PREFS_HELP",
    "REJECT",
    "SAVE_TRIP",
    "SHOW_PREFS",
    "STALE",
    "TRIGGER_TTL_SECONDS",
    "Action",
    "Request",
]
