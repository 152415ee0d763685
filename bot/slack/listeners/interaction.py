"""The prelude every button, command and Home listener shares: the core's pipeline steps.

`on(kind, pipeline)` turns `handler(Interaction)` into a Bolt listener that acknowledges
the request at once, reads who acted (workspace and person, whatever the payload's
shape), and hands it to the pipeline's first steps (`Pipeline.admit`: counted
`slack_events_total{type=kind}`, a request that names nobody dropped, and, with
`once=True`, claimed once per `trigger_id`); only then does the handler run, with
everything read once in an `Interaction`. Handlers stay quick (they run on Bolt's
listener pool) and hand slow work to the task pool.

Claimed once: Slack's signature carries no nonce, so a captured slash command or button
click could be replayed as is within the signature's five minutes, but Slack gives every
real one a new, single-use `trigger_id` (claimed by its name,
`bot.conversation.replays.request_name`, as every platform's single-use ids are). A replay
is acknowledged like any request (200, empty) and does nothing else
(`slack_events_duplicate_total{type=kind}`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from slack_bolt import Respond
from slack_bolt.kwargs_injection.args import Args
from slack_sdk.web import WebClient

from bot.conversation.replays import request_name
from bot.flows.actions import Action, Request
from bot.slack.api import person_of
from bot.slack.incoming import PLATFORM

if TYPE_CHECKING:
    from bot.flows.pipeline import Pipeline


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
        return PLATFORM.key(self.team, self.user)

    @property
    def trigger_id(self) -> str:
        return str(self.body.get("trigger_id") or "")

    @property
    def value(self) -> str:
        """The clicked element's value ("" for anything else)."""
        return str(self.action.get("value") or "")


Handler = Callable[[Interaction], None]


def on(
    kind: str, pipeline: Pipeline, *, acknowledge: bool = True, once: bool = False
) -> Callable[[Handler], Any]:
    """Decorator: a Bolt listener running the prelude, then `handler` (module docstring).

    `acknowledge=False` for events, which Bolt acknowledges by itself; `once` handles a
    request once per `trigger_id`.
    """

    def wrap(handler: Handler) -> Callable[[Args], None]:
        def listener(args: Args) -> None:
            if acknowledge:
                args.ack()
            team, user = person_of(args.body)
            request = None
            if team and user:
                trigger = args.body.get("trigger_id")
                claim: tuple[str, ...] = ()
                if once and isinstance(trigger, str) and trigger:
                    claim = (request_name(PLATFORM, PLATFORM.key(team, trigger)),)
                request = Request(PLATFORM, team, user, Action(kind), once=claim)
            if not pipeline.admit(PLATFORM, request, kind=kind):
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


__all__ = ["Handler", "Interaction", "on"]
