"""The chat model behind the agent: one request at a time, streamed, retried, timed.

`Model.complete(messages, schemas, deadline, said)` asks the OpenAI-compatible endpoint
for its next message. Streamed (`stream=True`, the default), the text goes to `said` as
it arrives and tool calls are assembled from their deltas (`bot.agent.completion`);
`stream=False` asks for whole answers, for endpoints that cannot stream. Transient
errors (429, 5xx, timeouts, dropped connections, a stream that ends before the answer
begins) are retried with exponential backoff and jitter, `Retry-After` honoured, within
the turn's deadline. Once part of a request's text was passed on it cannot be taken
back, so a failure after that is not retried: `LLMUnavailable`, like any model that
still cannot answer. `Said` is the answer as the person has been shown it, across the
turn's requests.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import httpx
import openai

from bot.agent.completion import BrokenStream, ModelMessage, StreamReader, from_response
from bot.errors import LLMUnavailable, TurnStopped
from bot.retry import retry_after as parse_retry_after

if TYPE_CHECKING:
    from bot.metrics import Metrics

log = logging.getLogger(__name__)

_RETRYABLE_STATUS = frozenset({408, 409, 425, 429})


class Said:
    """What the person has been shown of the answer so far, passed on to `on_text`.

    Leading blank space is dropped; a step's text after an earlier step's starts a new
    paragraph. A failing `on_text` is logged once and never stops the turn.
    """

    def __init__(
        self, on_text: Callable[[str], None] | None, *, stop: threading.Event | None = None
    ) -> None:
        self._on_text = on_text
        self.stop = stop  # set: the person stopped the turn (the stream is abandoned)
        self._parts: list[str] = []
        self._new_step = False
        self._broken = False

    @property
    def text(self) -> str:
        return "".join(self._parts)

    def step(self) -> None:
        """A new request to the model begins."""
        self._new_step = bool(self._parts)

    def __call__(self, delta: str) -> None:
        if not self._parts:
            delta = delta.lstrip()
            if not delta:
                return
        if self._new_step:
            self._new_step = False
            shown = self.text
            gap = "" if shown.endswith("\n\n") else "\n" if shown.endswith("\n") else "\n\n"
            if gap:
                self._emit(gap)
        self._emit(delta)

    def _emit(self, text: str) -> None:
        self._parts.append(text)
        if self._on_text is None or self._broken:
            return
        try:
            self._on_text(text)
        except Exception as exc:
            self._broken = True
            log.warning("could not pass the answer on as it came (%s)", type(exc).__name__)


class Model:
    """Requests to the chat model, with retries; thread-safe."""

    def __init__(
        self,
        *,
        llm: openai.OpenAI,
        model: str,
        request_timeout_seconds: float = 30.0,
        max_retries: int = 3,
        backoff_seconds: float = 0.5,
        max_backoff_seconds: float = 8.0,
        max_retry_after_seconds: float = 10.0,
        temperature: float | None = None,
        metrics: Metrics | None = None,
        stream: bool = True,
    ) -> None:
        self._completions: Any = llm.with_options(max_retries=0).chat.completions
        self.base_url = str(getattr(llm, "base_url", "")).rstrip("/")  # to name it when down
        self.model = model
        self.request_timeout_seconds = request_timeout_seconds
        self.max_retries = max_retries
        self.backoff_seconds = backoff_seconds
        self.max_backoff_seconds = max_backoff_seconds
        self.max_retry_after_seconds = max_retry_after_seconds
        self.temperature = temperature
        self.metrics = metrics
        self.stream = stream

    def complete(
        self,
        messages: list[dict[str, Any]],
        schemas: list[dict[str, Any]],
        deadline: float,
        said: Said,
        *,
        final: bool = False,
    ) -> ModelMessage:
        """The model's next message; its text goes to `said` as it comes.

        Raises `LLMUnavailable` when the model cannot answer by `deadline`.
        """
        request: dict[str, Any] = {"model": self.model, "messages": messages}
        if schemas:
            request["tools"] = schemas
            if final:
                request["tool_choice"] = "none"
        if self.temperature is not None:
            request["temperature"] = self.temperature
        if self.stream:
            request["stream"] = True
            request["stream_options"] = {"include_usage": True}
        attempt = 0
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise LLMUnavailable(
                    "the model did not answer within the turn's time limit", kind="timeout"
                )
            timeout = min(self.request_timeout_seconds, remaining)
            started = time.monotonic()
            retry_after: float | None = None
            said.step()
            shown = len(said.text)
            try:
                message = self._request(request, timeout, deadline, said, started)
            except openai.APIStatusError as exc:
                self._observe(started, outcome=str(exc.status_code))
                status = exc.status_code
                if status not in _RETRYABLE_STATUS and status < 500:
                    raise LLMUnavailable(
                        f"the model refused the request (HTTP {status})",
                        kind="refused",
                        status=status,
                    ) from exc
                retry_after = parse_retry_after(exc.response.headers)
                reason = f"HTTP {status}"
                cause: Exception = exc
            except (openai.APIConnectionError, httpx.HTTPError, BrokenStream) as exc:
                timed_out = _is_timeout(exc)
                self._observe(started, outcome="timeout" if timed_out else "connection")
                reason = "timeout" if timed_out else "connection error"
                cause = exc
            except openai.APIError as exc:  # an error event in the middle of a stream
                self._observe(started, outcome="stream_error")
                reason = "error in the stream"
                cause = exc
            except (openai.OpenAIError, ValueError) as exc:
                self._observe(started, outcome="invalid")
                raise LLMUnavailable(
                    f"unusable model response ({type(exc).__name__})", kind="unusable"
                ) from exc
            else:
                self._observe(started, outcome="ok")
                return message
            if len(said.text) > shown:  # part of this answer is shown: it cannot be redone
                raise LLMUnavailable(
                    f"the model's answer broke off ({reason})", kind="broke_off"
                ) from cause
            attempt += 1
            if attempt > self.max_retries:
                raise LLMUnavailable(
                    f"the model failed {attempt} times ({reason})",
                    kind="exhausted",
                    attempts=attempt,
                ) from cause
            delay = self._delay(attempt, retry_after)
            if time.monotonic() + delay >= deadline:
                raise LLMUnavailable(
                    f"no time left to retry the model ({reason})", kind="timeout"
                ) from cause
            log.info("model request failed (%s); retry %d in %.2fs", reason, attempt, delay)
            time.sleep(delay)

    def _request(
        self,
        request: dict[str, Any],
        timeout: float,
        deadline: float,
        said: Said,
        started: float,
    ) -> ModelMessage:
        """One request: the streamed answer read to its end (or a whole one)."""
        if not self.stream:
            message = from_response(self._completions.create(**request, timeout=timeout))
            if message.content:
                said(message.content)
            return message
        first: list[float] = []

        def text(delta: str) -> None:
            if not first:
                first.append(time.monotonic() - started)
            said(delta)

        reader = StreamReader(text)
        with self._completions.create(**request, timeout=timeout) as stream:
            for chunk in stream:
                if said.stop is not None and said.stop.is_set():
                    raise TurnStopped("the person stopped the turn")  # closes the stream
                reader.feed(chunk)
                if time.monotonic() > deadline:
                    raise LLMUnavailable(
                        "the model did not finish within the turn's time limit", kind="timeout"
                    )
        if first and self.metrics is not None:
            self.metrics.observe("llm_first_token_seconds", first[0])
        return reader.message()

    def _observe(self, started: float, *, outcome: str) -> None:
        if self.metrics is not None:
            self.metrics.observe("llm_request_seconds", time.monotonic() - started)
            if outcome != "ok":
                self.metrics.inc("llm_errors_total", kind=outcome)

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None and 0 <= retry_after <= self.max_retry_after_seconds:
            return retry_after
        ceiling = min(self.max_backoff_seconds, self.backoff_seconds * 2 ** (attempt - 1))
        return random.uniform(ceiling / 2, ceiling)


def _is_timeout(exc: Exception) -> bool:
    return isinstance(exc, (openai.APITimeoutError, httpx.TimeoutException))


__all__ = ["Model", "Said"]
