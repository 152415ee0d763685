"""The Feishu channel factory: `build_feishu(settings, deps)` wires every part of it.

It builds what only Feishu needs: the open API client for `FEISHU_API_URL`
(`bot.feishu.api`), the channel the core asks during a turn (time zones, thread context,
travel admins, the bot's own identity), the preferences card with its link provider,
the card buttons, and the SDK's event dispatcher with every handler. The HTTP route
(`bot.feishu.http`, `POST /feishu/events`) and the long connection
(`bot.feishu.long_connection`, `travel-bot feishu`) both feed that dispatcher.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.feishu.actions import ANSWER_WITHIN, CardActions
from bot.feishu.api import FeishuAPI
from bot.feishu.channel import FeishuChannel
from bot.feishu.events import MessageEvents, dispatcher
from bot.feishu.prefs import FeishuPreferences
from bot.prefs.links import LinkProvider, page_links

if TYPE_CHECKING:
    from bot.deps import Deps
    from bot.settings import Settings


@dataclass
class FeishuApp:
    """Every part of the Feishu channel of one process."""

    api: FeishuAPI
    channel: FeishuChannel
    prefs: FeishuPreferences
    actions: CardActions
    messages: MessageEvents
    dispatcher: Any  # lark_oapi.EventDispatcherHandler


def feishu_api(settings: Settings) -> FeishuAPI:
    """The open API client for `FEISHU_API_URL` with the app's id and secret."""
    if not settings.feishu_configured or settings.feishu_app_secret is None:
        raise ValueError("FEISHU_APP_ID and FEISHU_APP_SECRET are not set")
    return FeishuAPI(
        app_id=settings.feishu_app_id,
        app_secret=settings.feishu_app_secret.get_secret_value(),
        base_url=settings.feishu_api_url,
    )


def build_feishu(
    settings: Settings,
    deps: Deps,
    *,
    api: FeishuAPI | None = None,
    prefs_link: LinkProvider | None = None,
    answer_within: float = ANSWER_WITHIN,
) -> FeishuApp:
    """The Feishu channel of this process (see the module docstring).

    `prefs_link` makes the *Edit* button's link (namespace, language → URL or None; by
    default the web preferences page of `PUBLIC_URL` and `PREFS_LINK_SECRET`);
    `answer_within` is how long a card button's callback waits for its work before
    answering "working on it".
    """
    api = api or feishu_api(settings)
    channel = FeishuChannel(
        api=api,
        admin_open_ids=settings.feishu_admins,
        reaction=settings.feishu_progress_reaction,
        timezone=settings.travel_timezone,
    )
    channel.resolve_bot()  # once now; on failure again when messages come
    prefs = FeishuPreferences(api=api, memory=deps.memory, link=prefs_link or page_links(settings))
    actions = CardActions(deps=deps, api=api, answer_within=answer_within)
    messages = MessageEvents(settings, deps, channel, prefs)
    secret = settings.feishu_encrypt_key
    token = settings.feishu_verification_token
    handler = dispatcher(
        encrypt_key=secret.get_secret_value() if secret is not None else "",
        verification_token=token.get_secret_value() if token is not None else "",
        messages=messages,
        actions=actions,
    )
    return FeishuApp(api, channel, prefs, actions, messages, handler)


__all__ = ["FeishuApp", "build_feishu", "feishu_api"]
