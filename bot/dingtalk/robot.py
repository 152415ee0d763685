"""The DingTalk robot: every message it receives, whichever way it came in.

Stream mode (`bot.dingtalk.stream`) and HTTP mode (`bot.dingtalk.http`) hand each robot
message's JSON to `Robot.receive`, which does only quick work and never calls DingTalk:

1. `bot.dingtalk.incoming` parses it (not for the robot: ignored);
2. a sender without a staff id (an external contact) is told politely that the robot
   serves members of the organisation; nothing is remembered;
3. a command (`bot.dingtalk.commands`: preferences, forgetting, saving a trip) is
   claimed once and run on the task pool;
4. anything else goes to the conversation core (`Conversation.accept`), which claims it
   once and runs its turn on the agent pool, answering through the DingTalk sink.

`build_robot(settings, deps)` wires it: the OpenAPI client for `DINGTALK_API_URL`, the
channel, pending button actions in Redis and the preferences link provider.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.dingtalk.actions import PendingActions
from bot.dingtalk.ai_card import AICardTemplate
from bot.dingtalk.api import DingTalkError, OpenAPI
from bot.dingtalk.cards import text_reply
from bot.dingtalk.channel import DingTalkChannel
from bot.dingtalk.commands import Command, parse_command
from bot.dingtalk.incoming import RobotMessage, parse_message
from bot.dingtalk.markdown import answer_markdown
from bot.dingtalk.preferences import Preferences
from bot.dingtalk.timers import Timers
from bot.dingtalk.trips import TripOffers
from bot.messages import t
from bot.prefs.links import LinkProvider, page_links

if TYPE_CHECKING:
    from bot.conversation.incoming import IncomingMessage
    from bot.deps import Deps
    from bot.dingtalk.delivery import Delivery
    from bot.settings import Settings

log = logging.getLogger(__name__)


class Robot:
    """Routes each robot message (see the module docstring)."""

    def __init__(
        self, *, deps: Deps, channel: DingTalkChannel, preferences: Preferences, api: OpenAPI
    ) -> None:
        self.deps = deps
        self.channel = channel
        self.preferences = preferences
        self.api = api
        self.default_lang = deps.settings.default_language

    def receive(self, data: Mapping[str, Any]) -> str:
        """Take one robot message (checked by `message_problem`); what became of it."""
        metrics = self.deps.metrics
        received = parse_message(data, default_lang=self.default_lang)
        if received is None:
            metrics.inc("dingtalk_events_total", outcome="ignored")
            return "ignored"
        outcome = self._route(received)
        metrics.inc("dingtalk_events_total", outcome=outcome)
        return outcome

    def _route(self, received: RobotMessage) -> str:
        deps = self.deps
        delivery = self.channel.delivery(received.destination)
        msg = received.msg
        if msg is None:
            if not deps.claims.claim(f"bot:seen:msg:{received.key}"):
                return "duplicate"
            reply = text_reply(t("dingtalk_external", received.lang))
            self._notify(delivery, reply)
            return "external"
        command = parse_command(msg.text, default_lang=self.default_lang)
        if command is not None:
            if not deps.claims.claim_message(msg):
                return "duplicate"
            msg = dataclasses.replace(msg, lang=command.lang)
            deps.pools.run_task(self._command, command, msg, delivery)
            return f"command_{command.name}"
        channel = self.channel if received.own_corp else self.channel.guest()
        sink = channel.sink(delivery, lang=msg.lang)
        return "accepted" if deps.conversation.accept(msg, sink, channel) else "duplicate"

    def _command(self, command: Command, msg: IncomingMessage, delivery: Delivery) -> None:
        """One command, on the task pool; a reply that cannot be sent is logged."""
        prefs = self.preferences
        try:
            if command.name == "show":
                prefs.show(msg, delivery)
            elif command.name == "forget":
                prefs.ask_forget(msg, delivery)
            elif command.name == "confirm":
                prefs.confirm_forget(msg, delivery, command.code)
            elif command.name == "cancel":
                prefs.cancel_forget(msg, delivery)
            elif command.name == "save":
                text, at_users = answer_markdown(self.channel.offers.save(msg, command.code))
                delivery.send(text_reply(text, at_users))
            else:
                prefs.help(msg, delivery)
        except DingTalkError as exc:
            self.deps.metrics.inc("dingtalk_send_failures_total", kind=f"command_{command.name}")
            log.warning("could not answer a DingTalk command (%s)", exc.reason)

    def _notify(self, delivery: Delivery, reply: Any) -> None:
        def send() -> None:
            try:
                delivery.send(reply)
            except DingTalkError as exc:
                log.warning("could not answer an external contact (%s)", exc.reason)

        try:
            self.deps.pools.notices.submit(send)
        except RuntimeError:
            log.info("not answering an external contact: shutting down")

    def close(self) -> None:
        self.channel.timers.close()
        self.api.close()


def build_robot(
    settings: Settings,
    deps: Deps,
    *,
    preferences_url: LinkProvider | None = None,
) -> Robot:
    """The robot for the configured app (`DINGTALK_CLIENT_ID`/`DINGTALK_CLIENT_SECRET`).

    Its preferences card links to the web page (`PUBLIC_URL`, `PREFS_LINK_SECRET`) unless
    another `preferences_url` provider is given.
    """
    secret = settings.dingtalk_client_secret
    if not settings.dingtalk_client_id or secret is None:
        raise ValueError("DINGTALK_CLIENT_ID and DINGTALK_CLIENT_SECRET are not set")
    api = OpenAPI(
        client_id=settings.dingtalk_client_id,
        client_secret=secret.get_secret_value(),
        robot_code=settings.dingtalk_robot_code,
        base_url=settings.dingtalk_api_url,
    )
    actions = PendingActions(client=deps.redis, key_prefix=settings.redis_key_prefix)
    channel = DingTalkChannel(
        api=api,
        timers=Timers(deps.pools.notices),
        notices=deps.pools.notices,
        metrics=deps.metrics,
        offers=TripOffers(actions=actions, trips=deps.trips, metrics=deps.metrics),
        admin_staff_ids=settings.dingtalk_admin_ids,
        timezone=settings.travel_timezone,
        progress_after=settings.dingtalk_progress_seconds,
        card=AICardTemplate(settings.dingtalk_card_template_id, settings.dingtalk_card_content_key)
        if settings.dingtalk_card_template_id
        else None,
    )
    preferences = Preferences(
        memory=deps.memory,
        actions=actions,
        metrics=deps.metrics,
        preferences_url=preferences_url or page_links(settings),
        revocations=deps.revocations,
    )
    return Robot(deps=deps, channel=channel, preferences=preferences, api=api)


__all__ = ["Robot", "build_robot"]
