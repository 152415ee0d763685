"""Slack's agent sessions (the Agent messaging experience): a turn's status, title and stop.

An app declared as an agent (the manifest's `agent_view`) shows each thread it works in
as a session: `agents.sessions.setStatus` creates it (with a title and the person who
started it) and moves it through `processing` (Slack shows a loading indicator and a
native stop button) and `active`; `agents.sessions.rename` retitles it. `AgentSessions`
makes those calls for the reply sink (`bot.slack.sink`): `processing` when a turn is
accepted, `active` once its reply is out or it was stopped, a new title after a plan's
route.

Apps still on the assistant pane (`assistant_view`) are not agents: Slack refuses the
call there, and the workspace is left alone a while (`UNAVAILABLE_SECONDS`, like
streaming's switch) so those apps keep working as before, one refused call per ten
minutes at most. Every call is best effort and quick: a session is never worth an answer.

The stop button: Slack sends `agent_session_stopped` (the channel, the thread, the
streams it stopped); `bot.slack.listeners.agent` stops the thread's turn for real
(`bot.conversation.turn.Conversation.stop`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, Literal

from slack_sdk.errors import SlackApiError

from bot.slack.api import SLACK_ERRORS, slack_error
from bot.slack.streaming import UNAVAILABLE, WorkspaceSwitch

log = logging.getLogger(__name__)

SessionStatus = Literal["processing", "active", "suspended", "closed"]
TITLE_LIMIT = 200  # characters of a session's title
# What Slack answers an app that is not an agent (still on the assistant pane), beside
# the answers that say a method is unavailable in a workspace.
NOT_AN_AGENT = UNAVAILABLE | {"not_an_agent", "app_not_agent", "invalid_app_type"}


class AgentSessions(WorkspaceSwitch):
    """Agent session calls, per workspace on or off (see the module docstring); thread-safe."""

    def set_status(
        self,
        client: Any,
        *,
        team: str,
        channel: str,
        thread_ts: str,
        status: SessionStatus,
        title: str | None = None,
        user: str | None = None,
    ) -> bool:
        """Create or move the thread's session; False when Slack did not take it."""
        if not self.available(team) or not thread_ts:
            return False
        try:
            client.agents_sessions_setStatus(
                channel_id=channel,
                thread_ts=thread_ts,
                status=status,
                title=_title(title) if title else None,
                initiator_user_id=user,
            )
        except SLACK_ERRORS as exc:
            self._refused(team, exc, "set the agent session's status")
            return False
        return True

    def rename(self, client: Any, *, team: str, channel: str, thread_ts: str, title: str) -> bool:
        """Retitle the thread's session (after a plan's route)."""
        if not self.available(team) or not thread_ts or not title.strip():
            return False
        try:
            client.agents_sessions_rename(
                channel_id=channel, thread_ts=thread_ts, title=_title(title)
            )
        except SLACK_ERRORS as exc:
            self._refused(team, exc, "rename the agent session")
            return False
        return True

    def _refused(self, team: str, exc: Exception, doing: str) -> None:
        error = slack_error(exc)
        if isinstance(exc, SlackApiError) and error in NOT_AN_AGENT:
            log.info("no agent sessions in a workspace (%s)", error)
            self.off(team)
            return
        log.info("could not %s (%s)", doing, error)


class TurnSession:
    """One turn's session: `processing` when it is accepted (queued by the sink on its
    notice pool), retitled after a plan, `active` once the reply is out or it stopped."""

    def __init__(
        self,
        sessions: AgentSessions,
        client: Any,
        *,
        team: str,
        channel: str,
        thread_ts: str,
        title: str,
        user: str,
    ) -> None:
        self.sessions, self.client = sessions, client
        self.team, self.channel, self.thread_ts = team, channel, thread_ts
        self.title, self.user = title, user
        self._opened: Future[bool] | None = None

    def open(self, notify: Callable[..., Future[bool] | None]) -> None:
        """Queue `processing` (through `notify`, the sink's notice pool)."""
        if self.sessions.available(self.team):
            self._opened = notify(self._set, "processing")

    def is_open(self) -> bool:
        """Whether the session was opened (waits for the queued call a little)."""
        opened = self._opened
        if opened is None:
            return False
        try:
            return bool(opened.result(timeout=5))
        except Exception:  # it failed, or Slack is too slow to wait for
            return False

    def rename(self, title: str) -> None:
        if self.is_open():
            self.sessions.rename(
                self.client,
                team=self.team,
                channel=self.channel,
                thread_ts=self.thread_ts,
                title=title,
            )

    def close(self) -> None:
        """Out of `processing`: `active` (once)."""
        opened, self._opened = self.is_open(), None
        if opened:
            self._set("active")

    def _set(self, status: SessionStatus) -> bool:
        return self.sessions.set_status(
            self.client,
            team=self.team,
            channel=self.channel,
            thread_ts=self.thread_ts,
            status=status,
            title=self.title or None,
            user=self.user,
        )


def _title(text: str) -> str:
    title = " ".join(text.replace("*", "").split())
    return title if len(title) <= TITLE_LIMIT else title[: TITLE_LIMIT - 1].rstrip() + "…"


__all__ = ["NOT_AN_AGENT", "TITLE_LIMIT", "AgentSessions", "SessionStatus", "TurnSession"]
