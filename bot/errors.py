"""The bot's exceptions (memory errors live in `memory.errors`)."""

from __future__ import annotations


class BotError(Exception):
    """Base class of errors the bot raises on purpose."""


class LLMUnavailable(BotError):
    """The model could not answer: timeout, rate limit or server error after retries.

    `str(exc)` is the English detail, for the log. `kind` is what a person is told, in
    their language (`llm_reason_{kind}` in `bot.messages`): "timeout" (no answer in the
    turn's time), "refused" (an HTTP `status` that is not worth retrying), "unusable"
    (an answer that could not be read), "broke_off" (it stopped after part of the answer
    was shown) or "exhausted" (every one of `attempts` tries failed). An "exhausted"
    without its count of tries is told as "timeout": its sentence has no count to give.
    A "refused" without its `status` stays "refused" but is told without one
    (`reason_key`): "HTTP None" names nothing a person or an operator can look up.
    """

    def __init__(
        self,
        detail: str,
        *,
        kind: str = "exhausted",
        status: int | None = None,
        attempts: int | None = None,
    ) -> None:
        super().__init__(detail)
        self.kind = "timeout" if kind == "exhausted" and attempts is None else kind
        self.status = status
        self.attempts = attempts

    @property
    def permanent(self) -> bool:
        """Whether trying again cannot help: the model refused the request (a bad model
        name or key, a request it will not take: an HTTP 4xx other than a rate limit).
        The rest (no answer in time, a rate limit, a server error, no connection, an
        answer cut off or unreadable) may pass."""
        return self.kind == "refused"

    @property
    def told_key(self) -> str:
        """The `bot.messages` key of what a chat platform tells the person: for a
        `permanent` failure, to tell their admin (`llm_refused`), else to try again
        shortly (`llm_unavailable`)."""
        return "llm_refused" if self.permanent else "llm_unavailable"

    @property
    def reason_key(self) -> str:
        """The `bot.messages` key of the sentence saying why, in the person's language."""
        if self.kind == "refused" and self.status is None:
            return "llm_reason_refused_unnamed"
        return f"llm_reason_{self.kind}"


class LLMNotConfigured(BotError):
    """No LLM_MODEL is set."""


class TurnStopped(BotError):
    """The person stopped the turn (a platform's stop button): its work ends, nothing is saved."""
