"""Every user-facing string, in English and Chinese.

Add a key to `_MESSAGES` with both languages; `t(key, lang, **values)` renders it.
"""

from __future__ import annotations

from memory.lang import Lang, detect_lang

_MESSAGES: dict[str, dict[str, str]] = {
    "llm_unavailable": {
        "en": "Sorry, I can't reach my language model right now. Please try again in a minute.",
        "zh": "抱歉，我现在连不上语言模型，请稍后再试。",
    },
    "memory_unavailable": {
        "en": "Sorry, I couldn't save that right now; nothing was remembered. Please try again.",
        "zh": "抱歉，现在无法保存，这次没有记住任何内容，请稍后再试。",
    },
    "internal_error": {
        "en": "Sorry, something went wrong on my side. Please try again.",
        "zh": "抱歉，我这边出了点问题，请再试一次。",
    },
}


def lang_of(text: str, default: Lang = "en") -> Lang:
    return detect_lang(text) if text.strip() else default


def t(key: str, lang: str, /, **values: object) -> str:
    """The message `key` in `lang` (English when the language is unknown)."""
    entry = _MESSAGES[key]
    text = entry.get(lang) or entry["en"]
    return text.format(**values) if values else text
