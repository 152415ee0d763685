"""A channel's reply sink for tests of the core: it writes down what the core asked of it."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.conversation.reply import ReplyPart


@dataclass
class RecordingSink:
    """A channel's reply sink that writes down what the core asked of it."""

    calls: list[tuple[str, Any]] = field(default_factory=list)
    done: threading.Event = field(default_factory=threading.Event)  # set when closed

    def status(self, text: str) -> None:
        self.calls.append(("status", text))

    def busy(self, text: str) -> None:
        self.calls.append(("busy", text))

    def append(self, markdown: str) -> None:
        self.calls.append(("append", markdown))

    def finish(self, parts: Sequence[ReplyPart] = ()) -> None:
        self.calls.append(("finish", tuple(parts)))

    def fail(self, text: str) -> None:
        self.calls.append(("fail", text))

    def refuse(self, text: str) -> None:
        self.calls.append(("refuse", text))

    def close(self) -> None:
        self.calls.append(("close", None))
        self.done.set()

    @property
    def kinds(self) -> list[str]:
        """The calls' names, a run of appends (a streamed answer) counted once."""
        kinds: list[str] = []
        for kind, _ in self.calls:
            if not (kind == "append" and kinds and kinds[-1] == "append"):
                kinds.append(kind)
        return kinds

    @property
    def text(self) -> str:
        """Everything appended, joined."""
        return "".join(value for kind, value in self.calls if kind == "append")


__all__ = ["RecordingSink"]
