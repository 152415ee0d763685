"""Block Kit for `/travel-prefs`, built from typed `slack_sdk.models`.

The preferences modal is generated from the profile schema: a select (with "No
preference") for a single-choice slot, checkboxes for a multi-choice slot with few
options, a multi-select for one with many, and a free-text "Anything else?" field.
`read_form` turns a submitted view's state back into slot values and inline errors.
Every `callback_id`, `action_id` and `block_id` is a constant below; every view stays
within Slack's limits (100 blocks, 24-character titles, 75-character option texts). The
App Home tab is built in `bot.slack.views.home`, from the same constants.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    CheckboxesElement,
    ContextBlock,
    DividerBlock,
    InputBlock,
    MarkdownTextObject,
    Option,
    PlainTextInputElement,
    SectionBlock,
    StaticMultiSelectElement,
    StaticSelectElement,
)
from slack_sdk.models.views import View

from bot.messages import rejection, t
from memory import privacy
from memory.errors import InvalidSlotValue
from memory.lang import Lang
from memory.profile import ProfileSchema, SlotSpec, Value
from memory.types import ScopedValue

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
MAX_METADATA_CHARS = 3000
MAX_CHECKBOXES = 10
HOME_PAGE_SIZE = 40  # facts per page of the Home tab
FORM_MAX_READONLY = 30  # read-only chat facts listed beneath the form


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, with an ellipsis when it was longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def escape(text: str) -> str:
    """Plain text made safe for mrkdwn (no mentions, links or broadcasts)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def slot_block_id(slot_id: str) -> str:
    return SLOT_BLOCK_PREFIX + slot_id


# -- the form's private metadata ---------------------------------------------------------------


@dataclass(frozen=True)
class FormMeta:
    """What a form carries between opening and saving (Slack's `private_metadata`).

    `base` is the structured profile when the form was opened: on save, only the slots
    the person changed relative to it are written, so a change made elsewhere in the
    meantime to any other slot is never overwritten by a stale form.
    """

    user: str
    team: str
    lang: Lang = "en"
    channel: str = ""
    base: Mapping[str, Value] = field(default_factory=dict)

    @property
    def namespace(self) -> str:
        return f"{self.team}:{self.user}"

    def dumps(self) -> str:
        base = {k: list(v) if isinstance(v, tuple) else v for k, v in self.base.items()}
        data = {"u": self.user, "t": self.team, "l": self.lang, "c": self.channel, "b": base}
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        if len(text) > MAX_METADATA_CHARS:
            raise ValueError("the form's metadata does not fit Slack's private_metadata")
        return text

    @classmethod
    def loads(cls, text: object) -> FormMeta | None:
        """The metadata of a submitted form, or None when it is missing or malformed."""
        try:
            data = json.loads(text) if isinstance(text, str) else None
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        user, team, lang = data.get("u"), data.get("t"), data.get("l")
        channel, raw_base = data.get("c") or "", data.get("b") or {}
        if not (isinstance(user, str) and user and isinstance(team, str) and team):
            return None
        if lang not in ("en", "zh") or not isinstance(channel, str):
            return None
        if not isinstance(raw_base, dict):
            return None
        base: dict[str, Value] = {}
        for slot, value in raw_base.items():
            if isinstance(value, str):
                base[str(slot)] = value
            elif isinstance(value, list) and all(isinstance(v, str) for v in value):
                base[str(slot)] = tuple(sorted(value))
            else:
                return None
        return cls(user=user, team=team, lang=lang, channel=channel, base=base)


# -- the modal ---------------------------------------------------------------------------------


def clipped(key: str, lang: Lang, limit: int, **values: object) -> str:
    """The message `key` in `lang`, cut to `limit` characters."""
    return clip(t(key, lang, **values), limit)


def section(text: str) -> SectionBlock:
    """A mrkdwn section of `text`, cut to Slack's limit."""
    return SectionBlock(text=MarkdownTextObject(text=clip(text, MAX_TEXT_CHARS)))


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


def preferences_modal(
    schema: ProfileSchema,
    *,
    meta: FormMeta,
    values: Mapping[str, Value],
    suggested: frozenset[str] = frozenset(),
    readonly: Sequence[str] = (),
    free_text_limit: int = 500,
    scoped: Sequence[ScopedValue] = (),
) -> View:
    """The form: one input per slot, prefilled with `values`, then "Anything else?".

    `suggested` names slots whose value came from chat facts (a hint says so);
    `readonly` lists free-text facts shown beneath the form as they are; `scoped` values
    ("trains: Window") are listed in the hint of their slot, whose input is the general
    value.
    """
    lang = meta.lang
    blocks: list[Block] = [
        ContextBlock(
            elements=[MarkdownTextObject(text=clipped("prefs_intro", lang, MAX_TEXT_CHARS))]
        )
    ]
    for slot in schema.slots:
        limited = _scoped_labels(schema, [v for v in scoped if v.slot == slot.id], lang)
        blocks.append(_slot_input(slot, lang, values.get(slot.id), slot.id in suggested, limited))
    blocks.append(
        InputBlock(
            block_id=FREE_TEXT_BLOCK_ID,
            label=clipped("prefs_free_text_label", lang, MAX_LABEL_CHARS),
            element=PlainTextInputElement(
                action_id=FREE_TEXT_ACTION_ID,
                multiline=True,
                max_length=min(free_text_limit, MAX_TEXT_CHARS),
                placeholder=clipped("prefs_free_text_placeholder", lang, MAX_PLACEHOLDER_CHARS),
            ),
            hint=clipped("prefs_free_text_hint", lang, MAX_LABEL_CHARS),
            optional=True,
        )
    )
    if readonly:
        blocks += [DividerBlock(), *_readonly_facts(readonly, lang)]
    return View(
        type="modal",
        callback_id=FORM_CALLBACK_ID,
        title=clipped("prefs_title", lang, MAX_TITLE_CHARS),
        submit=clipped("prefs_save", lang, MAX_TITLE_CHARS),
        close=clipped("prefs_cancel", lang, MAX_TITLE_CHARS),
        blocks=blocks[:MAX_BLOCKS],
        private_metadata=meta.dumps(),
    )


def _scoped_labels(schema: ProfileSchema, scoped: Sequence[ScopedValue], lang: Lang) -> list[str]:
    """ "trains: Window" for each value; one the schema no longer knows is left out."""
    labels = []
    for v in scoped:
        try:
            labels.append(schema.label_scoped(v.slot, v.value, v.scope, lang))
        except InvalidSlotValue:
            continue
    return labels


def _slot_input(
    slot: SlotSpec, lang: Lang, value: Value | None, suggested: bool, scoped: Sequence[str] = ()
) -> InputBlock:
    options = [Option(value=o.id, text=clip(o.label(lang), MAX_OPTION_CHARS)) for o in slot.options]
    chosen = {value} if isinstance(value, str) else set(value or ())
    initial = [o for o in options if o.value in chosen]
    placeholder = clipped("prefs_choose", lang, MAX_PLACEHOLDER_CHARS)
    element: StaticSelectElement | CheckboxesElement | StaticMultiSelectElement
    if slot.kind == "single":
        none = Option(value=NO_PREFERENCE, text=clipped("prefs_no_preference", lang, 75))
        element = StaticSelectElement(
            action_id=SLOT_ACTION_ID,
            placeholder=placeholder,
            options=[none, *options],
            initial_option=initial[0] if initial else None,
        )
    elif len(options) <= MAX_CHECKBOXES:
        element = CheckboxesElement(
            action_id=SLOT_ACTION_ID, options=options, initial_options=initial or None
        )
    else:
        element = StaticMultiSelectElement(
            action_id=SLOT_ACTION_ID,
            placeholder=placeholder,
            options=options,
            initial_options=initial or None,
        )
    hints = [slot.help.get(lang, "")] if slot.help else []
    if suggested:
        hints.append(t("prefs_suggested_hint", lang))
    if scoped:
        sep = "；" if lang == "zh" else "; "
        hints.append(t("prefs_scoped_hint", lang, values=sep.join(scoped)))
    hint = " ".join(h for h in hints if h)
    return InputBlock(
        block_id=slot_block_id(slot.id),
        label=clip(slot.label(lang), MAX_LABEL_CHARS),
        element=element,
        hint=clip(hint, MAX_LABEL_CHARS) if hint else None,
        optional=True,
    )


def _readonly_facts(facts: Sequence[str], lang: Lang) -> list[Block]:
    heading = t("prefs_readonly_heading", lang)
    lines: list[str] = []
    used = len(heading)
    for fact in facts[:FORM_MAX_READONLY]:
        line = "• " + escape(clip(" ".join(fact.split()), 280))
        if used + len(line) + 1 > MAX_TEXT_CHARS:
            break
        lines.append(line)
        used += len(line) + 1
    blocks: list[Block] = [SectionBlock(text=MarkdownTextObject(text="\n".join([heading, *lines])))]
    if len(facts) > len(lines):
        more = clipped("prefs_more", lang, MAX_TEXT_CHARS, count=len(facts) - len(lines))
        blocks.append(ContextBlock(elements=[MarkdownTextObject(text=more)]))
    return blocks


# -- reading a submitted form ------------------------------------------------------------------


@dataclass(frozen=True)
class FormInput:
    """A submitted form: slot values (None clears), the free text, and inline errors."""

    values: dict[str, Value | None]
    free_text: str
    errors: dict[str, str]


def read_form(
    schema: ProfileSchema, state: Mapping[str, Any], lang: Lang, free_text_limit: int = 500
) -> FormInput:
    """Slot values from `view.state.values`, validated against the schema.

    A slot whose block is not on the form is left out (not cleared); a value outside
    the schema, an option both preferred and avoided, and free text the privacy guard
    refuses each get an inline error keyed by block id.
    """
    values: dict[str, Value | None] = {}
    errors: dict[str, str] = {}
    for slot in schema.slots:
        block = state.get(slot_block_id(slot.id))
        if not isinstance(block, Mapping):
            continue
        try:
            values[slot.id] = schema.validate(slot.id, _chosen(block.get(SLOT_ACTION_ID)))
        except (InvalidSlotValue, TypeError, ValueError):
            errors[slot_block_id(slot.id)] = t("prefs_invalid_option", lang)
    for slot in schema.slots:
        other = slot.exclusive_with
        mine, theirs = values.get(slot.id), values.get(other) if other else None
        if other and mine and theirs and set(mine) & set(theirs):
            both = [o.label(lang) for o in slot.options if o.id in set(mine) & set(theirs)]
            sep = "、" if lang == "zh" else ", "
            errors[slot_block_id(slot.id)] = t(
                "prefs_conflict",
                lang,
                options=sep.join(both),
                other=schema.slot(other).label(lang),
            )
    text = ""
    block = state.get(FREE_TEXT_BLOCK_ID)
    entry = block.get(FREE_TEXT_ACTION_ID) if isinstance(block, Mapping) else None
    raw = entry.get("value") if isinstance(entry, Mapping) else None
    if isinstance(raw, str) and raw.strip():
        text = " ".join(raw.split())
        problem = free_text_problem(raw, lang, free_text_limit)
        if problem:
            errors[FREE_TEXT_BLOCK_ID] = problem
    return FormInput(values=values, free_text=text, errors=errors)


def _chosen(entry: object) -> object:
    """The option id(s) picked in one input element's state."""
    if not isinstance(entry, Mapping):
        raise ValueError("no state for this input")
    if "selected_options" in entry:
        picked = entry["selected_options"] or []
        if not isinstance(picked, list):
            raise ValueError("selected_options is not a list")
        ids = [o.get("value") if isinstance(o, Mapping) else None for o in picked]
        return [i for i in ids if i != NO_PREFERENCE]
    if "selected_option" in entry:
        option = entry["selected_option"]
        if option is None:
            return None
        value = option.get("value") if isinstance(option, Mapping) else None
        return None if value == NO_PREFERENCE else value
    raise ValueError("not a selection")


def privacy_message(code: str, lang: Lang) -> str:
    """A refusal of the privacy guard (by category code), in the person's language."""
    return rejection(code, code, lang)


def free_text_problem(raw: str, lang: Lang, limit: int) -> str | None:
    """Why the free text cannot be kept (the same checks chat facts pass), or None."""
    text = " ".join(raw.split())
    if len(text) > limit:
        return t("prefs_too_long", lang, limit=limit)
    if any(unicodedata.category(ch) == "Cc" and ch not in "\n\r\t" for ch in raw):
        return t("prefs_control_chars", lang)
    category = privacy.scan(text)
    return privacy_message(category, lang) if category else None


# -- the App Home --------------------------------------------------------------------------------


# -- /travel-prefs forget ------------------------------------------------------------------------


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


__all__ = [
    "ACTION_PREFIX",
    "EDIT_ACTION_ID",
    "FORGET_ALL_ACTION_ID",
    "FORGET_ALL_CANCEL_ACTION_ID",
    "FORGET_ALL_CONFIRM_ACTION_ID",
    "FORGET_ITEM_ACTION_ID",
    "FORM_CALLBACK_ID",
    "FREE_TEXT_ACTION_ID",
    "FREE_TEXT_BLOCK_ID",
    "HOME_CALLBACK_ID",
    "HOME_NEWER_ACTION_ID",
    "HOME_OLDER_ACTION_ID",
    "LOADING_CALLBACK_ID",
    "NOTICE_CALLBACK_ID",
    "NO_PREFERENCE",
    "SLOT_ACTION_ID",
    "SLOT_BLOCK_PREFIX",
    "FormInput",
    "FormMeta",
    "clip",
    "clipped",
    "escape",
    "forget_all_prompt",
    "free_text_problem",
    "loading_modal",
    "notice_modal",
    "preferences_modal",
    "privacy_message",
    "read_form",
    "section",
    "slot_block_id",
]
