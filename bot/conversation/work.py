"""Showing the work: the steps of a turn, and which remembered preferences it used.

The core says this once, for every channel; a channel only draws it.

- **Steps.** Each time the agent turns to something ("Recalling your preferences",
  "Scoring 25 flights, 27 trains, 19 hotels", "Checking the travel policy"), `Steps`
  ends the step before it and starts a new one, and tells a sink that can show steps
  (`ShowsWork.step`) with a stable id per step; at the end of the turn every step still
  running is complete. The same text, with its "…", is the sink's `activity`
  (`bot.conversation.reply.ShowsActivity`: a status line), so one call feeds both.
- **Preferences used.** With the answer (`ShowsWork.work`, once, before `finish`): every
  step and each remembered preference the turn's recall brought to the model, with when
  it was said, in the person's language and time zone, so a person sees why an option
  scored low and can correct a stale preference. Only a turn that answered is told.

The titles are in the writer's language (`bot.messages`); nothing here names a platform.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from bot.agent.used import UsedPreference
from bot.conversation.reply import ShowsActivity
from bot.messages import t
from memory.lang import Lang

log = logging.getLogger(__name__)

StepStatus = Literal["in_progress", "complete", "error"]
_TRAILING = " .…。．"


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a turn: a stable id, a title in the writer's language, its status."""

    id: str
    title: str
    status: StepStatus


@dataclass(frozen=True, slots=True)
class Work:
    """What the turn did: its steps in order, and the preferences it used."""

    steps: tuple[Step, ...]
    used: tuple[UsedPreference, ...]
    lang: Lang

    @property
    def title(self) -> str:
        """The heading a channel gives the steps ("How I worked on it")."""
        return t("work_title", self.lang)

    @property
    def used_title(self) -> str:
        """The heading of the preferences used ("Preferences I used (3)")."""
        return t("work_used_title", self.lang, n=len(self.used))

    def line(self) -> str:
        """The work in one short line, for a channel with room for no more:
        "Recalling your preferences · Scoring 25 flights · Used: a window seat (said ...)"."""
        parts = [step.title for step in self.steps]
        if self.used:
            parts.append(self.used_line())
        return " · ".join(parts)

    def used_line(self) -> str:
        """The preferences used in one line ("" when none): "Used: a window seat (said
        on 2026-11-03); ..."."""
        if not self.used:
            return ""
        sep = "；" if self.lang == "zh" else "; "
        listed = sep.join(f"{u.text} ({u.when})" for u in self.used)
        return t("work_used_short", self.lang) + listed

    def used_lines(self) -> list[str]:
        """One line per preference used: "a window seat — said on 2026-11-03"."""
        return [f"{u.text} — {u.when}" for u in self.used]


@runtime_checkable
class ShowsWork(Protocol):
    """A sink that can show the turn's steps and the preferences it used (optional).

    `step` is called on the agent pool each time a step starts or ends (the same id
    again with its new status); `work` once, before `finish`, when the turn answered.
    """

    def step(self, step: Step) -> None: ...

    def work(self, work: Work) -> None: ...


class Steps:
    """The steps of one turn, told as they start and end (see the module docstring).

    `__call__(text)` is the agent's progress listener (`ToolContext.progress`).
    Thread-safe; a failing listener is only logged.
    """

    def __init__(
        self,
        lang: Lang,
        *,
        on_step: Callable[[Step], None] | None = None,
        on_activity: Callable[[str], None] | None = None,
    ) -> None:
        self.lang = lang
        self._on_step = on_step
        self._on_activity = on_activity
        self._steps: list[Step] = []
        self._lock = threading.Lock()

    @classmethod
    def shown_by(cls, sink: object, lang: Lang) -> Steps:
        """The steps of a turn answered through `sink`: its `step` and `activity`, if it
        has them (`ShowsWork`, `bot.conversation.reply.ShowsActivity`)."""
        on_step = sink.step if isinstance(sink, ShowsWork) else None
        on_activity = sink.activity if isinstance(sink, ShowsActivity) else None
        return cls(lang, on_step=on_step, on_activity=on_activity)

    def show(self, sink: object, used: Sequence[UsedPreference]) -> None:
        """The turn answered: every step and the preferences used, to a sink that shows
        the work (when there is any)."""
        if isinstance(sink, ShowsWork) and (self.steps or used):
            sink.work(self.work(used))

    @property
    def steps(self) -> tuple[Step, ...]:
        with self._lock:
            return tuple(self._steps)

    def __call__(self, text: str) -> None:
        """A new step begins (the one before it is complete)."""
        title = text.rstrip(_TRAILING) or text
        with self._lock:
            ended = self._end_running("complete")
            if self._steps and self._steps[-1].title == title:
                ended = []  # the same step said again: it goes on
                self._steps[-1] = Step(self._steps[-1].id, title, "in_progress")
                begun = None
            else:
                begun = Step(f"step{len(self._steps) + 1}", title, "in_progress")
                self._steps.append(begun)
        if self._on_activity is not None:  # the status line first, then the step
            try:
                self._on_activity(text)
            except Exception as exc:
                log.warning("could not show what the agent is doing (%s)", type(exc).__name__)
        for step in ended:
            self._tell(step)
        if begun is not None:
            self._tell(begun)

    def end(self, status: StepStatus = "complete") -> None:
        """The turn is over: every step still running ends with `status`."""
        with self._lock:
            ended = self._end_running(status)
        for step in ended:
            self._tell(step)

    def work(self, used: Sequence[UsedPreference]) -> Work:
        return Work(self.steps, tuple(used), self.lang)

    def _end_running(self, status: StepStatus) -> list[Step]:
        ended = []
        for index, step in enumerate(self._steps):
            if step.status == "in_progress":
                self._steps[index] = Step(step.id, step.title, status)
                ended.append(self._steps[index])
        return ended

    def _tell(self, step: Step) -> None:
        if self._on_step is None:
            return
        try:
            self._on_step(step)
        except Exception as exc:
            log.warning("could not show a step (%s)", type(exc).__name__)


__all__ = ["ShowsWork", "Step", "StepStatus", "Steps", "UsedPreference", "Work"]
