"""Slack's assistant threads (the "Agents & AI Apps" pane), as the bot remembers them.

When a person opens the pane, Slack sends `assistant_thread_started` with the thread and
its context: the channel the person had open beside it. `AssistantThreads` keeps that in
Redis, one key per thread (`{prefix}slack:assistant:{team}:{channel}:{thread_ts}`, with
the thread history's TTL), and updates it on `assistant_thread_context_changed`. A thread
with a key is an assistant thread: its reply shows the agent's status
(`assistant.threads.setStatus`) instead of the progress reaction, and gets a title once
(`claim_title`). Redis trouble only costs these extras: the thread is then answered like
any direct message.

`ChannelNames` turns the context's channel id into `<#C123|name>` for the agent
(`conversations.info`, kept ten minutes; the bare `<#C123>` when Slack won't say).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Mapping
from typing import Any

from slack_sdk.web import WebClient

from bot.slack.api import SLACK_ERRORS, slack_error

log = logging.getLogger(__name__)

NAME_TTL_SECONDS = 600.0
_NAMES_KEPT = 5_000


class AssistantThreads:
    """Assistant threads and their context, in Redis; see the module docstring."""

    def __init__(
        self, *, client: Any | None, key_prefix: str = "", ttl_seconds: int = 3 * 86400
    ) -> None:
        self._client = client
        self._prefix = key_prefix
        self.ttl_seconds = ttl_seconds

    def key(self, team: str, channel: str, thread_ts: str) -> str:
        return f"{self._prefix}slack:assistant:{team}:{channel}:{thread_ts}"

    def remember(
        self, team: str, channel: str, thread_ts: str, context: Mapping[str, Any] | None
    ) -> None:
        """Mark the thread as an assistant thread and keep its context (errors are logged)."""
        if self._client is None:
            return
        kept = {k: v for k, v in (context or {}).items() if isinstance(v, str) and v}
        try:
            self._client.set(
                self.key(team, channel, thread_ts),
                json.dumps({"context": kept}),
                ex=self.ttl_seconds,
            )
        except Exception as exc:
            log.warning("could not keep an assistant thread (%s)", type(exc).__name__)

    def context(self, team: str, channel: str, thread_ts: str) -> dict[str, str] | None:
        """The thread's context ({} when none was given); None for any other thread."""
        if self._client is None or not thread_ts:
            return None
        try:
            raw = self._client.get(self.key(team, channel, thread_ts))
        except Exception as exc:
            log.warning("assistant threads unavailable (%s)", type(exc).__name__)
            return None
        if raw is None:
            return None
        try:
            data = json.loads(raw)
            context = data.get("context") if isinstance(data, dict) else None
        except ValueError:
            return {}
        if not isinstance(context, dict):
            return {}
        return {str(k): str(v) for k, v in context.items()}

    def claim_title(self, team: str, channel: str, thread_ts: str) -> bool:
        """True the first time only: the thread gets its title from its first question."""
        if self._client is None:
            return False
        try:
            key = self.key(team, channel, thread_ts) + ":titled"
            return bool(self._client.set(key, "1", nx=True, ex=self.ttl_seconds))
        except Exception as exc:
            log.warning("assistant threads unavailable (%s)", type(exc).__name__)
            return False


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
