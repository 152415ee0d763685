"""What the preferences form shows when it opens.

Slot values come straight from the structured profile. Free-text facts (said in chat
without a slot the schema recognised) are mapped to the still-empty slots by the fast
model in JSON mode; each mapping is validated against the schema and anything invalid,
ambiguous or contradicting the profile is dropped, so a misbehaving model can never
break the form. Without a fast model (or when it fails) the free-text facts are shown
read-only beneath the form instead; with one, the facts it could not map are. Values
limited to a scope ("on trains: window") are listed under their slot's input, which edits
the general value only.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import prompts
from memory.errors import InvalidSlotValue
from memory.llm import complete_json
from memory.profile import ProfileSchema, Value
from memory.types import ScopedValue

if TYPE_CHECKING:
    from memory.protocol import LongTermMemory

log = logging.getLogger(__name__)

MAX_FACTS = 30  # newest free-text facts sent to the model / listed beneath the form
TIMEOUT_SECONDS = 8.0  # the form waits for this at most (the loading view shows meanwhile)


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The model's claim that fact number `fact` sets `slot` to option `value`."""

    fact: int
    slot: str
    value: str


class SlotMapper(Protocol):
    def suggest(self, schema: ProfileSchema, facts: Sequence[str]) -> list[Suggestion]: ...


@dataclass(frozen=True)
class Prefill:
    """The profile (`base`), what the form shows (`values`), and what it lists as text."""

    base: dict[str, Value]
    values: dict[str, Value]
    suggested: frozenset[str]
    readonly: tuple[str, ...]
    scoped: tuple[ScopedValue, ...] = ()


class LLMSlotMapper:
    """Asks the fast model; any failure or malformed answer means "no suggestions"."""

    def __init__(self, *, client: Any, model: str, timeout_seconds: float = TIMEOUT_SECONDS):
        self._client = client
        self._model = model
        self._timeout = timeout_seconds

    def suggest(self, schema: ProfileSchema, facts: Sequence[str]) -> list[Suggestion]:
        if not facts:
            return []
        prompt = prompts.render(
            "profile_prefill.md",
            fields=describe_fields(schema),
            facts="\n".join(f"{n}. {' '.join(f.split())}" for n, f in enumerate(facts, 1)),
        )
        try:
            answer = complete_json(self._client, self._model, prompt, timeout=self._timeout)
        except Exception as exc:  # timeouts, rate limits, bad JSON: the form opens without
            log.warning("form prefill unavailable (%s); listing chat facts", type(exc).__name__)
            raise PrefillUnavailable from exc
        return parse_suggestions(answer, len(facts))


class PrefillUnavailable(Exception):
    """The model could not map the facts; the form lists them read-only instead."""


def describe_fields(schema: ProfileSchema) -> str:
    """One line per slot: id, kind and the option ids with their English labels."""
    lines = []
    for slot in schema.slots:
        options = "; ".join(f"{o.id} = {o.labels['en']}" for o in slot.options)
        lines.append(f"- {slot.id} ({slot.kind}, {slot.labels['en']}): {options}")
    return "\n".join(lines)


def parse_suggestions(answer: object, count: int) -> list[Suggestion]:
    """The well-formed mappings of a model answer (fact numbers 1..count become 0-based)."""
    mappings = answer.get("mappings") if isinstance(answer, Mapping) else None
    if not isinstance(mappings, list):
        return []
    found = []
    for entry in mappings:
        if not isinstance(entry, Mapping):
            continue
        fact, slot, value = entry.get("fact"), entry.get("field"), entry.get("value")
        if isinstance(fact, str) and fact.strip().isdigit():
            fact = int(fact)
        if isinstance(fact, bool) or not isinstance(fact, int) or not 1 <= fact <= count:
            continue
        if isinstance(slot, str) and isinstance(value, str):
            found.append(Suggestion(fact - 1, slot.strip(), value.strip()))
    return found


def structured_profile(memory: LongTermMemory, namespace: str) -> dict[str, Value]:
    """The profile in canonical form (tuples for multi slots), slots the schema knows."""
    out: dict[str, Value] = {}
    for slot, raw in memory.profile(namespace).items():
        try:
            value = memory.schema.validate(slot, raw)
        except InvalidSlotValue:
            continue
        if value is not None:
            out[slot] = value
    return out


def build_prefill(memory: LongTermMemory, namespace: str, mapper: SlotMapper | None) -> Prefill:
    """The form's starting point for `namespace` (reads the store; may ask the model)."""
    schema = memory.schema
    base = structured_profile(memory, namespace)
    free = [item.text for item in memory.items(namespace) if item.slot is None][:MAX_FACTS]
    suggestions: list[Suggestion] = []
    if mapper is not None and free:
        try:
            suggestions = mapper.suggest(schema, free)
        except PrefillUnavailable:
            suggestions = []
    proposed, used = accept_suggestions(schema, base, suggestions)
    readonly = tuple(text for n, text in enumerate(free) if n not in used)
    return Prefill(
        base=base,
        values={**base, **proposed},
        suggested=frozenset(proposed),
        readonly=readonly,
        scoped=tuple(memory.scoped_profile(namespace)),
    )


def accept_suggestions(
    schema: ProfileSchema, base: Mapping[str, Value], suggestions: Sequence[Suggestion]
) -> tuple[dict[str, Value], set[int]]:
    """The valid suggestions for empty slots, and the numbers of the facts they came from.

    Dropped: unknown slots or options, slots the profile already sets, a single slot
    given two different values, and options that would be both preferred and avoided.
    """
    picked: dict[str, dict[str, set[int]]] = {}  # slot -> option -> facts
    for s in suggestions:
        try:
            spec = schema.slot(s.slot)
            spec.option(s.value)
        except InvalidSlotValue:
            continue
        if spec.id not in base:
            picked.setdefault(spec.id, {}).setdefault(s.value, set()).add(s.fact)
    proposed: dict[str, Value] = {}
    used: set[int] = set()
    for slot_id, options in picked.items():
        spec = schema.slot(slot_id)
        if spec.kind == "single":
            if len(options) != 1:
                continue  # the facts disagree: leave the slot for the person
            ((value, facts),) = options.items()
            proposed[slot_id] = value
            used |= facts
            continue
        other = spec.exclusive_with
        clash: set[str] = set()
        if other:
            clash = set(base.get(other) or ()) | set(picked.get(other, {}))
        kept = {o: f for o, f in options.items() if o not in clash}
        if kept:
            proposed[slot_id] = tuple(sorted(kept))
            used |= {n for facts in kept.values() for n in facts}
    return proposed, used


__all__ = [
    "LLMSlotMapper",
    "Prefill",
    "PrefillUnavailable",
    "SlotMapper",
    "Suggestion",
    "accept_suggestions",
    "build_prefill",
    "describe_fields",
    "parse_suggestions",
    "structured_profile",
]
