"""Block Kit for the small views of `/travel-prefs`: loading, notices, and "forget all?".

The loading modal opens at once with a command's trigger (it expires after three
seconds) and is replaced by the form when it is ready; a notice modal says the form
could not be shown or saved; the ephemeral question of `/travel-prefs forget` carries
its owner in both buttons, so only they can answer it.
"""

from __future__ import annotations

from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    MarkdownTextObject,
    SectionBlock,
)
from slack_sdk.models.views import View

from bot.messages import t
from bot.slack.views.blocks import (
    FORGET_ALL_CANCEL_ACTION_ID,
    FORGET_ALL_CONFIRM_ACTION_ID,
    LANGS,
    LOADING_CALLBACK_ID,
    MAX_BUTTON_CHARS,
    MAX_TEXT_CHARS,
    MAX_TITLE_CHARS,
    NOTICE_CALLBACK_ID,
    clip,
    clipped,
    section,
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


def forget_all_prompt(lang: Lang, count: int, owner: str) -> list[Block]:
    """The ephemeral question of `/travel-prefs forget`; the buttons carry the owner."""
    return [
        section(t("prefs_forget_ask", lang, count=count)),
        ActionsBlock(
            block_id="travel_prefs.forget_all",
            elements=[
                ButtonElement(
                    text=clipped("prefs_forget_yes", lang, MAX_BUTTON_CHARS),
                    action_id=FORGET_ALL_CONFIRM_ACTION_ID,
                    value=owner,
                    style="danger",
                ),
                ButtonElement(
                    text=clipped("prefs_cancel", lang, MAX_BUTTON_CHARS),
                    action_id=FORGET_ALL_CANCEL_ACTION_ID,
                    value=owner,
                ),
            ],
        ),
    ]


__all__ = ["forget_all_prompt", "loading_modal", "notice_modal"]
