"""Deciding how a new free-text fact relates to the most similar remembered ones."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import prompts
from memory.llm import complete_json
from memory.types import MemoryItem

log = logging.getLogger(__name__)

Action = Literal["add", "update", "unsure", "duplicate"]


@dataclass(frozen=True, slots=True)
class Decision:
    """The model's answer about a new fact: `replaces` are the ids it updates (or may
    update, "unsure", or repeats, "duplicate"); `asked` the ids it was shown."""

    action: Action
    replaces: tuple[str, ...] = ()
    asked: tuple[str, ...] = ()


class ConflictJudge(Protocol):
    def judge(self, fact: str, candidates: Sequence[MemoryItem]) -> Decision | None:
        """The decision, or None when there is no usable answer (the offline rule decides)."""
        ...


class LLMConflictJudge:
    """Asks the fast model (JSON mode). A failure, a timeout or an answer that is not a
    decision about the facts shown gives None: the offline rule decides instead, and a
    fact is never dropped because the model misbehaved."""

    def __init__(self, *, client: Any, model: str) -> None:
        self._client = client
        self._model = model

    def judge(self, fact: str, candidates: Sequence[MemoryItem]) -> Decision | None:
        if not candidates:
            return Decision("add")
        existing = "\n".join(f"{item.id}: {item.text}" for item in candidates)
        prompt = prompts.render("memory_conflict.md", existing=existing, fact=fact)
        try:
            answer = complete_json(self._client, self._model, prompt)
        except Exception as exc:  # timeouts, rate limits, bad JSON: the offline rule decides
            log.warning("conflict judge unavailable (%s); deciding offline", type(exc).__name__)
            return None
        decision = parse_decision(answer, tuple(item.id for item in candidates))
        if decision is None:
            log.warning("conflict judge gave no usable answer; deciding offline")
        return decision


def parse_decision(answer: object, asked: tuple[str, ...]) -> Decision | None:
    """The model's JSON as a decision about the facts `asked` about (None: unusable)."""
    if not isinstance(answer, dict):
        return None
    action = answer.get("action")
    replaces = answer.get("replaces") or []
    if not isinstance(replaces, list):
        return None
    ids = tuple(dict.fromkeys(str(i) for i in replaces if str(i) in asked))
    if action == "add":
        return Decision("add", (), asked)
    if action in ("update", "unsure", "duplicate") and ids:
        return Decision(action, ids[:1] if action == "duplicate" else ids, asked)
    return None
