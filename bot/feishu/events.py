"""Feishu's events, dispatched by `lark-oapi` to the channel's handlers.

`dispatcher(channel, ...)` is the SDK's `EventDispatcherHandler` with every event the bot
subscribes to; the HTTP route and the long connection both feed it:

- `im.message.receive_v1`: a message (`FeishuChannel.on_message`: the core's pipeline);
- `application.bot.menu_v6`: the bot menu (`FeishuChannel.on_menu`);
- `card.action.trigger`: the card buttons (`FeishuChannel.on_card`);
- read receipts, reactions, the bot joining or leaving a chat and a person opening the
  bot's chat are acknowledged and ignored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import lark_oapi as lark

from bot.feishu.incoming import field, text_field

if TYPE_CHECKING:
    from bot.feishu.channel import FeishuChannel

# Events subscribed to for completeness, acknowledged and ignored.
IGNORED = (
    "im.message.message_read_v1",
    "im.message.reaction.created_v1",
    "im.message.reaction.deleted_v1",
    "im.chat.access_event.bot_p2p_chat_entered_v1",
    "im.chat.member.bot.added_v1",
    "im.chat.member.bot.deleted_v1",
)
HANDLED = frozenset(
    {"im.message.receive_v1", "application.bot.menu_v6", "card.action.trigger", *IGNORED}
)


def dispatcher(channel: FeishuChannel, *, encrypt_key: str, verification_token: str) -> Any:
    """The SDK's dispatcher with every handler registered."""
    builder = (
        lark.EventDispatcherHandler.builder(encrypt_key, verification_token)
        .register_p2_im_message_receive_v1(channel.on_message)
        .register_p2_application_bot_menu_v6(channel.on_menu)
        .register_p2_card_action_trigger(channel.on_card)
    )
    for kind in IGNORED:
        builder = builder.register_p2_customized_event(kind, channel.on_ignored)
    return builder.build()


def event_type(body: dict[str, Any]) -> str:
    """The type of a (decrypted) callback body: schema 2.0's header, or v1's event."""
    return text_field(body, "header", "event_type") or str(field(body, "event", "type") or "")


__all__ = ["HANDLED", "IGNORED", "dispatcher", "event_type"]
