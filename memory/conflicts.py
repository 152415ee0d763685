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

Action = Literal["add", "update", "duplicate"]


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action
    replaces: tuple[str, ...] = ()


class ConflictJudge(Protocol):
    def judge(self, fact: str, candidates: Sequence[MemoryItem]) -> Decision: ...


class LLMConflictJudge:
    """Asks the fast model (JSON mode). Any failure or invalid answer means "add":
    a fact is never dropped because the model misbehaved."""

    def __init__(self, *, client: Any, model: str) -> None:
        self._client = client
        self._model = model

    def judge(self, fact: str, candidates: Sequence[MemoryItem]) -> Decision:
        if not candidates:
            return Decision("add")
        existing = "\n".join(f"{item.id}: {item.text}" for item in candidates)
        prompt = prompts.render("memory_conflict.md", existing=existing, fact=fact)
        try:
            answer = complete_json(self._client, self._model, prompt)
        except Exception as exc:  # timeouts, rate limits, bad JSON: all fall back to "add"
            log.warning("conflict judge unavailable (%s); keeping the fact", type(exc).__name__)
            return Decision("add")
        return _parse(answer, {item.id for item in candidates})


def _parse(answer: object, known: set[str]) -> Decision:
    if not isinstance(answer, dict):
        return Decision("add")
    action = answer.get("action")
    replaces = answer.get("replaces") or []
    if not isinstance(replaces, list):
        replaces = []
    ids = tuple(str(i) for i in replaces if str(i) in known)
    if action == "duplicate":
        return Decision("duplicate", ids[:1])
    if action == "update" and ids:
        return Decision("update", ids)
    return Decision("add")
