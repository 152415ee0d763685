"""The progress reaction on a message the bot is working on.

Added from the notice pool with a client of its own (short timeout, no retries), so a
slow Slack never holds up anything else; taken away once the answer is posted. The
Slack reply sink (`bot.slack.sink`) drives it.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future

from slack_sdk.errors import SlackApiError
from slack_sdk.web import WebClient

log = logging.getLogger(__name__)

TIMEOUT_SECONDS = 2  # the Slack client takes whole seconds


class ProgressReaction:
    """`name` (e.g. hourglass_flowing_sand) on the message; empty name: no reaction."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._lock = threading.Lock()
        self._quick_clients: dict[tuple[str | None, str], WebClient] = {}

    def add(self, client: WebClient, channel: str, ts: str) -> bool:
        """Best effort and quick (notice pool): a failure only costs the reaction.

        True when the reaction is, or may be, on the message: after a timeout Slack may
        still have added it, so the turn tries to take it away all the same.
        """
        if not self.name:
            return False
        try:
            self.quick(client).reactions_add(channel=channel, timestamp=ts, name=self.name)
            return True
        except SlackApiError as exc:
            error = exc.response.get("error")
            log.info("could not add the progress reaction: %s", error)
            return bool(error == "already_reacted")
        except Exception as exc:
            log.info("could not add the progress reaction (%s)", type(exc).__name__)
            return True

    def withdraw(
        self, client: WebClient, channel: str, ts: str, progress: Future[bool] | None
    ) -> None:
        """The answer is posted: drop a reaction not yet added, else take it away.

        A reaction still under way is taken away by the notice thread once it settles
        (within its client timeout), so the agent worker moves on at once.
        """
        if progress is None or progress.cancel():
            return
        progress.add_done_callback(lambda done: self._undo(client, channel, ts, done))

    def _undo(self, client: WebClient, channel: str, ts: str, progress: Future[bool]) -> None:
        if not progress.cancelled() and progress.exception() is None and progress.result():
            self.remove(client, channel, ts)

    def remove(self, client: WebClient, channel: str, ts: str) -> None:
        try:
            client.reactions_remove(channel=channel, timestamp=ts, name=self.name)
        except Exception as exc:
            log.info("could not remove the progress reaction (%s)", type(exc).__name__)

    def quick(self, client: WebClient) -> WebClient:
        """`client` with a short timeout and no retries, for progress (reaction, status)."""
        key = (client.token, client.base_url)
        with self._lock:
            quick = self._quick_clients.get(key)
            if quick is None:
                quick = WebClient(
                    token=client.token,
                    base_url=client.base_url,
                    timeout=TIMEOUT_SECONDS,
                    ssl=client.ssl,
                    proxy=client.proxy,
                    headers=dict(client.headers),
                    logger=client.logger,
                    retry_handlers=[],
                )
                self._quick_clients[key] = quick
            return quick
