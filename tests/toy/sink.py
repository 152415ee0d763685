"""Toy's `ReplySink`: the answer, once complete, and the plan under it, to the outbox;
each step of the work as it starts and ends, and the preferences used before the answer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.conversation.reply import PlanPart, ReplyPart
from bot.conversation.work import Step, Work


class ToySink:
    def __init__(
        self, post: Callable[[dict[str, Any]], None], plan: Callable[[PlanPart], dict[str, Any]]
    ) -> None:
        self._post, self._plan, self._text = post, plan, ""

    def status(self, text: str) -> None:
        self._post({"kind": "status", "text": text})

    def busy(self, text: str) -> None:
        self._post({"kind": "busy", "text": text})

    def step(self, step: Step) -> None:
        self._post({"kind": "step", "id": step.id, "title": step.title, "status": step.status})

    def work(self, work: Work) -> None:
        used = [{"text": u.text, "when": u.when} for u in work.used]
        self._post({"kind": "work", "title": work.used_title, "used": used, "line": work.line()})

    def append(self, markdown: str) -> None:
        self._text += markdown

    def finish(self, parts: Sequence[ReplyPart] = ()) -> None:
        self._post({"kind": "answer", "text": self._text})
        for part in parts:
            if isinstance(part, PlanPart):
                self._post(self._plan(part))

    def fail(self, text: str) -> None:
        self._post({"kind": "failure", "text": text})

    def refuse(self, text: str) -> None:
        self._post({"kind": "refusal", "text": text})

    def close(self) -> None:
        pass


__all__ = ["ToySink"]
