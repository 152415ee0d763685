"""The core's reply to one message: Markdown as a stream, then structured parts as data.

Each channel implements `ReplySink` for one incoming message and renders it with its own
widgets. The core calls, in order:

1. `status(text)` once the message is accepted: show that the bot is working on it
   (Slack: a reaction). Called on the platform's listener thread, so it must return at
   once: a channel queues any platform call.
   `busy(text)` instead when the bot cannot take the message now (the queue is full or
   the process is stopping); it must return at once as well.
2. On the agent pool, when the turn is over, exactly one of:
   - `append(markdown)` any number of times, then `finish(parts)`: the answer, written
     as it comes (today the whole answer arrives in one `append`), then the structured
     parts under it (a plan with its "Save trip" action);
   - `fail(text)`: no answer, and a short kind reply saying why;
   - `refuse(text)`: the writer may not ask this (planning for a colleague without being
     a travel admin); only the writer sees it.
3. `close()`, always, last: clean up (Slack: take the reaction away).

Today's Slack sink buffers the stream and posts once. Slack's chat streaming, Feishu's
card streaming and DingTalk's AI cards implement the same protocol, each rendering the
deltas as they come.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.planning.plan import PlannedTrip
from memory.lang import Lang


@dataclass(frozen=True, slots=True)
class PlanPart:
    """A trip the answer planned, with its scored candidates (`trip.candidates`).

    A channel shows the route, says when the plan came from demo data and, for a
    colleague's plan, whose preferences were used; it offers a "Save trip" action unless
    the trip is `saved` already (an admin's plan for a colleague is saved at once).
    """

    trip: PlannedTrip
    traveller: str  # the traveller's namespace: whose trip it is
    traveller_user: str  # the traveller's user id, for `<@USER_ID>`
    requester: str  # the writer's user id
    lang: Lang
    saved: bool = False


ReplyPart = PlanPart


class ReplySink(Protocol):
    """Where the core writes its reply to one message (see the module docstring)."""

    def status(self, text: str) -> None: ...

    def busy(self, text: str) -> None: ...

    def append(self, markdown: str) -> None: ...

    def finish(self, parts: Sequence[ReplyPart] = ()) -> None: ...

    def fail(self, text: str) -> None: ...

    def refuse(self, text: str) -> None: ...

    def close(self) -> None: ...


__all__ = ["PlanPart", "ReplyPart", "ReplySink"]
