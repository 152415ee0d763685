"""Toy as the core sees it: the pipeline's edge, and the turn's questions."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from bot.conversation.reply import PlanPart
from bot.conversation.threads import Turn
from bot.flows.messengers import Sent
from bot.flows.pipeline import Incoming, Pipeline
from bot.flows.views import Outcome, render
from bot.planning.admins import Admins
from tests.toy.incoming import PLATFORM, parse_click, parse_message
from tests.toy.sink import ToySink
from tests.toy.widgets import ToyWidgets


class Toy:
    platform = PLATFORM

    def __init__(self, *, pipeline: Pipeline, admins: frozenset[str] = frozenset()) -> None:
        self.pipeline = pipeline
        self.admins = Admins(named=admins)
        self.widgets = ToyWidgets()
        self.outbox: list[dict[str, Any]] = []  # what Toy shows its people, in order
        self._lock = threading.Lock()

    # -- the transport's way in ----------------------------------------------------------

    def receive(self, event: dict[str, Any]) -> str:
        return self.pipeline.message(self, event)

    def click(self, event: dict[str, Any]) -> dict[str, Any] | None:
        outcome = self.pipeline.act(PLATFORM, parse_click(event), kind="click")
        return render(self.widgets, outcome.view) if outcome is not None else None

    # -- the pipeline's edge ---------------------------------------------------------------

    def parse(self, event: Any) -> Incoming | None:
        msg = parse_message(event)
        return Incoming(msg) if msg is not None else None

    def channel(self, incoming: Incoming) -> Toy:
        return self

    def sink(self, incoming: Incoming) -> ToySink:
        return ToySink(self.post, self._plan)

    def show(self, incoming: Incoming, outcome: Outcome) -> None:
        self.post(render(self.widgets, outcome.view))

    # -- the turn's questions ----------------------------------------------------------------

    def timezone(self, msg: Any) -> str:
        return "Asia/Shanghai"

    def earlier_turns(self, msg: Any, *, max_turns: int, max_chars: int) -> list[Turn]:
        return []

    # -- approvals: to a person, into a thread -------------------------------------------------

    def to_person(self, namespace: str, outcome: Outcome, *, key: str) -> Sent:
        self.post({**render(self.widgets, outcome.view), "to": namespace})
        return Sent.DELIVERED

    def to_thread(self, where: Mapping[str, Any], outcome: Outcome, *, key: str) -> Sent:
        shown = render(self.widgets, outcome.view)
        self.post({**shown, "chat": where.get("conversation"), "thread": where.get("thread")})
        return Sent.DELIVERED

    def post(self, shown: dict[str, Any]) -> None:
        with self._lock:
            self.outbox.append(shown)

    def _plan(self, part: PlanPart) -> dict[str, Any]:
        return self.widgets.plan(self.pipeline.flows.trips.plan_view(part, PLATFORM))


__all__ = ["Toy"]
