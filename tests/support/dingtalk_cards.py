"""DingTalk's AI cards, as the fake OpenAPI plays them (`tests.support.dingtalk_api`).

`CardMethods` is mixed into `FakeDingTalkAPI`. A card template is registered with
`add_card_template(template_id, fields=("content", "flowStatus"))`; then:

- `POST /v1.0/card/instances/createAndDeliver` needs a known `cardTemplateId`, a new
  `outTrackId`, `cardData.cardParamMap` whose values are all strings, and an
  `openSpaceId` of the robot's one-to-one space (`dtv1.card//IM_ROBOT.{staffId}`, with
  `imRobotOpenDeliverModel.spaceType` "IM_ROBOT") or of a group
  (`dtv1.card//IM_GROUP.{openConversationId}`, with `imGroupOpenDeliverModel.robotCode`
  the robot's); answered `{"success": true, "result": {"outTrackId", "deliverResults"}}`;
- `PUT /v1.0/card/streaming` (`outTrackId`, `guid`, `key`, `content`, `isFull`,
  `isFinalize`, `isError`) shows the text in the field `key`: the whole text when
  `isFull`, else appended; a field finalized takes no more streaming;
- `PUT /v1.0/card/instances` merges `cardData.cardParamMap` (e.g. `flowStatus`).

An unknown template, card or field, or a malformed body, answers HTTP 400 with
DingTalk's error shape (`{"code": ..., "message": ...}`; the codes are the fake's own).
`cards` lists the cards delivered (`FakeCard`: where, its fields when delivered and as
shown now, every streamed text with its time, its `flowStatus`); steering:
`fail(kind, times, status)` and `rate_limit(kind, times)` with kinds "card_create",
"card_stream", "card_update"; `undeliverable(times)` makes a delivery report
`success: false`; `drop_cards()` forgets every card (a creation that never arrived).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

BAD_PARAMETER = "InvalidParameter"


@dataclass
class FakeCard:
    """One AI card instance in a chat."""

    out_track_id: str
    template_id: str
    space: str  # "IM_ROBOT.{staffId}" or "IM_GROUP.{openConversationId}"
    params: dict[str, str]
    streamed: list[tuple[float, str, str]] = field(default_factory=list)  # (at, key, text)
    finalized: set[str] = field(default_factory=set)
    created: dict[str, str] = field(default_factory=dict)  # its params when delivered

    @property
    def status(self) -> str:
        return self.params.get("flowStatus", "")

    def text(self, key: str = "content") -> str:
        return self.params.get(key, "")


class CardMethods:
    """AI cards for `FakeDingTalkAPI` (which provides `_lock`, `client_id`, `_steered`)."""

    _lock: threading.Condition
    client_id: str

    def _steered(self, kind: str) -> tuple[int, dict[str, Any]] | None:
        raise NotImplementedError

    def _push(self, kind: str, times: int, status: int, body: dict[str, Any]) -> None:
        raise NotImplementedError

    def _init_cards(self) -> None:
        self._templates: dict[str, tuple[str, ...]] = {}
        self._cards: dict[str, FakeCard] = {}

    def add_card_template(
        self, template_id: str, fields: tuple[str, ...] = ("content", "flowStatus")
    ) -> None:
        with self._lock:
            self._templates[template_id] = fields

    @property
    def cards(self) -> list[FakeCard]:
        with self._lock:
            return list(self._cards.values())

    def wait_for_card(self, timeout: float = 10.0) -> FakeCard:
        deadline = time.monotonic() + timeout
        with self._lock:
            while not self._cards:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError("no AI card was delivered")
                self._lock.wait(left)
            return next(iter(self._cards.values()))

    def drop_cards(self) -> None:
        """Forget every card: as if the requests that made them never reached DingTalk."""
        with self._lock:
            self._cards.clear()

    def undeliverable(self, times: int = 1) -> None:
        self._push("card_create", times, 200, {"undeliverable": True})

    # -- the calls ------------------------------------------------------------------------

    def card_call(self, kind: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """Answer one card call of `kind` (the token was checked)."""
        steered = self._steered(kind)
        if steered is not None and not steered[1].get("undeliverable"):
            return steered
        if kind == "card_create":
            return self._create(body, deliverable=steered is None)
        if kind == "card_stream":
            return self._stream(body)
        return self._update(body)

    def _create(self, body: dict[str, Any], *, deliverable: bool) -> tuple[int, dict[str, Any]]:
        template = str(body.get("cardTemplateId") or "")
        track = str(body.get("outTrackId") or "")
        params = (body.get("cardData") or {}).get("cardParamMap")
        space = str(body.get("openSpaceId") or "")
        with self._lock:
            fields = self._templates.get(template)
            known = track in self._cards
        if fields is None:
            return _bad("cardTemplateId", "the card template does not exist")
        if not track or known:
            return _bad("outTrackId", "outTrackId is missing or already used")
        if not isinstance(params, dict) or not all(isinstance(v, str) for v in params.values()):
            return _bad("cardParamMap", "cardParamMap values must be strings")
        kind, _, target = space.removeprefix("dtv1.card//").partition(".")
        if kind == "IM_ROBOT":
            model = body.get("imRobotOpenDeliverModel") or {}
            valid = bool(target) and model.get("spaceType") == "IM_ROBOT"
        elif kind == "IM_GROUP":
            model = body.get("imGroupOpenDeliverModel") or {}
            valid = bool(target) and model.get("robotCode") == self.client_id
        else:
            valid = False
        if not valid:
            return _bad("openSpaceId", "openSpaceId or its deliver model is invalid")
        card = FakeCard(track, template, f"{kind}.{target}", dict(params), created=dict(params))
        if deliverable:
            with self._lock:
                self._cards[track] = card
                self._lock.notify_all()
        outcome = {
            "spaceType": kind,
            "spaceId": target,
            "success": deliverable,
            "errorMsg": "" if deliverable else "deliver failed",
            "carrierId": f"carrier-{track[:8]}",
        }
        result = {"outTrackId": track, "deliverResults": [outcome]}
        return 200, {"success": True, "result": result}

    def _stream(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        track, key = str(body.get("outTrackId") or ""), str(body.get("key") or "")
        content = body.get("content")
        if not body.get("guid") or not isinstance(content, str):
            return _bad("guid", "guid and content are required")
        with self._lock:
            card = self._cards.get(track)
            if card is None:
                return _bad("outTrackId", "the card instance does not exist")
            if key not in self._templates[card.template_id]:
                return _bad("key", "the template has no such field")
            if key in card.finalized:
                return _bad("key", "the field's streaming has finished")
            text = content if body.get("isFull") else card.params.get(key, "") + content
            card.params[key] = text
            card.streamed.append((time.monotonic(), key, text))
            if body.get("isFinalize"):
                card.finalized.add(key)
            self._lock.notify_all()
        return 200, {"success": True, "result": True}

    def _update(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        track = str(body.get("outTrackId") or "")
        params = (body.get("cardData") or {}).get("cardParamMap")
        if not isinstance(params, dict) or not all(isinstance(v, str) for v in params.values()):
            return _bad("cardParamMap", "cardParamMap values must be strings")
        with self._lock:
            card = self._cards.get(track)
            if card is None:
                return _bad("outTrackId", "the card instance does not exist")
            card.params.update(params)
            self._lock.notify_all()
        return 200, {"success": True, "result": True}


def _bad(what: str, message: str) -> tuple[int, dict[str, Any]]:
    return 400, {"code": f"{BAD_PARAMETER}.{what}", "message": message, "requestid": "r"}


__all__ = ["BAD_PARAMETER", "CardMethods", "FakeCard"]
