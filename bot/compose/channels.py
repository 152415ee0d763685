"""Each chat channel built from its own settings and the core's pipeline, and its transport
mounted on the HTTP application. Part of the composition root (`bot.compose`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.compose.core import Core, pipeline
from bot.compose.links import page_links
from bot.prefs.links import LinkProvider

if TYPE_CHECKING:
    from pydantic import SecretStr

    from bot.dingtalk.channel import DingTalkChannel
    from bot.feishu.api import FeishuAPI
    from bot.feishu.channel import FeishuChannel
    from bot.http.app import WebApp
    from bot.http.routes import Intake
    from bot.settings import Settings


def slack(
    settings: Settings,
    core: Core,
    *,
    socket_mode: bool = False,
    client: Any | None = None,
    link: LinkProvider | None = None,
) -> Any:
    """The Bolt app with every Slack listener (`bot.slack.app`; only the channel names the
    SDK's types)."""
    from bot.compose.parts import slot_mapper
    from bot.flows.codes import PendingActions
    from bot.planning.admins import Admins
    from bot.slack.admins import admin_group
    from bot.slack.api import web_client
    from bot.slack.app import build_app
    from bot.slack.assistant import AssistantThreads
    from bot.slack.channel import SlackChannel
    from bot.slack.people import People
    from bot.slack.preferences import Preferences
    from bot.slack.progress import ProgressReaction
    from bot.slack.sessions import AgentSessions
    from bot.slack.streaming import StreamSwitch

    if settings.slack_bot_token is None:
        raise ValueError("SLACK_BOT_TOKEN is not set")
    secret = settings.slack_signing_secret
    if secret is None and not socket_mode:
        raise ValueError("SLACK_SIGNING_SECRET is not set; HTTP mode verifies every request")
    token = settings.slack_bot_token
    client = client or web_client(
        token=token.get_secret_value() if token is not None else None,
        base_url=settings.slack_api_url,
    )
    core_path = pipeline(settings, core, link=link)
    channel = SlackChannel(
        client=client,
        pipeline=core_path,
        notices=core.pools.notices,
        people=People(default=settings.default_language),
        admins=Admins(
            named=settings.admin_user_ids,
            group=admin_group(client, settings.travel_admin_usergroup_id),
        ),
        progress=ProgressReaction(settings.slack_progress_reaction),
        # Slack as an AI app (issue 18): streamed answers and the assistant pane.
        streaming=StreamSwitch(enabled=settings.slack_streaming),
        flush_seconds=settings.slack_stream_flush_seconds,
        assistant=AssistantThreads(
            client=core.redis,
            key_prefix=settings.redis_key_prefix,
            ttl_seconds=settings.thread_history_ttl_seconds,
        ),
        # The Agent messaging experience (issue 24): agent sessions, where the app is one.
        sessions=AgentSessions(),
        # `save trip CODE`, offered under every plan beside its button.
        codes=PendingActions(
            client=core.redis, key_prefix=settings.redis_key_prefix, platform="slack"
        ),
    )
    core.messengers.add(channel)  # approvals reach Slack people through it
    prefs = Preferences(
        memory=core.memory,
        flows=core_path.flows,
        channel=channel,
        run_task=core.pools.run_task,
        mapper=slot_mapper(settings),
        free_text_limit=settings.memory_max_fact_chars,
        link=link or page_links(settings),
    )
    return build_app(
        client=client,
        signing_secret=_plain(secret),
        channel=channel,
        prefs=prefs,
        listeners=core.pools.listeners,
        link_minutes=settings.prefs_link_ttl_minutes,
    )


def mount_slack(web: WebApp, settings: Settings, core: Core, bolt: Any) -> None:
    """`POST /slack/events` (`bot.slack.http`)."""
    from bot.slack.http import EVENTS_PATH, SlackEvents

    secret = _plain(settings.slack_signing_secret)
    web.mount(EVENTS_PATH, SlackEvents(bolt, _intake(settings, core), signing_secret=secret))


def feishu(
    settings: Settings,
    core: Core,
    *,
    api: FeishuAPI | None = None,
    link: LinkProvider | None = None,
) -> FeishuChannel:
    """The Feishu channel for `FEISHU_APP_ID`/`FEISHU_APP_SECRET` (its open API at
    `FEISHU_API_URL`); *Edit* links to the web page unless another `link` is given."""
    from bot.feishu.api import FeishuAPI
    from bot.feishu.channel import FeishuChannel
    from bot.feishu.turns import FeishuTurns

    if not settings.feishu_configured or settings.feishu_app_secret is None:
        raise ValueError("FEISHU_APP_ID and FEISHU_APP_SECRET are not set")
    api = api or FeishuAPI(
        app_id=settings.feishu_app_id,
        app_secret=settings.feishu_app_secret.get_secret_value(),
        base_url=settings.feishu_api_url,
    )
    turns = FeishuTurns(
        api=api, admin_open_ids=settings.feishu_admins, timezone=settings.travel_timezone
    )
    turns.resolve_bot()  # once now; on failure again when messages come
    core_path = pipeline(settings, core, link=link)
    channel = FeishuChannel(
        api=api,
        turns=turns,
        pipeline=core_path,
        trips=core_path.flows.trips,
        tasks=core.pools.tasks,
        notices=core.pools.notices,
        run_task=core.pools.run_task,
        reaction=settings.feishu_progress_reaction,
        default_lang=settings.default_language,
        max_age=settings.feishu_max_message_age_seconds,
    )
    core.messengers.add(channel)  # approvals reach Feishu people through it
    return channel


def mount_feishu(web: WebApp, settings: Settings, core: Core, channel: FeishuChannel) -> None:
    """`POST /feishu/events` (`bot.feishu.http`), with `FEISHU_VERIFICATION_TOKEN`."""
    from bot.feishu.events import dispatcher
    from bot.feishu.http import EVENTS_PATH, FeishuEvents

    token = settings.feishu_verification_token
    if token is None or not token.get_secret_value():
        raise ValueError("FEISHU_VERIFICATION_TOKEN is not set; every callback is verified")
    key = settings.feishu_encrypt_key
    encrypt_key = _plain(key)
    route = FeishuEvents(
        dispatcher(channel, encrypt_key=encrypt_key, verification_token=token.get_secret_value()),
        _intake(settings, core),
        verification_token=token.get_secret_value(),
        encrypt_key=encrypt_key,
    )
    web.mount(EVENTS_PATH, route, methods=("POST",))


def dingtalk(
    settings: Settings, core: Core, *, link: LinkProvider | None = None
) -> DingTalkChannel:
    """The DingTalk channel for `DINGTALK_CLIENT_ID`/`DINGTALK_CLIENT_SECRET`; its
    preferences card links to the web page unless another `link` provider is given."""
    from bot.dingtalk.ai_card import AICardTemplate
    from bot.dingtalk.api import OpenAPI
    from bot.dingtalk.channel import DingTalkChannel
    from bot.dingtalk.timers import Timers
    from bot.flows.codes import PendingActions

    secret = settings.dingtalk_client_secret
    if not settings.dingtalk_client_id or secret is None:
        raise ValueError("DINGTALK_CLIENT_ID and DINGTALK_CLIENT_SECRET are not set")
    api = OpenAPI(
        client_id=settings.dingtalk_client_id,
        client_secret=secret.get_secret_value(),
        robot_code=settings.dingtalk_robot_code,
        base_url=settings.dingtalk_api_url,
    )
    core_path = pipeline(settings, core, link=link)
    channel = DingTalkChannel(
        api=api,
        codes=PendingActions(
            client=core.redis, key_prefix=settings.redis_key_prefix, platform="dingtalk"
        ),
        pipeline=core_path,
        trips=core_path.flows.trips,
        timers=Timers(core.pools.notices),
        notices=core.pools.notices,
        metrics=core.metrics,
        admin_staff_ids=settings.dingtalk_admin_ids,
        timezone=settings.travel_timezone,
        progress_after=settings.dingtalk_progress_seconds,
        default_lang=settings.default_language,
        card=AICardTemplate(settings.dingtalk_card_template_id, settings.dingtalk_card_content_key)
        if settings.dingtalk_card_template_id
        else None,
    )
    core.messengers.add(channel)  # approvals reach DingTalk people through it
    return channel


def mount_dingtalk(web: WebApp, settings: Settings, core: Core, channel: DingTalkChannel) -> None:
    """`POST /dingtalk/events` (`bot.dingtalk.http`)."""
    from bot.dingtalk.http import EVENTS_PATH, DingTalkEvents

    secret = _plain(settings.dingtalk_client_secret)
    web.mount(EVENTS_PATH, DingTalkEvents(channel, _intake(settings, core), app_secret=secret))


def _plain(secret: SecretStr | None) -> str:
    return secret.get_secret_value() if secret is not None else ""


def _intake(settings: Settings, core: Core) -> Intake:
    """What every callback route is given: the core's metrics, the dispatch pool, the
    body limit."""
    from bot.http.routes import Intake

    return Intake(core.metrics, core.pools.dispatch, settings.http_max_body_bytes)


__all__ = ["dingtalk", "feishu", "mount_dingtalk", "mount_feishu", "mount_slack", "slack"]
