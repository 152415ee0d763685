"""Slack's assistant threads (the "Agents & AI Apps" pane): their context and titles.

Which threads are assistant threads the event itself says: the bot's manifest offers the
assistant view, so a reply in a thread of a direct message with the bot is one (as Bolt
reads it too); Slack's answer to the first status of a turn confirms it
(`bot.slack.sink`). No store is asked.

When a person opens the pane, Slack sends `assistant_thread_started` with the thread and
its context: the channel the person had open beside it. `AssistantThreads` keeps that,
and updates it on `assistant_thread_context_changed`, in the process (bounded) and, when
Redis is there, in Redis too, one key per thread
(`{prefix}slack:assistant:{team}:{channel}:{thread_ts}`, with the thread history's TTL),
so every process knows it. A thread gets a title once (`claim_title`: Redis's `SET NX`
across processes, else this process's memory). Redis trouble only costs what another
process learnt: the process's own memory still answers.

`ChannelNames` turns the context's channel id into `<#C123|name>` for the agent
(`conversations.info`, kept ten minutes; the bare `<#C123>` when Slack won't say).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from slack_sdk.web import WebClient

from bot.slack.api import SLACK_ERRORS, slack_error

log = logging.getLogger(__name__)

NAME_TTL_SECONDS = 600.0
_NAMES_KEPT = 5_000
_THREADS_KEPT = 10_000  # threads whose context or title this process remembers


class AssistantThreads:
    """Assistant threads' context and titles (see the module docstring); thread-safe."""

    def __init__(
        self, *, client: Any | None, key_prefix: str = "", ttl_seconds: int = 3 * 86400
    ) -> None:
        self._client = client
        self._prefix = key_prefix
        self.ttl_seconds = ttl_seconds
        self._contexts: OrderedDict[str, dict[str, str]] = OrderedDict()
        self._titled: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

    def key(self, team: str, channel: str, thread_ts: str) -> str:
        return f"{self._prefix}slack:assistant:{team}:{channel}:{thread_ts}"

    def remember(
        self, team: str, channel: str, thread_ts: str, context: Mapping[str, Any] | None
    ) -> None:
        """Keep the thread's context, here and in Redis (Redis errors are logged)."""
        kept = {k: v for k, v in (context or {}).items() if isinstance(v, str) and v}
        key = self.key(team, channel, thread_ts)
        with self._lock:
            _keep(self._contexts, key, kept)
        if self._client is None:
            return
        try:
            self._client.set(key, json.dumps({"context": kept}), ex=self.ttl_seconds)
        except Exception as exc:
            log.warning("could not keep an assistant thread (%s)", type(exc).__name__)

    def context(self, team: str, channel: str, thread_ts: str) -> dict[str, str] | None:
        """The thread's context ({} when none was given); None when it is not known."""
        if not thread_ts:
            return None
        key = self.key(team, channel, thread_ts)
        if self._client is not None:
            try:
                raw = self._client.get(key)
            except Exception as exc:
                log.warning("assistant threads unavailable (%s)", type(exc).__name__)
                raw = None
            if raw is not None:
                return _context(raw)
        with self._lock:
            known = self._contexts.get(key)
        return dict(known) if known is not None else None

    def claim_title(self, team: str, channel: str, thread_ts: str) -> bool:
        """True the first time only: the thread gets its title from its first question."""
        key = self.key(team, channel, thread_ts) + ":titled"
        with self._lock:
            first = key not in self._titled
            _keep(self._titled, key, None)
        if self._client is None:
            return first
        try:
            return bool(self._client.set(key, "1", nx=True, ex=self.ttl_seconds))
        except Exception as exc:
            log.warning("assistant threads unavailable (%s)", type(exc).__name__)
            return first


def _context(raw: Any) -> dict[str, str]:
    """A context kept in Redis ({} when unreadable)."""
    try:
        data = json.loads(raw)
    except ValueError:
        return {}
    context = data.get("context") if isinstance(data, dict) else None
    if not isinstance(context, dict):
        return {}
    return {str(k): str(v) for k, v in context.items()}


def _keep(known: OrderedDict[str, Any], key: str, value: Any) -> None:
    """`known[key] = value`, the oldest entries dropped past `_THREADS_KEPT` (lock held)."""
    known[key] = value
    known.move_to_end(key)
    while len(known) > _THREADS_KEPT:
        known.popitem(last=False)


class ChannelNames:
    """`<#C123|name>` for a channel id (`conversations.info`), kept a while; thread-safe."""

    def __init__(self, ttl_seconds: float = NAME_TTL_SECONDS) -> None:
        self._ttl = ttl_seconds
        self._known: dict[str, tuple[float, str]] = {}
        self._lock = threading.Lock()

    def mention(self, client: WebClient, channel: str) -> str:
        """The channel as the model may write it; asks Slack unless known (it may block)."""
        with self._lock:
            entry = self._known.get(channel)
        if entry is not None and entry[0] > time.monotonic():
            return entry[1]
        mention = f"<#{channel}>"
        try:
            info = client.conversations_info(channel=channel).get("channel") or {}
            name = info.get("name") if isinstance(info, dict) else None
            if isinstance(name, str) and name and "|" not in name and ">" not in name:
                mention = f"<#{channel}|{name}>"
        except SLACK_ERRORS as exc:
            log.info("conversations.info failed (%s); naming the channel by id", slack_error(exc))
        with self._lock:
            if len(self._known) >= _NAMES_KEPT:
                self._known.clear()
            self._known[channel] = (time.monotonic() + self._ttl, mention)
        return mention


__all__ = ["AssistantThreads", "ChannelNames"]
