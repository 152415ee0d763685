"""How the core reaches people outside the request in hand: a channel as a `Messenger`.

An approval request goes to an approver, and its outcome to the traveller in the thread
where they asked, long after the click that started it. Each channel this process serves
is a `Messenger` (it posts an outcome, drawn by its widgets, to a person or into a thread
it named in a `Request.where`) and is registered with the core's `Messengers` by the
composition root; the flows find the one for a namespace by its platform.

Each post names itself with a `key`, the same every time that logical message is sent
(the approval request and its step): a platform that deduplicates sends by a key of the
caller's uses it, so a post whose answer was lost in transport can be sent again without
showing twice.

A post comes to one of four ends (`Sent`): the platform took it; it did not (it refused
it, or it never left); it refused it for good, since it cannot reach that person or chat
(the bot not in the chat, the person outside the app's availability or gone: the channel
reads its platform's documented codes, the ones its `undelivered` module calls
`unreachable`, and logs what an admin must do), so sending it again is no use; or it
failed after the platform may have taken it (a read error or timeout, a connection reset
after the request) and cannot be sent again safely: *unconfirmed*, which the flows
neither count nor report as any of the others.

A platform that drops a repeat of the same key for a while says how long with a
`resend_window` attribute on its messenger (`resend_window(m)`; none: every send shows):
within it, a post that may have arrived can be sent again with the same key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import unquote

from bot.policy.orgs import user_of

if TYPE_CHECKING:
    from bot.flows.views import Outcome
    from bot.platform import Platform


class Sent(StrEnum):
    """What became of a post (see the module docstring)."""

    DELIVERED = "delivered"
    NOT_DELIVERED = "not_delivered"  # it may go through if sent again later
    UNREACHABLE = "unreachable"  # refused for good: that person or chat cannot be reached
    UNCONFIRMED = "unconfirmed"  # it may have arrived; it is not sent again

    @property
    def missed(self) -> bool:
        """It surely did not arrive (not delivered, or unreachable)."""
        return self in (Sent.NOT_DELIVERED, Sent.UNREACHABLE)


class Messenger(Protocol):
    """What a channel does for approvals: post an outcome to a person, or into a thread."""

    @property
    def platform(self) -> Platform: ...

    def to_person(self, namespace: str, outcome: Outcome, *, key: str) -> Sent:
        """Post `outcome` to the person `namespace` one-to-one; what became of it."""
        ...

    def to_thread(self, where: Mapping[str, Any], outcome: Outcome, *, key: str) -> Sent:
        """Post `outcome` into the thread `where` (the channel's own address, as its
        `Request.where` gave it); what became of it."""
        ...


class Messengers:
    """The channels this process serves, found by a namespace's platform."""

    def __init__(
        self, prefixes: Sequence[str] = (), served: Sequence[Platform] | None = None
    ) -> None:
        """`prefixes`: every platform's there is (served or not), so the namespaces of the
        platform without one can be told apart in a query (`owned`); `served`: the
        platforms some process of this deployment serves (None: not known, taken as all)."""
        self._all: list[Messenger] = []
        self._prefixes = tuple(p for p in prefixes if p)
        self._served = None if served is None else tuple(served)

    def add(self, messenger: Messenger) -> None:
        self._all = [m for m in self._all if m.platform.name != messenger.platform.name]
        self._all.append(messenger)

    def __len__(self) -> int:
        """How many platforms this process serves (0: a command line, a clock)."""
        return len(self._all)

    def of(self, namespace: str) -> Messenger | None:
        """The channel of the platform whose keys `namespace` is one of: by its prefix
        (the one platform without one: by the shape of its namespaces)."""
        unprefixed = None
        for messenger in self._all:
            prefix = messenger.platform.prefix
            if not prefix:
                unprefixed = messenger
            elif namespace.startswith(prefix + ":"):
                return messenger
        if unprefixed is not None and unprefixed.platform.owns(namespace):
            return unprefixed
        return None

    def served_anywhere(self, namespace: str) -> bool:
        """Whether some process (this one or another) serves `namespace`'s platform, so a
        telling left here is taken up there; False: nobody will tell them."""
        if self.of(namespace) is not None or self._served is None:
            return True
        return any(platform.owns(namespace) for platform in self._served)

    def owned(self) -> tuple[list[str], list[str] | None]:
        """The namespaces of the platforms served, as a query can ask: those starting with
        one of the first list ("p:"), and, when the platform without a prefix is served,
        those starting with none of the second (every other platform's prefix); `of` has
        the last word."""
        starting = [m.platform.prefix + ":" for m in self._all if m.platform.prefix]
        served_bare = any(not m.platform.prefix for m in self._all)
        others = sorted({p + ":" for p in self._prefixes} | set(starting))
        return starting, (others if served_bare else None)


def resend_window(messenger: Messenger) -> timedelta:
    """How long `messenger`'s platform drops a repeated send of the same key (zero: it
    shows every send). An attribute only the platforms that have one define."""
    window = getattr(messenger, "resend_window", None)
    return window if isinstance(window, timedelta) else timedelta(0)


def person_id(namespace: str) -> str:
    """The platform's own id of the person `namespace` names (its escapes undone)."""
    return unquote(user_of(namespace))


__all__ = ["Messenger", "Messengers", "Sent", "person_id", "resend_window"]
