"""The language the command line speaks to its operator before they have typed a word.

`DEFAULT_LANGUAGE` when it is set (in the environment or `.env`); else the terminal's
locale, read as POSIX reads it (`LC_ALL`, then `LC_MESSAGES`, then `LANG`: the first one
set decides, and a `zh…` locale is Chinese); else `DEFAULT_LANGUAGE`'s default, English.
A Chinese locale whose terminal cannot show the command line's (simplified) Chinese, such
as `zh_TW.Big5`, gets English: its lines would otherwise fail to print, and the verb with
them. Once the person writes, the console follows the language of what they write.
"""

from __future__ import annotations

import codecs
import os
import sys
from collections.abc import Mapping
from typing import TextIO

from bot.settings import Settings
from memory.lang import Lang

LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
# Characters of the command line's Chinese lines that legacy Chinese encodings lack
# (Big5 has no simplified forms); what GB2312, GBK, GB18030 and UTF-8 all show.
_CHINESE_SAMPLE = "没有为记住任何内容删除条记录偏好页应答过期库钉连飞书历试请确认"


def operator_lang(
    settings: Settings,
    environ: Mapping[str, str] | None = None,
    streams: tuple[TextIO, ...] | None = None,
) -> Lang:
    if "default_language" in settings.model_fields_set:
        return settings.default_language
    env = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        value = env.get(name, "").strip()
        if value:
            chinese = value.lower().startswith("zh")
            return "zh" if chinese and _shows_chinese(streams) else "en"
    return settings.default_language


def _shows_chinese(streams: tuple[TextIO, ...] | None) -> bool:
    """Whether standard output and error can print the command line's Chinese."""
    for stream in (sys.stdout, sys.stderr) if streams is None else streams:
        encoding = getattr(stream, "encoding", None) or "utf-8"
        try:
            codecs.encode(_CHINESE_SAMPLE, encoding)
        except (LookupError, UnicodeError):
            return False
    return True


__all__ = ["LOCALE_VARIABLES", "operator_lang"]
