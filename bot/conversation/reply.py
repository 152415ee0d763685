"""The core's reply to one message: Markdown as a stream, then structured parts as data.

Each channel implements `ReplySink` for one incoming message and renders it with its own
widgets. The core calls, in order:

1. `status(text)` once the message is accepted: show that the bot is working on it (a
   reaction, a "working on it" card). Called on the platform's listener thread, so it
   must return at once: a channel queues any platform call.
   `busy(text)` instead when the bot cannot take the message now (the queue is full or
   the process is stopping); it must return at once as well.
2. On the agent pool, exactly one of:
   - `append(markdown)` any number of times, then `finish(parts)`: the answer, written
     as it comes (each `append` is the next piece of Markdown, a few characters while
     the model streams, the whole answer at once when it cannot), then the structured
     parts under it (a plan with its "Save trip" action). Should the turn fail after
     part of the answer was appended, the kind reply saying why is appended after it
     (as a new paragraph) and `finish(())` follows: what was shown is never taken back;
   - `fail(text)`: no answer, and a short kind reply saying why;
   - `refuse(text)`: the writer may not ask this (planning for a colleague without being
     a travel admin); only the writer sees it.
   While the agent works, a sink that also has `activity(text)` (`ShowsActivity`) hears
   what it is doing, in the writer's language ("Recalling your travel preferences…",
   "Scoring 25 flights…"), before each tool runs; other sinks are never asked. A sink
   that also has `step` and `work` (`bot.conversation.work.ShowsWork`) hears the turn's
   steps and, before `finish`, the preferences the answer used. A turn the person
   stopped ends with `stopped(text)` (`Stoppable`) or `fail(text)`.
3. `close()`, always, last: clean up (take the reaction away).

A channel renders the deltas as its platform can: streamed into one message or card as
they come, or posted once the answer is complete.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

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
    traveller_user: str  # the traveller's user id (a mention: `Platform.mention`)
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


@runtime_checkable
class ShowsActivity(Protocol):
    """A sink that can show what the agent is doing (optional; see the module docstring).

    Called on the agent pool between `status` and the answer's end, any number of times;
    each text replaces the one before.
    """

    def activity(self, text: str) -> None: ...


@runtime_checkable
class Stoppable(Protocol):
    """A sink that shows a stopped turn its own way (optional; else `fail` says it).

    Called on the agent pool instead of `finish`/`fail` when the person stopped the turn:
    end any stream without more of the answer and say it stopped (`text`).
    """

    def stopped(self, text: str) -> None: ...


__all__ = ["PlanPart", "ReplyPart", "ReplySink", "ShowsActivity", "Stoppable"]
