"""Retrying a request, read the same way for every server and every channel.

- `retry_after(headers)`: how long a rate-limited server asks us to wait. The model
  endpoint (through `openai`) and Slack's Web API both answer 429 with a `Retry-After`
  header (delta seconds; OpenAI-compatible servers may send `Retry-After-Ms` as well).
  Each caller decides what to do with the answer: the agent waits it out when it is
  short and backs off on its own otherwise; a Slack post waits it out within its
  patience.
- `never_sent(exc)` and `once_more_if_never_sent(...)`: whether a request that failed
  in transport certainly never reached the server, and one retry of exactly those. A
  connection refused, a name that does not resolve, a connect timeout: nothing was
  sent, so sending again cannot post a message twice. A read error, a read timeout or
  a server that hung up after reading: the server may have acted on the request, and
  only an idempotent call (one the platform deduplicates, e.g. by a uuid) may be sent
  again. Every channel's HTTP stack is read: httpx (DingTalk), requests and urllib3
  (Feishu's SDK), urllib (Slack's SDK).
"""

from __future__ import annotations

import logging
import socket
import time
import urllib.error
from collections.abc import Callable, Mapping
from typing import TypeVar

import httpx
from urllib3.exceptions import ConnectTimeoutError  # also NewConnectionError, NameResolutionError

log = logging.getLogger(__name__)

_HEADERS = (("retry-after-ms", 0.001), ("retry-after", 1.0))

# Raised before a byte of the request left: connecting (refused, unresolvable, timed
# out) or waiting for a pooled connection.
_NOT_SENT: tuple[type[BaseException], ...] = (
    httpx.ConnectError,
    httpx.ConnectTimeout,
    httpx.PoolTimeout,
    ConnectTimeoutError,
    ConnectionRefusedError,
    socket.gaierror,
)
NEVER_SENT_BACKOFF = 0.3  # seconds before the one retry of a request that never left

T = TypeVar("T")


def retry_after(headers: Mapping[str, object]) -> float | None:
    """The wait a response asks for, in seconds; None when it names none we can read.

    Header names match in any case; a value may be a string or a list of them (the
    Slack SDK's shape). An HTTP date is not read: the caller backs off on its own.
    """
    found = {str(name).lower(): value for name, value in headers.items()}
    for name, scale in _HEADERS:
        value = found.get(name)
        if isinstance(value, list | tuple):
            value = value[0] if value else None
        if value is None:
            continue
        try:
            return float(str(value)) * scale
        except ValueError:
            continue
    return None


def never_sent(exc: BaseException) -> bool:
    """Whether the request that raised `exc` certainly never reached the server.

    The exception and what it wraps are read (`__cause__`, a `reason`, exceptions among
    its `args`: how requests and urllib3 nest theirs). urllib's `URLError` (not an
    `HTTPError`, which is an answer) is raised only while connecting or writing the
    request, before any answer is read. Anything else (a read error or timeout, a
    server that closed the connection after reading) may have been acted on: False.
    """
    seen: set[int] = set()
    todo: list[BaseException] = [exc]
    while todo:
        current = todo.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, _NOT_SENT):
            return True
        if isinstance(current, urllib.error.URLError) and not isinstance(
            current, urllib.error.HTTPError
        ):
            return True
        nested = [current.__cause__, getattr(current, "reason", None), *current.args]
        todo.extend(e for e in nested if isinstance(e, BaseException))
    return False


def once_more_if_never_sent(
    send: Callable[[], T],
    *,
    what: str,
    backoff: float = NEVER_SENT_BACKOFF,
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """`send()`, and once more after `backoff` seconds if it failed before anything was
    sent (`never_sent`); any other failure, and the retry's, is raised as it is."""
    try:
        return send()
    except Exception as exc:
        if not never_sent(exc):
            raise
        log.info(
            "%s: %s before anything was sent; retrying in %.1f s", what, type(exc).__name__, backoff
        )
    sleep(backoff)
    return send()


__all__ = ["NEVER_SENT_BACKOFF", "never_sent", "once_more_if_never_sent", "retry_after"]
