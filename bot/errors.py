"""The bot's exceptions (memory errors live in `memory.errors`)."""

from __future__ import annotations


class BotError(Exception):
    """Base class of errors the bot raises on purpose."""


class LLMUnavailable(BotError):
    """The model could not answer: timeout, rate limit or server error after retries."""


class LLMNotConfigured(BotError):
    """No LLM_MODEL is set."""


class TurnStopped(BotError):
    """The person stopped the turn (a platform's stop button): its work ends, nothing is saved."""
