"""CardKit's calls, the cards that stream: part of `FeishuAPI` (`bot.feishu.api`).

A card entity is made from card JSON 2.0 (`create_card`); while its streaming mode is on
its markdown element shows the whole text so far (`set_card_text`), and Feishu types the
new part out; `card_settings` turns streaming mode off (or on again: Feishu closes it by
itself ten minutes after it was last turned on); `replace_card` puts a whole new card
JSON in its place. Every change carries a sequence number, strictly increasing per card,
and a uuid, so a retried change is applied once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import lark_oapi as lark
from lark_oapi.api.cardkit.v1 import (
    Card,
    ContentCardElementRequest,
    ContentCardElementRequestBody,
    CreateCardRequest,
    CreateCardRequestBody,
    SettingsCardRequest,
    SettingsCardRequestBody,
    UpdateCardRequest,
    UpdateCardRequestBody,
)

# A card's streaming mode ended by Feishu: ten minutes after it was turned on (200850),
# or it is off (300309). Turning it on again lets the card stream ten minutes more.
STREAMING_TIMEOUT = 200850
STREAMING_CLOSED = 300309
STREAMING_OFF = frozenset({STREAMING_TIMEOUT, STREAMING_CLOSED})


class CardKitCalls:
    """CardKit's calls; `FeishuAPI` provides `client` and `call`."""

    client: lark.Client
    call: Callable[..., Any]

    def create_card(self, card: Mapping[str, Any]) -> str:
        """A CardKit card entity from card JSON 2.0; its card id."""
        body = CreateCardRequestBody.builder().type("card_json").data(compact_json(card)).build()
        request = CreateCardRequest.builder().request_body(body).build()
        data = self.call("create_card", lambda: self.client.cardkit.v1.card.create(request))
        return str(getattr(data, "card_id", "") or "")

    def set_card_text(
        self,
        card_id: str,
        element_id: str,
        text: str,
        *,
        sequence: int,
        uuid: str,
        patience: float = 30.0,
    ) -> None:
        """Show `text` (the whole text so far) in a streaming card's markdown element."""
        body = (
            ContentCardElementRequestBody.builder()
            .content(text)
            .sequence(sequence)
            .uuid(uuid[:64])
            .build()
        )
        request = (
            ContentCardElementRequest.builder()
            .card_id(card_id)
            .element_id(element_id)
            .request_body(body)
            .build()
        )
        self.call(
            "card_text",
            lambda: self.client.cardkit.v1.card_element.content(request),
            patience=patience,
        )

    def card_settings(
        self, card_id: str, settings: Mapping[str, Any], *, sequence: int, uuid: str
    ) -> None:
        """Change a card's settings (end its streaming mode, or turn it on again)."""
        body = (
            SettingsCardRequestBody.builder()
            .settings(compact_json(settings))
            .sequence(sequence)
            .uuid(uuid[:64])
            .build()
        )
        request = SettingsCardRequest.builder().card_id(card_id).request_body(body).build()
        self.call("card_settings", lambda: self.client.cardkit.v1.card.settings(request))

    def replace_card(
        self, card_id: str, card: Mapping[str, Any], *, sequence: int, uuid: str
    ) -> None:
        """Put a whole new card JSON in the card entity's place (shown to everyone)."""
        content = Card.builder().type("card_json").data(compact_json(card)).build()
        body = (
            UpdateCardRequestBody.builder().card(content).sequence(sequence).uuid(uuid[:64]).build()
        )
        request = UpdateCardRequest.builder().card_id(card_id).request_body(body).build()
        self.call("replace_card", lambda: self.client.cardkit.v1.card.update(request))


def compact_json(value: Mapping[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


__all__ = ["STREAMING_CLOSED", "STREAMING_OFF", "STREAMING_TIMEOUT", "CardKitCalls", "compact_json"]
