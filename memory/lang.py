"""Language detection for the two languages the bot speaks."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

Lang = Literal["zh", "en"]

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def detect_lang(text: str) -> Lang:
    """`zh` when the text contains Chinese characters, otherwise `en`."""
    return "zh" if _CJK.search(text) else "en"


def dominant_lang(texts: Iterable[str], default: Lang = "en") -> Lang:
    """The language most of `texts` are written in (`default` when there are none)."""
    zh = en = 0
    for text in texts:
        if detect_lang(text) == "zh":
            zh += 1
        else:
            en += 1
    if zh == en == 0:
        return default
    return "zh" if zh >= en else "en"
