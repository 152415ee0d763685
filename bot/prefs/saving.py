"""Saving a submitted preferences form, whatever drew it.

Which slots to write (`merge_changes`: only those the person changed, so an edit made
elsewhere while the form was open is kept), never an option both preferred and avoided
(the schema's `clashes`, the check the memory engine itself applies), the free text
recorded like a chat fact (`record_note`), and what to tell the person afterwards
(`save_form`). A double submission is kept from saving twice by the caller's claim
(`bot.conversation.claims`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from bot.messages import rejection, t
from bot.prefs.form import FormInput, FormMeta
from bot.prefs.prefill import structured_profile
from memory.errors import InvalidSlotValue, MemoryEngineError
from memory.lang import Lang
from memory.profile import Clash, ProfileSchema, Value
from memory.types import RecordOutcome

if TYPE_CHECKING:
    from memory.protocol import LongTermMemory

log = logging.getLogger(__name__)

SUBMIT_TTL_SECONDS = 86400  # how long a submitted form stays claimed
_LIST_SEP = {"en": ", ", "zh": "、"}


@dataclass(frozen=True, slots=True)
class Saved:
    """How a save went, and what to tell the person."""

    outcome: Literal["saved", "same", "conflict", "failed"]
    text: str
    # For renderers that show more than the text (the web page and its API):
    results: tuple[RecordOutcome, ...] = ()  # each slot written (or found unchanged)
    noted: tuple[RecordOutcome, ...] = ()  # the free text: kept, known already, or refused
    clashes: tuple[Clash, ...] = ()  # a "conflict": options both preferred and avoided
    kept: tuple[str, ...] = ()  # slots changed elsewhere meanwhile, left as they are now
    unavailable: bool = False  # a "failed" because memory could not be written

    @property
    def done(self) -> bool:
        """False when nothing was saved and the same form may be submitted again."""
        return self.outcome in ("saved", "same")


def save_form(memory: LongTermMemory, namespace: str, meta: FormMeta, form: FormInput) -> Saved:
    """Write the form's changes for its person (`namespace`, and only theirs); never raises."""
    return save_profile(memory, namespace, form, lang=meta.lang, base=meta.base)


def save_profile(
    memory: LongTermMemory,
    namespace: str,
    form: FormInput,
    *,
    lang: Lang,
    base: Mapping[str, Value],
) -> Saved:
    """Write a checked form's changes to `namespace`, relative to the profile `base` it was
    opened on (see `merge_changes`); never raises."""
    schema = memory.schema
    try:
        current = structured_profile(memory, namespace)
        changes, kept = merge_changes(base, current, form.values)
        clash = schema.clashes({**current, **changes})
        if clash:
            detail = describe_clashes(schema, clash, lang)
            text = t("prefs_save_conflict", lang, detail=detail)
            return Saved("conflict", text, clashes=tuple(clash))
        outcomes = (
            memory.update_profile(namespace, changes, source="form", lang=lang) if changes else []
        )
    except MemoryEngineError as exc:
        log.warning("saving the form failed (%s)", type(exc).__name__)
        # InvalidSlotValue: the profile changed between the check and the write.
        outdated = isinstance(exc, InvalidSlotValue)
        key = "prefs_form_outdated" if outdated else "memory_unavailable"
        return Saved("failed", t(key, lang), unavailable=not outdated)
    notes, noted, note_outcomes = _record_note(memory, namespace, form.free_text, lang)
    changed = any(o.status in ("added", "updated") for o in outcomes)
    lines = [t("prefs_saved" if changed or noted else "prefs_unchanged", lang)]
    try:
        sentence = schema.render_sentence(structured_profile(memory, namespace), lang)
    except MemoryEngineError:
        sentence = ""
    if sentence:
        lines.append(t("prefs_saved_profile", lang, sentence=sentence))
    else:
        lines.append(t("prefs_saved_no_profile", lang))
    if kept:
        labels = [schema.slot(slot).label(lang) for slot in kept]
        lines.append(t("prefs_kept_newer", lang, slots=_LIST_SEP[lang].join(labels)))
    lines += notes
    return Saved(
        "saved" if changed or noted else "same",
        "\n".join(lines),
        results=tuple(outcomes),
        noted=tuple(note_outcomes),
        kept=tuple(kept),
    )


def merge_changes(
    base: Mapping[str, Value],
    current: Mapping[str, Value],
    submitted: Mapping[str, Value | None],
) -> tuple[dict[str, Value | None], list[str]]:
    """What to write, and the slots changed elsewhere that the form leaves alone.

    `base` is the profile when the form opened, `current` the profile now. A slot the
    person did not change in the form is never written (a newer value stays); a slot
    they changed is written unless it already holds that value.
    """
    changes: dict[str, Value | None] = {}
    kept: list[str] = []
    for slot, value in submitted.items():
        before, now = base.get(slot), current.get(slot)
        if value == before:
            if now != before:
                kept.append(slot)
        elif value != now:
            changes[slot] = value
    return changes, kept


def describe_clashes(schema: ProfileSchema, clashes: list[Clash], lang: Lang) -> str:
    """Options that would be both preferred and avoided, described for the person."""
    found = []
    for clash in clashes:
        slot, other = schema.slot(clash.slot), schema.slot(clash.other)
        pair = f"{slot.label(lang)} / {other.label(lang)}"
        found += [f"{o.label(lang)} ({pair})" for o in slot.options if o.id in clash.options]
    return _LIST_SEP[lang].join(found)


def record_note(
    memory: LongTermMemory, namespace: str, text: str, lang: Lang
) -> tuple[list[str], bool]:
    """Record the free text (source "form"): what to tell the person, and if it was kept."""
    lines, kept, _ = _record_note(memory, namespace, text, lang)
    return lines, kept


def _record_note(
    memory: LongTermMemory, namespace: str, text: str, lang: Lang
) -> tuple[list[str], bool, list[RecordOutcome]]:
    if not text:
        return [], False, []
    shown = text if len(text) <= 200 else text[:199] + "…"
    try:
        outcomes = memory.record(namespace, [text], source="form")
    except MemoryEngineError as exc:
        log.warning("the form's free text was not saved (%s)", type(exc).__name__)
        return [t("prefs_note_failed", lang, text=shown)], False, []
    lines, kept = [], False
    for outcome in outcomes:
        if outcome.status in ("added", "updated"):
            lines.append(t("prefs_note_added", lang, text=shown))
            kept = True
        elif outcome.status == "duplicate":
            lines.append(t("prefs_note_duplicate", lang, text=shown))
        else:  # never echo a refused text whole: the outcome's preview is masked and short
            reason = rejection(outcome.code, outcome.reason, lang)
            lines.append(t("prefs_note_rejected", lang, text=outcome.text, reason=reason))
    return lines, kept, outcomes


__all__ = [
    "SUBMIT_TTL_SECONDS",
    "Saved",
    "describe_clashes",
    "merge_changes",
    "record_note",
    "save_form",
    "save_profile",
]
