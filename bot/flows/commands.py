"""The preferences commands a person can write instead of a request, in either language.

A platform without slash commands (or beside them) takes these as plain messages, matched
as a whole (trailing punctuation aside, any case):

| asks to | English | Chinese |
|---|---|---|
| show what is remembered | `/travel-prefs`, `/travel-prefs show` | `我的偏好`, `偏好设置` |
| explain the commands | `/travel-prefs help` (or anything unknown after it) | `偏好帮助` |
| forget everything (asks first) | `/travel-prefs forget` | `删除我的偏好` |
| not forget after all | `/travel-prefs cancel` | `取消删除偏好` |

The answer is in the command's language; a bare `/travel-prefs` in `DEFAULT_LANGUAGE`.
A channel may add commands of its own (a code a button sends) before these.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.flows.actions import FORGET_PREFS, FORGET_PREFS_NO, PREFS_HELP, SHOW_PREFS
from memory.lang import Lang

PREFS = "/travel-prefs"
_RULES: tuple[tuple[str, Lang | None, str], ...] = (
    (SHOW_PREFS, None, r"/?travel-prefs"),
    (SHOW_PREFS, "en", r"/travel-prefs\s+show"),
    (SHOW_PREFS, "zh", r"/?(?:我的偏好|偏好设置|查看我的偏好)"),
    (PREFS_HELP, "zh", r"偏好帮助"),
    (FORGET_PREFS, "en", r"/travel-prefs\s+forget"),
    (FORGET_PREFS, "zh", r"删除我的偏好"),
    (FORGET_PREFS_NO, "en", r"/travel-prefs\s+cancel"),
    (FORGET_PREFS_NO, "zh", r"取消删除偏好"),
)
_HELP = re.compile(r"/travel-prefs\s+\S.*", re.IGNORECASE)  # help, and anything unknown
_PATTERNS = tuple((name, lang, re.compile(rule, re.IGNORECASE)) for name, lang, rule in _RULES)
_TRAILING = re.compile(r"[\s。.!！?？]+$")


@dataclass(frozen=True, slots=True)
class Command:
    """A command: the action it asks for (`bot.flows.actions`), in its language."""

    action: str
    lang: Lang


def tidy(text: str) -> str:
    """`text` as commands are matched: spaces folded, trailing punctuation dropped."""
    return _TRAILING.sub("", " ".join(text.split()))


def parse_command(text: str, *, default_lang: Lang = "en") -> Command | None:
    """The command `text` is, or None when it is a message for the assistant."""
    text = tidy(text)
    for name, lang, pattern in _PATTERNS:
        if pattern.fullmatch(text):
            return Command(name, lang or default_lang)
    if _HELP.fullmatch(text):
        return Command(PREFS_HELP, "en")
    return None


__all__ = ["PREFS", "Command", "parse_command", "tidy"]
