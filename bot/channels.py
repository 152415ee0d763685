"""Every chat platform this bot knows, registered once: each channel's `Platform`, and the
terminal console's.

A command line accepts a namespace of any of them (`--user`), and nothing else names
them all: adding a platform is adding its folder and its line here.
"""

from __future__ import annotations

from bot.dingtalk.incoming import PLATFORM as DINGTALK
from bot.feishu.incoming import PLATFORM as FEISHU
from bot.platform import Platform
from bot.slack.incoming import PLATFORM as SLACK

CONSOLE = Platform(
    name="console",
    prefix="local",
    shape=r"[A-Za-z0-9_.-]{1,64}",
    example="local:you (the terminal console)",
    place={"en": "a terminal console", "zh": "终端控制台里"},
    commands={
        "en": "`/prefs` and `/forget` in the console",
        "zh": "控制台里的 `/prefs` 和 `/forget`",
    },
)
CONSOLE_USER = CONSOLE.key("you")  # the console's person, unless `--user` says otherwise

PLATFORMS: tuple[Platform, ...] = (SLACK, FEISHU, DINGTALK, CONSOLE)

__all__ = ["CONSOLE", "CONSOLE_USER", "DINGTALK", "FEISHU", "PLATFORMS", "SLACK"]
