"""The robot's commands: what a person (or a tapped button) writes instead of a request.

DingTalk robots have no slash commands, so these are plain messages, in either
language, matched as a whole (trailing punctuation aside):

| command | English | Chinese |
|---|---|---|
| show preferences | `/travel-prefs`, `/travel-prefs show` | `我的偏好`, `偏好设置` |
| help | `/travel-prefs help` (or anything unknown after it) | `偏好帮助` |
| ask to forget everything | `/travel-prefs forget` | `删除我的偏好` |
| confirm it | `/travel-prefs forget CODE` | `确认删除偏好 CODE` |
| cancel it | `/travel-prefs cancel` | `取消删除偏好` |
| save a planned trip | `save trip CODE`, `/save-trip CODE` | `保存行程 CODE` |

Buttons send the phrase of the person's language (`phrase(...)`), so the answer is in it
too; a bare `/travel-prefs` is answered in `DEFAULT_LANGUAGE`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from memory.lang import Lang

Name = Literal["show", "help", "forget", "confirm", "cancel", "save"]

PREFS = "/travel-prefs"
_CODE = r"([A-Za-z0-9]{8})"
_RULES: tuple[tuple[Name, Lang | None, str], ...] = (
    ("show", None, r"/travel-prefs"),
    ("show", "en", r"/travel-prefs\s+show"),
    ("show", "zh", r"(?:我的偏好|偏好设置|查看我的偏好)"),
    ("help", "zh", r"偏好帮助"),
    ("forget", "en", r"/travel-prefs\s+forget"),
    ("forget", "zh", r"删除我的偏好"),
    ("confirm", "en", r"/travel-prefs\s+forget\s+" + _CODE),
    ("confirm", "zh", r"确认删除偏好\s*" + _CODE),
    ("cancel", "en", r"/travel-prefs\s+cancel"),
    ("cancel", "zh", r"取消删除偏好"),
    ("save", "en", r"(?:/save-trip|save\s+trip)\s+" + _CODE),
    ("save", "zh", r"保存行程\s*" + _CODE),
    ("help", "en", r"/travel-prefs\s+\S.*"),  # help, and anything unknown
)
_PATTERNS = tuple((name, lang, re.compile(rule, re.IGNORECASE)) for name, lang, rule in _RULES)
_PHRASES: dict[tuple[Name, Lang], str] = {
    ("forget", "en"): "/travel-prefs forget",
    ("forget", "zh"): "删除我的偏好",
    ("confirm", "en"): "/travel-prefs forget {code}",
    ("confirm", "zh"): "确认删除偏好 {code}",
    ("cancel", "en"): "/travel-prefs cancel",
    ("cancel", "zh"): "取消删除偏好",
    ("save", "en"): "save trip {code}",
    ("save", "zh"): "保存行程 {code}",
}
_TRAILING = ".。!！ \t"


@dataclass(frozen=True, slots=True)
class Command:
    name: Name
    lang: Lang
    code: str = ""


def parse_command(text: str, *, default_lang: Lang = "en") -> Command | None:
    """The command `text` is, or None when it is a message for the assistant."""
    text = " ".join(text.split()).rstrip(_TRAILING)
    for name, lang, pattern in _PATTERNS:
        match = pattern.fullmatch(text)
        if match:
            code = match.group(1).upper() if match.groups() else ""
            return Command(name, lang or default_lang, code)
    return None


def phrase(name: Name, lang: Lang, code: str = "") -> str:
    """What a button sends for command `name` in `lang`."""
    return _PHRASES[(name, lang)].format(code=code)


__all__ = ["PREFS", "Command", "parse_command", "phrase"]
