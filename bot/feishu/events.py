"""Feishu's events, dispatched by `lark-oapi` to the bot's handlers.

`dispatcher(...)` is the SDK's `EventDispatcherHandler` with every event the bot
subscribes to; the HTTP route and the long connection both feed it. Each handler runs
on the thread that received the event (the HTTP dispatch pool, or the long connection's
event loop) and only does quick work, so Feishu gets its acknowledgement at once and
never re-sends an event for a slow answer:

- `im.message.receive_v1` (`MessageEvents.on_message`): parsed into an `IncomingMessage`
  (`bot.feishu.incoming`) and handed to `Conversation.accept` with its reply sink; the
  conversation claims it (event id and message id, so a re-sent or replayed event gets
  no second answer) and runs the turn on the agent pool. `/travel-prefs` (偏好设置,
  我的偏好) is claimed the same way and answered on the task pool.
- `application.bot.menu_v6` with the key `travel_prefs`: the preferences card, sent to
  the person directly (task pool).
- `card.action.trigger`: the card buttons (`bot.feishu.actions`).
- Read receipts, reactions, the bot joining or leaving a chat and a person opening the
  bot's chat are acknowledged and ignored.
"""

from __future__ import annotations

import functools
import logging
from typing import TYPE_CHECKING, Any

import lark_oapi as lark

from bot.feishu.incoming import PLATFORM, field, parse_message, text_field
from bot.feishu.prefs import MENU_KEY, FeishuPreferences, is_prefs_command

if TYPE_CHECKING:
    from bot.deps import Deps
    from bot.feishu.actions import CardActions
    from bot.feishu.channel import FeishuChannel
    from bot.settings import Settings

log = logging.getLogger(__name__)

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


class MessageEvents:
    """Messages and the bot menu (see the module docstring)."""

    def __init__(
        self, settings: Settings, deps: Deps, channel: FeishuChannel, prefs: FeishuPreferences
    ) -> None:
        self.settings = settings
        self.deps = deps
        self.channel = channel
        self.prefs = prefs

    def on_message(self, data: Any) -> None:
        deps, channel = self.deps, self.channel
        deps.metrics.inc("feishu_events_total", type="im.message.receive_v1")
        if channel.bot_open_id is None:  # unknown at start-up: ask again (once a minute)
            deps.pools.run_task(channel.refresh_bot)
        parsed = parse_message(
            data,
            bot_open_id=channel.bot_open_id,
            default_lang=self.settings.default_language,
            max_age=self.settings.feishu_max_message_age_seconds,
        )
        if parsed is None:
            deps.metrics.inc("feishu_events_ignored_total", type="im.message.receive_v1")
            return
        msg = parsed.msg
        channel.remember_thread(msg, parsed.thread_id)
        if msg.kind != "thread" and is_prefs_command(msg.text):
            if deps.claims.claim_message(msg):
                answer = functools.partial(
                    self.prefs.answer,
                    tenant=msg.tenant,
                    open_id=msg.user,
                    lang=msg.lang,
                    reply_to=msg.message_id,
                    in_group=parsed.chat_type != "p2p",
                )
                deps.pools.run_task(answer)
            return
        sink = channel.sink(msg, chat_type=parsed.chat_type, notices=deps.pools.notices)
        deps.conversation.accept(msg, sink, channel)

    def on_menu(self, data: Any) -> None:
        deps = self.deps
        deps.metrics.inc("feishu_events_total", type="application.bot.menu_v6")
        tenant = text_field(data, "header", "tenant_key")
        user = text_field(data, "event", "operator", "operator_id", "open_id")
        event_id = text_field(data, "header", "event_id")
        if text_field(data, "event", "event_key") != MENU_KEY or not (tenant and user):
            deps.metrics.inc("feishu_events_ignored_total", type="application.bot.menu_v6")
            return
        if event_id and not deps.claims.claim(f"bot:seen:event:{PLATFORM.key(event_id)}"):
            deps.metrics.inc("feishu_events_duplicate_total", type="menu")
            return
        answer = functools.partial(
            self.prefs.answer,
            tenant=tenant,
            open_id=user,
            lang=self.settings.default_language,
            reply_to=None,
            in_group=True,
        )
        deps.pools.run_task(answer)

    def on_ignored(self, data: Any) -> None:
        kind = text_field(data, "header", "event_type") or "unknown"
        self.deps.metrics.inc("feishu_events_ignored_total", type=kind)


def dispatcher(
    *,
    encrypt_key: str,
    verification_token: str,
    messages: MessageEvents,
    actions: CardActions,
) -> Any:
    """The SDK's dispatcher with every handler registered."""
    builder = (
        lark.EventDispatcherHandler.builder(encrypt_key, verification_token)
        .register_p2_im_message_receive_v1(messages.on_message)
        .register_p2_application_bot_menu_v6(messages.on_menu)
        .register_p2_card_action_trigger(actions)
    )
    for kind in IGNORED:
        builder = builder.register_p2_customized_event(kind, messages.on_ignored)
    return builder.build()


def event_type(body: dict[str, Any]) -> str:
    """The type of a (decrypted) callback body: schema 2.0's header, or v1's event."""
    return text_field(body, "header", "event_type") or str(field(body, "event", "type") or "")


__all__ = ["HANDLED", "IGNORED", "MessageEvents", "dispatcher", "event_type"]
