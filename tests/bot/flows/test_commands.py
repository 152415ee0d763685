"""The preferences commands a person writes, the same words on every platform."""

from __future__ import annotations

import pytest

from bot.flows.actions import FORGET_PREFS, FORGET_PREFS_NO, PREFS_HELP, SHOW_PREFS
from bot.flows.commands import parse_command


@pytest.mark.parametrize(
    ("text", "action", "lang"),
    [
        ("/travel-prefs", SHOW_PREFS, "zh"),  # the default language
        ("/travel-prefs show", SHOW_PREFS, "en"),
        ("/TRAVEL-PREFS Show!", SHOW_PREFS, "en"),
        ("我的偏好", SHOW_PREFS, "zh"),
        ("偏好设置。", SHOW_PREFS, "zh"),
        ("/偏好设置", SHOW_PREFS, "zh"),
        ("/travel-prefs forget", FORGET_PREFS, "en"),
        ("删除我的偏好", FORGET_PREFS, "zh"),
        ("取消删除偏好", FORGET_PREFS_NO, "zh"),
        ("/travel-prefs cancel", FORGET_PREFS_NO, "en"),
        ("偏好帮助", PREFS_HELP, "zh"),
        ("/travel-prefs whatever", PREFS_HELP, "en"),
    ],
)
def test_commands(text: str, action: str, lang: str) -> None:
    command = parse_command(text, default_lang="zh")
    assert command is not None
    assert (command.action, command.lang) == (action, lang)


@pytest.mark.parametrize(
    "text",
    ["what are my preferences for hotels?", "保存行程", "my travel-prefs please", "偏好设置一下吧"],
)
def test_requests_are_not_commands(text: str) -> None:
    assert parse_command(text) is None
