"""The composition root: each part of the bot built from what it needs, in one place.

Only the command line (`bot.cli.run`) and the tests' harnesses call this module. A reader
follows a message from here: the transport (`<channel>.http`, the long connection) hands
each event to the channel, the channel to the core's pipeline (`bot.flows.pipeline`),
the pipeline to the flows or the conversation, and the answer back through the channel's
sink and widgets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.flows.pipeline import Flows, Pipeline
from bot.flows.preferences import PreferenceFlows
from bot.flows.trips import TripFlows
from bot.prefs.links import LinkProvider, page_links

if TYPE_CHECKING:
    from bot.deps import Deps
    from bot.dingtalk.channel import DingTalkChannel
    from bot.feishu.api import FeishuAPI
    from bot.feishu.channel import FeishuChannel
    from bot.settings import Settings


def flows(settings: Settings, deps: Deps, *, link: LinkProvider | None = None) -> Flows:
    """The flows every channel's commands and buttons are answered by."""
    preferences = PreferenceFlows(
        memory=deps.memory,
        metrics=deps.metrics,
        claims=deps.claims,
        link=link or page_links(settings),
    )
    trips = TripFlows(trips=deps.trips, admins=deps.admins, metrics=deps.metrics)
    return Flows(preferences=preferences, trips=trips)


def pipeline(settings: Settings, deps: Deps, *, link: LinkProvider | None = None) -> Pipeline:
    """The one path of every channel's events (`bot.flows.pipeline`)."""
    return Pipeline(
        conversation=deps.conversation,
        flows=flows(settings, deps, link=link),
        claims=deps.claims,
        metrics=deps.metrics,
        run_task=deps.pools.run_task,
        default_lang=settings.default_language,
    )


def dingtalk(
    settings: Settings, deps: Deps, *, link: LinkProvider | None = None
) -> DingTalkChannel:
    """The DingTalk channel for `DINGTALK_CLIENT_ID`/`DINGTALK_CLIENT_SECRET`; its
    preferences card links to the web page (`PUBLIC_URL`, `PREFS_LINK_SECRET`) unless
    another `link` provider is given."""
    from bot.dingtalk.api import OpenAPI
    from bot.dingtalk.channel import DingTalkChannel
    from bot.dingtalk.codes import PendingActions
    from bot.dingtalk.timers import Timers

    secret = settings.dingtalk_client_secret
    if not settings.dingtalk_client_id or secret is None:
        raise ValueError("DINGTALK_CLIENT_ID and DINGTALK_CLIENT_SECRET are not set")
    api = OpenAPI(
        client_id=settings.dingtalk_client_id,
        client_secret=secret.get_secret_value(),
        robot_code=settings.dingtalk_robot_code,
        base_url=settings.dingtalk_api_url,
    )
    core = pipeline(settings, deps, link=link)
    return DingTalkChannel(
        api=api,
        codes=PendingActions(client=deps.redis, key_prefix=settings.redis_key_prefix),
        pipeline=core,
        trips=core.flows.trips,
        timers=Timers(deps.pools.notices),
        notices=deps.pools.notices,
        metrics=deps.metrics,
        admin_staff_ids=settings.dingtalk_admin_ids,
        timezone=settings.travel_timezone,
        progress_after=settings.dingtalk_progress_seconds,
        default_lang=settings.default_language,
    )


def feishu(
    settings: Settings,
    deps: Deps,
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
    turns = FeishuTurns(api=api, admin_open_ids=settings.feishu_admins)
    turns.resolve_bot()  # once now; on failure again when messages come
    core = pipeline(settings, deps, link=link)
    return FeishuChannel(
        api=api,
        turns=turns,
        pipeline=core,
        trips=core.flows.trips,
        tasks=deps.pools.tasks,
        notices=deps.pools.notices,
        run_task=deps.pools.run_task,
        reaction=settings.feishu_progress_reaction,
        default_lang=settings.default_language,
        max_age=settings.feishu_max_message_age_seconds,
    )


def slack(
    settings: Settings,
    deps: Deps,
    *,
    socket_mode: bool = False,
    client: Any | None = None,
    link: LinkProvider | None = None,
) -> Any:
    """The Bolt app with every Slack listener (`bot.slack.app.build_app`)."""
    from bot.slack.app import build_app

    return build_app(
        settings, deps, pipeline(settings, deps, link=link), socket_mode=socket_mode, client=client
    )


__all__ = ["dingtalk", "feishu", "flows", "pipeline", "slack"]
