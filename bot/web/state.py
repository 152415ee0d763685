"""A person's preferences as the page and its API show them, and their JSON shapes.

`read_state` gathers, in one blocking call (run on the task pool), what both show: the
form (`bot.prefs.form`, prefilled by `bot.prefs.prefill`, chat facts mapped to options by
the fast model when one is configured), every current fact, and the whole-profile
summary. The JSON shapes (`state_json`, `schema_json`, `outcome_json`) are the API's
contract:

    {"slots": {slot_id: option_id | [option_id, ...] | null},
     "facts": [{"id", "text", "slot", "source", "created_at", "scope"}],
     "summary": "...", "suggested": [slot_id], "scoped": [...], "schema": {...}}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.messages import rejection
from bot.prefs.form import Form, FormMeta, build_form
from bot.prefs.prefill import SlotMapper, build_prefill
from memory.lang import Lang
from memory.profile import ProfileSchema, Value
from memory.scope import scope_label
from memory.types import MemoryItem, RecordOutcome, ScopedValue

if TYPE_CHECKING:
    from memory.protocol import LongTermMemory

NOTE = "note"  # the API's name of the free-text field (`bot.prefs.form.FREE_TEXT`)


@dataclass(frozen=True)
class State:
    """What the page shows: the form, the facts, the summary, and the profile it opened on."""

    form: Form
    items: tuple[MemoryItem, ...]
    summary: str
    base: Mapping[str, Value]
    scoped: tuple[ScopedValue, ...]


def read_state(
    memory: LongTermMemory,
    namespace: str,
    lang: Lang,
    *,
    mapper: SlotMapper | None,
    free_text_limit: int,
    values: Mapping[str, Value | None] | None = None,
) -> State:
    """The person's preferences now (raises `MemoryEngineError` when memory is down).

    `values` overrides what fields show (a submitted form sent back with its errors).
    """
    prefill = build_prefill(memory, namespace, mapper)
    shown: dict[str, Value] = dict(prefill.values)
    suggested = prefill.suggested
    if values is not None:
        shown = {slot: value for slot, value in values.items() if value is not None}
        suggested = frozenset()
    form = build_form(
        memory.schema,
        form_meta(namespace, lang, prefill.base),
        values=shown,
        suggested=suggested,
        free_text_limit=free_text_limit,
        scoped=prefill.scoped,
    )
    items = tuple(memory.items(namespace))
    summary = memory.retrieve(namespace) if items else ""
    return State(form, items, summary, prefill.base, prefill.scoped)


def form_meta(namespace: str, lang: Lang, base: Mapping[str, Value]) -> FormMeta:
    """The form's metadata for a person known by namespace only (never saved through it)."""
    return FormMeta(user=namespace, team="web", lang=lang, base=base)


# -- JSON -----------------------------------------------------------------------------------


def slot_value(value: Value | None) -> str | list[str] | None:
    if value is None or isinstance(value, str):
        return value
    return list(value)


def state_json(schema: ProfileSchema, state: State) -> dict[str, Any]:
    """The API's view of `state` (without the schema)."""
    shown = {f.id: f.value for f in state.form.fields}
    return {
        "lang": state.form.lang,
        "slots": {slot.id: slot_value(shown.get(slot.id)) for slot in schema.slots},
        "suggested": [f.id for f in state.form.fields if f.suggested],
        "facts": [fact_json(item) for item in state.items],
        "scoped": [scoped_json(v, state.form.lang) for v in state.scoped],
        "summary": state.summary,
    }


def fact_json(item: MemoryItem) -> dict[str, Any]:
    return {
        "id": item.id,
        "text": item.text,
        "slot": item.slot,
        "source": item.source,
        "created_at": item.created_at.isoformat(),
        "scope": item.scope,
    }


def scoped_json(value: ScopedValue, lang: Lang) -> dict[str, Any]:
    return {
        "slot": value.slot,
        "value": slot_value(value.value),
        "scope": value.scope,
        "label": value.label,
        "text": value.text,
        "id": value.item_id,
        "scope_label": scope_label(value.scope, lang),
    }


def schema_json(schema: ProfileSchema, free_text_limit: int) -> dict[str, Any]:
    """Every slot with its kind, labels and help in both languages, and its options."""
    return {
        "slots": [
            {
                "id": slot.id,
                "kind": slot.kind,
                "label": dict(slot.labels),
                "help": dict(slot.help or {}),
                "exclusive_with": slot.exclusive_with,
                "options": [{"id": o.id, "label": dict(o.labels)} for o in slot.options],
            }
            for slot in schema.slots
        ],
        "note": {"max_chars": free_text_limit},
    }


def outcome_json(
    outcome: RecordOutcome,
    items: Sequence[MemoryItem],
    schema: ProfileSchema,
    lang: Lang,
    *,
    note: bool = False,
) -> dict[str, Any]:
    """One fact the save wrote (or refused): the field it came from (a slot id, or "note"
    for the free text), the slot it fills when it fills one, its status and id."""
    slots = {item.id: item.slot for item in items}
    slot: str | None = slots.get(outcome.item_id or "")
    if slot is None and outcome.reason == "cleared" and outcome.text in _slot_ids(schema):
        slot = outcome.text  # a cleared slot's outcome names the slot
    entry: dict[str, Any] = {
        "field": NOTE if note else slot,
        "text": outcome.text,
        "status": outcome.status,
        "slot": slot,
        "id": outcome.item_id,
    }
    if outcome.status == "rejected":
        entry["code"] = outcome.code
        entry["message"] = rejection(outcome.code, outcome.reason, lang)
    elif outcome.reason:
        entry["reason"] = outcome.reason
    return entry


def _slot_ids(schema: ProfileSchema) -> set[str]:
    return {slot.id for slot in schema.slots}


__all__ = [
    "NOTE",
    "State",
    "fact_json",
    "form_meta",
    "outcome_json",
    "read_state",
    "schema_json",
    "slot_value",
    "state_json",
]
