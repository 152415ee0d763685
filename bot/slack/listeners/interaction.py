"""The prelude every button, command and Home listener shares, written once.

`on(kind, metrics)` turns `handler(Interaction)` into a Bolt listener that counts the
request (`slack_events_total{type=kind}`), acknowledges it at once, reads who acted
(workspace and person, whatever the payload's shape) and drops a request that names
neither; only then does the handler run, with everything read once in an `Interaction`.
Handlers stay quick (they run on Bolt's listener pool) and hand slow work to the task
pool.

With `once=claims`, a request is handled once per `trigger_id`: Slack's signature
carries no nonce, so a captured slash command or button click could be replayed as is
within the signature's five minutes, but Slack gives every real one a new, single-use
`trigger_id` (claimed by `bot.conversation.replays.first_request`, as every platform's
single-use ids are). A replay is acknowledged like any request (200, empty) and does
nothing else (`slack_events_duplicate_total{type=kind}`). Every listener that acts
(commands, buttons of messages and of the Home tab) is registered with `once`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from slack_bolt import Respond
from slack_bolt.kwargs_injection.args import Args
from slack_sdk.web import WebClient

from bot.conversation.claims import Claims
from bot.conversation.incoming import SLACK, qualified
from bot.conversation.replays import first_request
from bot.metrics import Metrics
from bot.slack.api import person_of

# Longer than a signed request stays valid (five minutes), so a replay always finds it.
TRIGGER_TTL_SECONDS = 3600


@dataclass(frozen=True, slots=True)
class Interaction:
    """Who acted, and the request's handles, read once for a listener."""

    team: str
    user: str
    client: WebClient
    body: Mapping[str, Any]
    action: Mapping[str, Any]  # the clicked element ({} for commands and events)
    respond: Respond | None  # replies through the request's response_url, when it has one

    @property
    def namespace(self) -> str:
        return qualified(SLACK, self.team, self.user)

    @property
    def trigger_id(self) -> str:
        return str(self.body.get("trigger_id") or "")

    @property
    def value(self) -> str:
        """The clicked element's value ("" for anything else)."""
        return str(self.action.get("value") or "")


Handler = Callable[[Interaction], None]


def on(
    kind: str, metrics: Metrics, *, acknowledge: bool = True, once: Claims | None = None
) -> Callable[[Handler], Any]:
    """Decorator: a Bolt listener running the prelude, then `handler` (module docstring).

    `acknowledge=False` for events, which Bolt acknowledges by itself; `once` handles a
    request once per `trigger_id`.
    """

    def wrap(handler: Handler) -> Callable[[Args], None]:
        def listener(args: Args) -> None:
            metrics.inc("slack_events_total", type=kind)
            if acknowledge:
                args.ack()
            team, user = person_of(args.body)
            if not (team and user):
                return
            trigger = args.body.get("trigger_id")
            if once is not None and isinstance(trigger, str) and trigger:
                request = qualified(SLACK, team, trigger)
                if not first_request(once, SLACK, request, ttl_seconds=TRIGGER_TTL_SECONDS):
                    metrics.inc("slack_events_duplicate_total", type=kind)
                    return
            handler(
                Interaction(
                    team=team,
                    user=user,
                    client=args.client,
                    body=args.body,
                    action=args.action or {},
                    respond=args.respond,
                )
            )

        listener.__name__ = getattr(handler, "__name__", "listener")
        return listener

    return wrap


__all__ = ["TRIGGER_TTL_SECONDS", "Handler", "Interaction", "on"]
