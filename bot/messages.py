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
    "llm_not_configured": {
        "en": (
            "I'm not fully set up yet: no language model is configured, so I can't answer. "
            "Please ask whoever runs me to set LLM_MODEL (and OPENAI_BASE_URL / OPENAI_API_KEY)."
        ),
        "zh": (
            "我还没有配置好：没有设置语言模型，暂时无法回答。"
            "请联系管理员设置 LLM_MODEL（以及 OPENAI_BASE_URL / OPENAI_API_KEY）。"
        ),
    },
    "message_too_long": {
        "en": (
            "That message is too long for me ({length} characters). "
            "Please send it again in under {limit} characters."
        ),
        "zh": "这条消息太长了（{length} 个字符），请精简到 {limit} 个字符以内再发一次。",
    },
    "busy": {
        "en": "I'm answering a lot of people right now. Please try again in a minute.",
        "zh": "我现在正在回复很多人，请过一分钟再试。",
    },
    "empty_mention": {
        "en": (
            "Hi! Tell me about a trip you're planning, or a travel preference I should "
            'remember, e.g. "I never take red-eye flights".'
        ),
        "zh": "你好！告诉我你要规划的行程，或者需要我记住的出行偏好，比如“出差只坐高铁一等座”。",
    },
    "prefs_placeholder": {
        "en": (
            "The preferences form is on its way. Meanwhile, just tell me in a message, "
            'e.g. "I prefer aisle seats".'
        ),
        "zh": "偏好设置表单即将上线。现在可以直接发消息告诉我，比如“我喜欢靠过道的座位”。",
    },
}


def lang_of(text: str, default: Lang = "en") -> Lang:
    return detect_lang(text) if text.strip() else default


def t(key: str, lang: str, /, **values: object) -> str:
    """The message `key` in `lang` (English when the language is unknown)."""
    entry = _MESSAGES[key]
    text = entry.get(lang) or entry["en"]
    return text.format(**values) if values else text
