"""The agent's system prompt: the rules in the person's language, dated in their time zone.

The text lives in `prompts/` (`system.{lang}.md`, plus `system_on_behalf.{lang}.md` when a
travel admin plans for a colleague, and `system_viewing.{lang}.md` when the platform says
which channel the person has open beside the chat); this module only fills in today's
date, weekday, time and time zone, so "next Monday" means the traveller's next Monday,
and the platform the person is on with its own commands (`bot.platform.Platform`: the
prompt never names another).
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import prompts
from bot.agent.tools import ToolContext
from bot.platform import words
from memory.lang import Lang

_WEEKDAYS: dict[Lang, tuple[str, ...]] = {
    "en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    "zh": ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日"),
}
# Without a platform (a test, a process that names none): a company chat, the web page.
_PLACE: dict[Lang, str] = {"en": "a company chat", "zh": "公司聊天工具里"}
_COMMANDS: dict[Lang, str] = {"en": "their preferences page", "zh": "偏好设置页面"}


def system_prompt(ctx: ToolContext, now: datetime) -> str:
    """The system prompt in `ctx.lang`, dated in the user's time zone."""
    zone = _zone(ctx.tz)
    local = now.astimezone(zone)
    platform, lang = ctx.platform, ctx.lang
    text = prompts.render(
        f"system.{lang}.md",
        today=local.date().isoformat(),
        weekday=_WEEKDAYS[lang][local.weekday()],
        time=local.strftime("%H:%M"),
        timezone=str(zone),
        place=words(platform.place, lang, _PLACE[lang]) if platform else _PLACE[lang],
        commands=words(platform.commands, lang, _COMMANDS[lang]) if platform else _COMMANDS[lang],
    )
    if ctx.on_behalf_of:
        traveller = ctx.traveller_name or ctx.on_behalf_of
        text += prompts.render(f"system_on_behalf.{ctx.lang}.md", traveller=traveller)
    if ctx.viewing:
        text += prompts.render(f"system_viewing.{ctx.lang}.md", channel=ctx.viewing)
    return text


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


__all__ = ["system_prompt"]
