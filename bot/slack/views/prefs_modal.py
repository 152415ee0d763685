"""Block Kit for the preferences modal of `/travel-prefs`, drawn from the form as data.

`preferences_modal(form)` draws a `bot.prefs.form.Form`: a select (with "No preference")
for a single-choice field, checkboxes for a multi-choice field with few choices, a
multi-select for one with many, then a free-text "Anything else?" field and the chat
facts listed read-only beneath. `read_form` reads a submitted view's state back into
choices, has `bot.prefs.form.validate_form` check them, and keys its errors by block id
for Slack's inline errors. Ids and limits are `bot.slack.views.blocks`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from slack_sdk.models.blocks import (
    Block,
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

from bot.messages import t
from bot.prefs.form import FREE_TEXT, UNREADABLE, Field, Form, FormInput, validate_form
from bot.slack.views.blocks import (
    FORM_CALLBACK_ID,
    FORM_MAX_READONLY,
    FREE_TEXT_ACTION_ID,
    FREE_TEXT_BLOCK_ID,
    MAX_BLOCKS,
    MAX_CHECKBOXES,
    MAX_LABEL_CHARS,
    MAX_OPTION_CHARS,
    MAX_PLACEHOLDER_CHARS,
    MAX_TEXT_CHARS,
    MAX_TITLE_CHARS,
    NO_PREFERENCE,
    SLOT_ACTION_ID,
    SLOT_BLOCK_PREFIX,
    clip,
    clipped,
    escape,
    slot_block_id,
)
from memory.lang import Lang
from memory.profile import ProfileSchema


def preferences_modal(form: Form) -> View:
    """The form: one input per field, prefilled, then "Anything else?".

    A field whose value came from chat facts carries a hint saying so; the read-only
    chat facts are listed beneath the form.
    """
    lang = form.lang
    blocks: list[Block] = [
        ContextBlock(
            elements=[MarkdownTextObject(text=clipped("prefs_intro", lang, MAX_TEXT_CHARS))]
        )
    ]
    for form_field in form.fields:
        blocks.append(_field_input(form_field, lang))
    blocks.append(
        InputBlock(
            block_id=FREE_TEXT_BLOCK_ID,
            label=clipped("prefs_free_text_label", lang, MAX_LABEL_CHARS),
            element=PlainTextInputElement(
                action_id=FREE_TEXT_ACTION_ID,
                multiline=True,
                max_length=min(form.free_text_limit, MAX_TEXT_CHARS),
                placeholder=clipped("prefs_free_text_placeholder", lang, MAX_PLACEHOLDER_CHARS),
            ),
            hint=clipped("prefs_free_text_hint", lang, MAX_LABEL_CHARS),
            optional=True,
        )
    )
    if form.readonly:
        blocks += [DividerBlock(), *_readonly_facts(form.readonly, lang)]
    return View(
        type="modal",
        callback_id=FORM_CALLBACK_ID,
        title=clipped("prefs_title", lang, MAX_TITLE_CHARS),
        submit=clipped("prefs_save", lang, MAX_TITLE_CHARS),
        close=clipped("prefs_cancel", lang, MAX_TITLE_CHARS),
        blocks=blocks[:MAX_BLOCKS],
        private_metadata=form.meta.dumps(),
    )


def _field_input(form_field: Field, lang: Lang) -> InputBlock:
    options = [Option(value=c.id, text=clip(c.label, MAX_OPTION_CHARS)) for c in form_field.choices]
    chosen = form_field.chosen
    initial = [o for o in options if o.value in chosen]
    placeholder = clipped("prefs_choose", lang, MAX_PLACEHOLDER_CHARS)
    element: StaticSelectElement | CheckboxesElement | StaticMultiSelectElement
    if form_field.kind == "single":
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
    hints = [form_field.help]
    if form_field.suggested:
        hints.append(t("prefs_suggested_hint", lang))
    if form_field.scoped:
        sep = "；" if lang == "zh" else "; "
        hints.append(t("prefs_scoped_hint", lang, values=sep.join(form_field.scoped)))
    hint = " ".join(h for h in hints if h)
    return InputBlock(
        block_id=slot_block_id(form_field.id),
        label=clip(form_field.label, MAX_LABEL_CHARS),
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


def read_form(
    schema: ProfileSchema,
    state: Mapping[str, Any],
    lang: Lang,
    free_text_limit: int = 500,
    *,
    stored: Callable[[], Iterable[str]] = tuple,
) -> FormInput:
    """The choices and free text of `view.state.values`, checked (`validate_form`).

    A slot whose block is not on the form is left out (not cleared). Errors are keyed
    by block id, for `ack(response_action="errors", ...)`.
    """
    chosen: dict[str, object] = {}
    for slot in schema.slots:
        block = state.get(slot_block_id(slot.id))
        if isinstance(block, Mapping):
            chosen[slot.id] = _chosen(block.get(SLOT_ACTION_ID))
    block = state.get(FREE_TEXT_BLOCK_ID)
    entry = block.get(FREE_TEXT_ACTION_ID) if isinstance(block, Mapping) else None
    raw = entry.get("value") if isinstance(entry, Mapping) else None
    note = raw if isinstance(raw, str) else None
    form = validate_form(schema, chosen, note, lang, free_text_limit, stored=stored)
    errors = {
        FREE_TEXT_BLOCK_ID if key == FREE_TEXT else SLOT_BLOCK_PREFIX + key: text
        for key, text in form.errors.items()
    }
    return FormInput(values=form.values, free_text=form.free_text, errors=errors)


def _chosen(entry: object) -> object:
    """The option id(s) picked in one input element's state (`UNREADABLE` if none can be)."""
    if not isinstance(entry, Mapping):
        return UNREADABLE
    if "selected_options" in entry:
        picked = entry["selected_options"] or []
        if not isinstance(picked, list):
            return UNREADABLE
        ids = [o.get("value") if isinstance(o, Mapping) else None for o in picked]
        return [i for i in ids if i != NO_PREFERENCE]
    if "selected_option" in entry:
        option = entry["selected_option"]
        if option is None:
            return None
        value = option.get("value") if isinstance(option, Mapping) else None
        return None if value == NO_PREFERENCE else value
    return UNREADABLE


__all__ = ["preferences_modal", "read_form"]
