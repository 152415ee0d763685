"""The Block Kit vocabulary of the Slack app: every id, Slack's limits, small builders.

Every `callback_id`, `action_id` and `block_id` of `/travel-prefs`, the preferences
modal and the Home tab is a constant here, so listeners and views agree on them; every
view stays within Slack's limits (100 blocks, 24-character titles, 75-character option
texts, ...) by building text through `clip`/`clipped`/`section`.
"""

from __future__ import annotations

from slack_sdk.models.blocks import MarkdownTextObject, SectionBlock

from bot.messages import t
from bot.slack.markdown import escape
from memory.lang import Lang

LANGS: tuple[Lang, ...] = ("en", "zh")

# -- ids -------------------------------------------------------------------------------------

FORM_CALLBACK_ID = "travel_prefs.form"
LOADING_CALLBACK_ID = "travel_prefs.loading"
NOTICE_CALLBACK_ID = "travel_prefs.notice"
HOME_CALLBACK_ID = "travel_prefs.home"

ACTION_PREFIX = "travel_prefs."  # every action id of this feature starts with it
EDIT_ACTION_ID = "travel_prefs.edit"
FORGET_ITEM_ACTION_ID = "travel_prefs.forget_item"  # value: the item id
FORGET_ALL_ACTION_ID = "travel_prefs.forget_all"  # the Home button (Slack confirms first)
FORGET_ALL_CONFIRM_ACTION_ID = "travel_prefs.forget_all_confirm"  # answer to `forget`
FORGET_ALL_CANCEL_ACTION_ID = "travel_prefs.forget_all_cancel"
HOME_NEWER_ACTION_ID = "travel_prefs.home_newer"  # value: the page number to show
HOME_OLDER_ACTION_ID = "travel_prefs.home_older"
OPEN_IN_BROWSER_ACTION_ID = "travel_prefs.open_in_browser"  # a URL button: Slack opens it

SLOT_BLOCK_PREFIX = "travel_prefs.slot."  # + the slot id
SLOT_ACTION_ID = "travel_prefs.slot_value"
FREE_TEXT_BLOCK_ID = "travel_prefs.free_text"
FREE_TEXT_ACTION_ID = "travel_prefs.free_text_value"
NO_PREFERENCE = "_none"  # the "No preference" choice of a single-choice select

# -- Slack's limits ----------------------------------------------------------------------------

MAX_BLOCKS = 100
MAX_TITLE_CHARS = 24
MAX_OPTION_CHARS = 75
MAX_LABEL_CHARS = 2000
MAX_PLACEHOLDER_CHARS = 150
MAX_BUTTON_CHARS = 75
MAX_TEXT_CHARS = 3000  # section text, context element text
MAX_CONFIRM_CHARS = 300
MAX_CHECKBOXES = 10
HOME_PAGE_SIZE = 40  # facts per page of the Home tab
FORM_MAX_READONLY = 30  # read-only chat facts listed beneath the form


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, with an ellipsis when it was longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clipped(key: str, lang: Lang, limit: int, **values: object) -> str:
    """The message `key` in `lang`, cut to `limit` characters."""
    return clip(t(key, lang, **values), limit)


def section(text: str) -> SectionBlock:
    """A mrkdwn section of `text`, cut to Slack's limit."""
    return SectionBlock(text=MarkdownTextObject(text=clip(text, MAX_TEXT_CHARS)))


def slot_block_id(slot_id: str) -> str:
    return SLOT_BLOCK_PREFIX + slot_id


__all__ = [
    "ACTION_PREFIX",
    "EDIT_ACTION_ID",
    "FORGET_ALL_ACTION_ID",
    "FORGET_ALL_CANCEL_ACTION_ID",
    "FORGET_ALL_CONFIRM_ACTION_ID",
    "FORGET_ITEM_ACTION_ID",
    "FORM_CALLBACK_ID",
    "FORM_MAX_READONLY",
    "FREE_TEXT_ACTION_ID",
    "FREE_TEXT_BLOCK_ID",
    "HOME_CALLBACK_ID",
    "HOME_NEWER_ACTION_ID",
    "HOME_OLDER_ACTION_ID",
    "HOME_PAGE_SIZE",
    "LANGS",
    "LOADING_CALLBACK_ID",
    "MAX_BLOCKS",
    "MAX_BUTTON_CHARS",
    "MAX_CHECKBOXES",
    "MAX_CONFIRM_CHARS",
    "MAX_LABEL_CHARS",
    "MAX_OPTION_CHARS",
    "MAX_PLACEHOLDER_CHARS",
    "MAX_TEXT_CHARS",
    "MAX_TITLE_CHARS",
    "NOTICE_CALLBACK_ID",
    "NO_PREFERENCE",
    "OPEN_IN_BROWSER_ACTION_ID",
    "SLOT_ACTION_ID",
    "SLOT_BLOCK_PREFIX",
    "clip",
    "clipped",
    "escape",
    "section",
    "slot_block_id",
]
