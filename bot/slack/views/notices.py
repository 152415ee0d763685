"""Block Kit for the small modals of `/travel-prefs`: loading, and notices.

The loading modal opens at once with a command's trigger (it expires after three
seconds) and is replaced by the form when it is ready; a notice modal says the form
could not be shown or saved.
"""

from __future__ import annotations

from slack_sdk.models.blocks import MarkdownTextObject, SectionBlock
from slack_sdk.models.views import View

from bot.messages import t
from bot.slack.views.blocks import (
    LANGS,
    LOADING_CALLBACK_ID,
    MAX_TEXT_CHARS,
    MAX_TITLE_CHARS,
    NOTICE_CALLBACK_ID,
    clip,
    clipped,
)
from memory.lang import Lang


def loading_modal(lang: Lang | None) -> View:
    """Opened at once with the command's trigger, replaced by the form when it is ready.

    `lang` None: the person's language is not known yet (it is looked up meanwhile),
    so the text is in both languages.
    """
    text = t("prefs_loading", lang) if lang else "\n".join(t("prefs_loading", x) for x in LANGS)
    return View(
        type="modal",
        callback_id=LOADING_CALLBACK_ID,
        title=clipped("prefs_title", lang or "en", MAX_TITLE_CHARS),
        close=clipped("prefs_close", lang or "en", MAX_TITLE_CHARS),
        blocks=[SectionBlock(text=MarkdownTextObject(text=text))],
    )


def notice_modal(lang: Lang, text: str) -> View:
    """A modal that only says something (the form could not be shown or saved)."""
    return View(
        type="modal",
        callback_id=NOTICE_CALLBACK_ID,
        title=clipped("prefs_title", lang, MAX_TITLE_CHARS),
        close=clipped("prefs_close", lang, MAX_TITLE_CHARS),
        blocks=[SectionBlock(text=MarkdownTextObject(text=clip(text, MAX_TEXT_CHARS)))],
    )


__all__ = ["loading_modal", "notice_modal"]
