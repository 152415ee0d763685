"""The language the command line speaks to its operator before they have typed a word.

`DEFAULT_LANGUAGE` when it is set (in the environment or `.env`); else the terminal's
locale, read as POSIX reads it (`LC_ALL`, then `LC_MESSAGES`, then `LANG`: the first one
set decides, and a `zh…` locale is Chinese); else `DEFAULT_LANGUAGE`'s default, English.
Once the person writes, the console follows the language of what they write.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from bot.settings import Settings
from memory.lang import Lang

LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def operator_lang(settings: Settings, environ: Mapping[str, str] | None = None) -> Lang:
    if "default_language" in settings.model_fields_set:
        return settings.default_language
    env = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        value = env.get(name, "").strip()
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return settings.default_language


__all__ = ["LOCALE_VARIABLES", "operator_lang"]
