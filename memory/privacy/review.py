"""A second opinion from the fast model on facts the privacy rules let pass.

Only facts that hold digits (after normalisation, so number words and Chinese numerals
count) are sent. The answer must be strict JSON, `{"sensitive": bool, "category": ...}`
with a known category; anything else, a timeout or an error leaves the rules' verdict
standing (the fact is kept), so the model can only ever refuse more, never less.
"""

from __future__ import annotations

import logging
from typing import Any

import prompts
from memory.llm import complete_json
from memory.privacy.categories import CATEGORIES, Category

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT_SECONDS = 5.0


class LLMPrivacyReviewer:
    """Asks the fast model (JSON mode, short timeout) whether a fact is sensitive."""

    def __init__(
        self, *, client: Any, model: str, timeout: float = DEFAULT_TIMEOUT_SECONDS
    ) -> None:
        self._client = client
        self._model = model
        self._timeout = timeout

    def review(self, text: str) -> Category | None:
        prompt = prompts.render("privacy_review.md", fact=text)
        try:
            answer = complete_json(self._client, self._model, prompt, timeout=self._timeout)
        except Exception as exc:  # timeouts, errors, bad JSON: the rules' verdict stands
            log.warning("privacy review unavailable (%s); the rules decide", type(exc).__name__)
            return None
        return parse_review(answer)


def parse_review(answer: object) -> Category | None:
    """The category of a well-formed "sensitive" answer; None for anything else."""
    if not isinstance(answer, dict) or answer.get("sensitive") is not True:
        return None
    category = answer.get("category")
    for known in CATEGORIES:
        if category == known:
            return known
    log.warning("privacy review answered an unknown category; the rules decide")
    return None


__all__ = ["DEFAULT_TIMEOUT_SECONDS", "LLMPrivacyReviewer", "parse_review"]
