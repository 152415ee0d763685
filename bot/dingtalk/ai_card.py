"""One answer written into DingTalk's AI card as the model writes it.

With an AI card template configured (`DINGTALK_CARD_TEMPLATE_ID`, its Markdown field
`DINGTALK_CARD_CONTENT_KEY`, "content" by default), the answer's first words create a
card instance from the template and deliver it to the chat
(`POST /v1.0/card/instances/createAndDeliver`: the robot's one-to-one space `IM_ROBOT`
of the writer, or the group `IM_GROUP`); what the model writes after that is shown in
the card's field as it comes (`PUT /v1.0/card/streaming`, the whole text so far each
time, so a retried or lost update never shows anything twice), at most every
`flush_seconds` like Slack's streams; `finish` shows the final text with `isFinalize`
and sets the card's `flowStatus` to finished (`PUT /v1.0/card/instances`).

The answer is never lost nor shown twice: when the card cannot be created nothing was
shown and the sink posts the answer as Markdown; when its creation may have reached
DingTalk without an answer (a read error or timeout, a reset after the request) it is not
created again (a second card) nor given up for Markdown (a second answer): the card is
taken as shown, and the updates that follow tell: they land in it when it exists, and
when it does not, the final text cannot be shown and the sink posts the answer (below);
when an update fails the next one
catches up; when the final text cannot be shown (neither by streaming nor by updating
the instance), the card is marked failed with a note that the answer follows, and
`finish` returns False so the sink posts it as Markdown.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from bot.dingtalk.api import DingTalkError, OpenAPI
from bot.dingtalk.delivery import Destination

log = logging.getLogger(__name__)

# The AI card's `flowStatus` (DingTalk's AICardStatus): strings, as every card param.
PROCESSING, INPUTING, FINISHED, FAILED = "1", "2", "3", "5"
CARD_TEXT_LIMIT = 10_000  # characters one card shows; the rest follows as Markdown


@dataclass(frozen=True, slots=True)
class AICardTemplate:
    """The configured AI card: its template id and the Markdown field it streams into."""

    template_id: str
    content_key: str = "content"


class AICard:
    """One answer's AI card (see the module docstring). Not thread-safe: one turn's."""

    def __init__(
        self,
        api: OpenAPI,
        destination: Destination,
        template: AICardTemplate,
        *,
        flush_seconds: float = 0.6,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.api = api
        self.destination = destination
        self.template = template
        self.flush_seconds = flush_seconds
        self.out_track_id = uuid.uuid4().hex
        self._clock = clock
        self.state = "new"  # new, live, off (never shown), done
        self._shown = ""
        self._next = 0.0

    @property
    def due(self) -> bool:
        """Whether `show` would send now (the card may take the next words)."""
        return self.state in ("new", "live") and self._clock() >= self._next

    @property
    def live(self) -> bool:
        """The card is in the chat and its answer not finished yet."""
        return self.state == "live"

    def show(self, text: str, *, now: bool = False) -> None:
        """The whole answer so far: the card is created with its first words, then shows
        what came since, at most every `flush_seconds` (`now`: at once, a step)."""
        text = text[:CARD_TEXT_LIMIT]
        if not text.strip() or not (self.due or (now and self.state in ("new", "live"))):
            return
        if self.state == "new":
            self._start(text)
        elif text != self._shown:
            self._stream(text, finalize=False)
        self._next = self._clock() + self.flush_seconds

    def finish(self, text: str, *, note: str = "") -> bool:
        """Show the final `text` and end the card; False when it could not be shown (the
        card then says `note`, and the caller posts the answer)."""
        if self.state != "live":
            return self.state == "done"
        self.state = "done"
        text = text[:CARD_TEXT_LIMIT]
        key = self.template.content_key
        streamed = self._stream(text, finalize=True)
        try:
            self.api.update_card(self.out_track_id, {key: text, "flowStatus": FINISHED})
        except DingTalkError as exc:
            if not streamed:
                log.warning("could not show an AI card's final text (%s)", exc.reason)
                self._give_up(note)
                return False
            log.info("could not mark an AI card finished (%s)", exc.reason)
        return True

    # -- DingTalk calls ---------------------------------------------------------------------

    def _start(self, text: str) -> None:
        dest = self.destination
        robot = {"robotCode": self.api.robot_code}
        if dest.is_group:
            space = {
                "openSpaceId": f"dtv1.card//IM_GROUP.{dest.conversation_id}",
                "imGroupOpenSpaceModel": {"supportForward": True},
                "imGroupOpenDeliverModel": robot,
            }
        else:
            space = {
                "openSpaceId": f"dtv1.card//IM_ROBOT.{dest.staff_id}",
                "imRobotOpenSpaceModel": {"supportForward": True},
                "imRobotOpenDeliverModel": {"spaceType": "IM_ROBOT", **robot},
            }
        body = {
            "cardTemplateId": self.template.template_id,
            "outTrackId": self.out_track_id,
            "cardData": {"cardParamMap": {self.template.content_key: text, "flowStatus": INPUTING}},
            "callbackType": "STREAM",
            "userIdType": 1,  # staff ids
            **space,
        }
        try:
            self.api.create_and_deliver_card(body)
        except DingTalkError as exc:
            if not exc.maybe_sent:
                log.info("not streaming into an AI card (%s); posting the answer", exc.reason)
                self.state = "off"
                return
            log.warning(
                "an AI card may have been delivered (%s); not creating it again", exc.reason
            )
        self.state = "live"
        self._shown = text

    def _stream(self, text: str, *, finalize: bool) -> bool:
        try:
            self.api.stream_card(
                self.out_track_id,
                self.template.content_key,
                text,
                guid=uuid.uuid4().hex,
                finalize=finalize,
            )
        except DingTalkError as exc:
            log.info("an AI card update failed (%s); the next one catches up", exc.reason)
            return False
        self._shown = text
        return True

    def _give_up(self, note: str) -> None:
        """The card could not show the answer: say so in it (best effort)."""
        params = {self.template.content_key: note or self._shown, "flowStatus": FAILED}
        try:
            self.api.update_card(self.out_track_id, params)
        except DingTalkError as exc:
            log.info("could not mark an AI card failed (%s)", exc.reason)


__all__ = [
    "CARD_TEXT_LIMIT",
    "FAILED",
    "FINISHED",
    "INPUTING",
    "PROCESSING",
    "AICard",
    "AICardTemplate",
]
