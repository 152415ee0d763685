"""The preferences form as data, for every platform to render: fields, validation, metadata.

`build_form` turns the profile schema and a prefill (`bot.prefs.prefill`) into a `Form`:
one `Field` per slot (kind, label, help, choices and the value it shows, flagged when the
value was suggested from chat facts, with the slot's scoped values beside it), the chat
facts listed read-only beneath, and the free-text "Anything else?" limit. A renderer
(a chat platform's modal, the web page) only draws it.

`validate_form` checks what came back, the same for every renderer: each choice against
the schema, no option both preferred and avoided (the schema's `clashes`, the check the
memory engine applies on write), and the free text against the length limit and the
privacy guard's verdict on it as chat's record path gives it (`memory.privacy.verdict`: the
rules, the learned reading of guessed amounts and of instructions), so the form refuses what
chat refuses and keeps what chat keeps, with the same message. Errors are keyed by field id
(`FREE_TEXT` for the free text), in the person's language.

`FormMeta` is what a form carries from opening to saving: whose it is, in which
language, where it was opened, and the profile it was opened on (see `bot.prefs.saving`).
The channel a form comes back through makes the namespace with its own platform's rule,
and refuses a form that names another platform (`platform`, the name of the one it was
opened on; "" in forms made before it was kept), so a form can never write to another
platform's memory.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from bot.messages import rejection, t
from bot.payloads import parse_json
from memory import privacy
from memory.errors import InvalidSlotValue, MemoryEngineError
from memory.intake import says_nothing
from memory.lang import Lang
from memory.profile import ProfileSchema, Value
from memory.types import ScopedValue

if TYPE_CHECKING:
    from memory.protocol import LongTermMemory

FREE_TEXT = "free_text"  # the field id of "Anything else?"
MAX_META_CHARS = 3000  # what a form may carry (a modal's metadata field holds 3000)
# A choice a renderer could not read from what the platform sent: an invalid option.
UNREADABLE: object = object()

_LIST_SEP = {"en": ", ", "zh": "、"}


# -- the form's metadata --------------------------------------------------------------------


@dataclass(frozen=True)
class FormMeta:
    """What a form carries between opening and saving (a modal's metadata).

    `base` is the structured profile when the form was opened: on save, only the slots
    the person changed relative to it are written, so a change made elsewhere in the
    meantime to any other slot is never overwritten by a stale form.
    """

    user: str
    team: str
    lang: Lang = "en"
    channel: str = ""
    base: Mapping[str, Value] = field(default_factory=dict)
    platform: str = ""  # the name of the platform it was opened on ("": not said)

    def dumps(self) -> str:
        base = {k: list(v) if isinstance(v, tuple) else v for k, v in self.base.items()}
        data = {"u": self.user, "t": self.team, "l": self.lang, "c": self.channel, "b": base}
        if self.platform:
            data["p"] = self.platform
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        if len(text) > MAX_META_CHARS:
            raise ValueError(f"the form's metadata is over {MAX_META_CHARS} characters")
        return text

    @classmethod
    def loads(cls, text: object) -> FormMeta | None:
        """The metadata of a submitted form, or None when it is missing or malformed."""
        try:
            data = parse_json(text) if isinstance(text, str) else None
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        user, team, lang = data.get("u"), data.get("t"), data.get("l")
        channel, raw_base = data.get("c") or "", data.get("b") or {}
        platform = data.get("p") or ""
        if not (isinstance(user, str) and user and isinstance(team, str) and team):
            return None
        if lang not in ("en", "zh") or not isinstance(channel, str):
            return None
        if not isinstance(raw_base, dict) or not isinstance(platform, str):
            return None
        base = decode_base(raw_base)
        if base is None:
            return None
        return cls(user=user, team=team, lang=lang, channel=channel, base=base, platform=platform)


# -- the form --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Choice:
    id: str
    label: str


@dataclass(frozen=True, slots=True)
class Field:
    """One slot of the profile as a form field, in the person's language."""

    id: str  # the slot id
    kind: Literal["single", "multi"]
    label: str
    help: str  # "" when the slot has none
    choices: tuple[Choice, ...]
    value: Value | None  # what the field shows at first (None: nothing chosen)
    suggested: bool = False  # the value was read from chat facts, not set by the person
    scoped: tuple[str, ...] = ()  # values limited to a scope, "trains: Window" (shown, not edited)

    @property
    def chosen(self) -> frozenset[str]:
        """The choice ids the field shows as chosen."""
        value = self.value
        return frozenset({value} if isinstance(value, str) else (value or ()))


@dataclass(frozen=True, slots=True)
class Form:
    meta: FormMeta
    fields: tuple[Field, ...]
    readonly: tuple[str, ...] = ()  # chat facts shown beneath the form as they are
    free_text_limit: int = 500

    @property
    def lang(self) -> Lang:
        return self.meta.lang


def build_form(
    schema: ProfileSchema,
    meta: FormMeta,
    *,
    values: Mapping[str, Value],
    suggested: frozenset[str] = frozenset(),
    readonly: Sequence[str] = (),
    free_text_limit: int = 500,
    scoped: Sequence[ScopedValue] = (),
) -> Form:
    """The form for `meta`'s person: one field per slot, showing `values`.

    A field edits the slot's general value; its `scoped` values ("trains: Window") are
    listed with it, for the person to see, and change in chat.
    """
    lang = meta.lang
    fields = tuple(
        Field(
            id=slot.id,
            kind=slot.kind,
            label=slot.label(lang),
            help=slot.help.get(lang, "") if slot.help else "",
            choices=tuple(Choice(o.id, o.label(lang)) for o in slot.options),
            value=values.get(slot.id),
            suggested=slot.id in suggested,
            scoped=scoped_labels(schema, [v for v in scoped if v.slot == slot.id], lang),
        )
        for slot in schema.slots
    )
    return Form(meta, fields, tuple(readonly), free_text_limit)


def scoped_labels(
    schema: ProfileSchema, scoped: Sequence[ScopedValue], lang: Lang
) -> tuple[str, ...]:
    """ "trains: Window" for each value; one the schema no longer knows is left out."""
    labels = []
    for v in scoped:
        try:
            labels.append(schema.label_scoped(v.slot, v.value, v.scope, lang))
        except InvalidSlotValue:
            continue
    return tuple(labels)


# -- validating what came back ---------------------------------------------------------------


@dataclass(frozen=True)
class FormInput:
    """A submitted form: slot values (None clears), the free text, and errors by field id."""

    values: dict[str, Value | None]
    free_text: str
    errors: dict[str, str]


def validate_form(
    schema: ProfileSchema,
    chosen: Mapping[str, object],
    free_text: str | None,
    lang: Lang,
    free_text_limit: int = 500,
    *,
    stored: Callable[[], Iterable[str]] = tuple,
) -> FormInput:
    """Check the choices (option ids by slot id) and the free text of a submitted form.

    A slot missing from `chosen` is left out (not cleared); a choice outside the schema
    (or `UNREADABLE`), an option both preferred and avoided, and free text the privacy
    guard refuses each get an error. `stored`: the person's remembered facts, asked only
    when the free text offers a piece of a number (as chat's record path asks them).
    Blocking (it may embed the free text): call it off an event loop.
    """
    values: dict[str, Value | None] = {}
    errors: dict[str, str] = {}
    for slot in schema.slots:
        if slot.id not in chosen:
            continue
        try:
            values[slot.id] = schema.validate(slot.id, chosen[slot.id])
        except (InvalidSlotValue, TypeError, ValueError):
            errors[slot.id] = t("prefs_invalid_option", lang)
    for clash in schema.clashes(values):
        for mine, other in ((clash.slot, clash.other), (clash.other, clash.slot)):
            labels = [o.label(lang) for o in schema.slot(mine).options if o.id in clash.options]
            errors[mine] = t(
                "prefs_conflict",
                lang,
                options=_LIST_SEP[lang].join(labels),
                other=schema.slot(other).label(lang),
            )
    text = ""
    if isinstance(free_text, str) and free_text.strip():
        text = " ".join(free_text.split())
        problem = free_text_problem(free_text, lang, free_text_limit, stored=stored)
        if problem:
            errors[FREE_TEXT] = problem
    return FormInput(values=values, free_text=text, errors=errors)


def privacy_message(code: str, lang: Lang) -> str:
    """A refusal of the privacy guard (by category code), in the person's language."""
    return rejection(code, code, lang)


def free_text_problem(
    raw: str, lang: Lang, limit: int, *, stored: Callable[[], Iterable[str]] = tuple
) -> str | None:
    """Why the free text cannot be kept (the verdict chat's record path gives it), or None."""
    text = " ".join(raw.split())
    if len(text) > limit:
        return t("prefs_too_long", lang, limit=limit)
    if any(unicodedata.category(ch) == "Cc" and ch not in "\n\r\t" for ch in raw):
        return t("prefs_control_chars", lang)
    if says_nothing(text):  # "ok" in the free-text box would be kept as a preference
        return t("reject_no_content", lang)
    category = privacy.verdict(text, stored=stored)
    return privacy_message(category, lang) if category else None


def stored_texts(memory: LongTermMemory, namespace: str) -> Callable[[], Iterable[str]]:
    """The person's remembered facts for `validate_form`'s `stored`, read when asked; none
    when memory cannot be read (the save reads them again and refuses then)."""

    def read() -> list[str]:
        try:
            return [item.text for item in memory.items(namespace)]
        except MemoryEngineError:
            return []

    return read


def decode_base(raw: Mapping[object, object]) -> dict[str, Value] | None:
    """The values a form was opened with, back from JSON (a slot's value, or its sorted
    values); None when one of them is neither."""
    base: dict[str, Value] = {}
    for slot, value in raw.items():
        if isinstance(value, str):
            base[str(slot)] = value
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            base[str(slot)] = tuple(sorted(value))
        else:
            return None
    return base


__all__ = [
    "FREE_TEXT",
    "UNREADABLE",
    "Choice",
    "Field",
    "Form",
    "FormInput",
    "FormMeta",
    "build_form",
    "decode_base",
    "free_text_problem",
    "privacy_message",
    "scoped_labels",
    "stored_texts",
    "validate_form",
]
