"""Our typed slots (`memory/profile_schema.json`) as a Bailian profile schema (画像模板).

Bailian's profile attributes are free strings that its extraction fills from what the
traveller says, guided by each attribute's name and description (at most 32 and 128
characters; https://help.aliyun.com/zh/model-studio/long-term-memory-api-reference,
CreateProfileSchema). So each slot becomes one attribute:

- name: the slot's Chinese label ("座位", "偏好航司"), which the extraction reads best;
- description: the slot's help, then the options' Chinese labels it should write
  ("只填一个：靠窗、过道" or, for lists, "可多选，用顿号分隔：东航、国航、…").

Reading a profile back, a value is matched against each option's id and labels (both
languages, with or without the bracketed part, spaces ignored; a negated mention such as
"不含早餐" is not taken for "含早餐"); what that cannot place goes through the same slot
detection as free text (`ProfileSchema.detect`), and what still fits no option is kept as
text ("座位：随便") so nothing the service knows is silently lost.

The schema's name carries a digest of its attributes ("travel-prefs-1a2b3c4d"): a changed
`profile_schema.json` gets a new Bailian schema instead of reading an old one wrongly.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memory.bailian.client import BailianClient
from memory.bailian.errors import BailianBadResponse
from memory.profile import ProfileSchema, Value
from memory.slots import SlotSpec

MAX_NAME = 32
MAX_DESCRIPTION = 128
_NEGATED_ZH = re.compile(r"[不没无非别免]\S?$")
_NEGATED_EN = re.compile(r"\b(?:no|not|never|without|avoid\w*)\W*$")
_BRACKETED = re.compile(r"\s*[（(][^）)]*[）)]")


def attribute_name(slot: SlotSpec) -> str:
    return slot.labels["zh"][:MAX_NAME]


def attribute_description(slot: SlotSpec) -> str:
    how = "可多选，用顿号分隔：" if slot.kind == "multi" else "只填一个："
    text = slot.help.get("zh", "") + how + "、".join(o.labels["zh"] for o in slot.options)
    return text[:MAX_DESCRIPTION]


def bailian_schema(schema: ProfileSchema) -> dict[str, Any]:
    """The CreateProfileSchema body for our slots."""
    attributes = [
        {"name": attribute_name(slot), "description": attribute_description(slot)}
        for slot in schema.slots
    ]
    digest = hashlib.sha1(
        json.dumps(attributes, ensure_ascii=False, sort_keys=True).encode("utf-8")
    ).hexdigest()[:8]
    return {
        "name": f"travel-prefs-{digest}",
        "description": "出差旅行偏好（travel-memory-bot 的画像模板）",
        "attributes": attributes,
    }


def _fold(text: str, *, spaced: bool = False) -> str:
    """Lower case, NFKC; spaces squeezed to one (`spaced`) or removed (for Chinese)."""
    return ("" if not spaced else " ").join(unicodedata.normalize("NFKC", text).lower().split())


@dataclass(frozen=True, slots=True)
class _Form:
    text: str
    option: str
    ascii: bool


class ProfileMapping:
    """Bailian profile attributes <-> our slots; see the module docstring."""

    def __init__(self, schema: ProfileSchema) -> None:
        self.schema = schema
        self._slots: dict[str, SlotSpec] = {}
        self._forms: dict[str, list[_Form]] = {}
        for slot in schema.slots:
            for name in (attribute_name(slot), slot.id, slot.labels["en"]):
                self._slots.setdefault(_fold(name), slot)
            forms = set()
            for option in slot.options:
                for label in (option.id, *option.labels.values()):
                    for variant in (label, _BRACKETED.sub("", label)):
                        spaced = _fold(variant, spaced=True)
                        if spaced.isascii():
                            forms.add(_Form(spaced, option.id, True))
                        elif spaced:
                            forms.add(_Form(_fold(variant), option.id, False))
            self._forms[slot.id] = sorted(forms, key=lambda f: -len(f.text))

    def slot_of(self, attribute: str) -> SlotSpec | None:
        return self._slots.get(_fold(attribute))

    def read(self, profile: Mapping[str, str]) -> tuple[dict[str, Value], dict[str, str]]:
        """(slot -> value, attribute -> text that fits no option) of a profile."""
        values: dict[str, Value] = {}
        unplaced: dict[str, str] = {}
        for name, raw in profile.items():
            slot = self.slot_of(name)
            value = self.parse(slot, raw) if slot is not None else None
            if slot is not None and value is not None:
                values[slot.id] = value
            else:
                unplaced[name] = raw
        return values, unplaced

    def parse(self, slot: SlotSpec, raw: str) -> Value | None:
        """The option(s) a profile value names, or None."""
        texts = {True: _fold(raw, spaced=True), False: _fold(raw)}
        taken: dict[bool, list[tuple[int, int]]] = {True: [], False: []}
        chosen: set[str] = set()
        negated = False
        for form in self._forms[slot.id]:
            text = texts[form.ascii]
            for start, end in _occurrences(text, form):
                if any(start < e and s < end for s, e in taken[form.ascii]):
                    continue
                taken[form.ascii].append((start, end))
                chosen.add(form.option)
                before = text[:start]
                negation = _NEGATED_EN if form.ascii else _NEGATED_ZH
                negated = negated or bool(negation.search(before))
        if chosen and not negated and (slot.kind == "multi" or len(chosen) == 1):
            return min(chosen) if slot.kind == "single" else tuple(sorted(chosen))
        found = self.schema.detect(raw)
        if found is not None and found.slot == slot.id and found.scope is None:
            value: Value = found.value
            return value
        return None

    def message(self, slot_id: str, value: Value | None, lang: str) -> str:
        """What to tell the service for a form change: the slot's phrase, or "no longer"."""
        slot = self.schema.slot(slot_id)
        if value is None:
            label = slot.labels["zh" if lang == "zh" else "en"]
            return f"{label}：不再有偏好。" if lang == "zh" else f"{label}: no preference any more."
        text = self.schema.render(slot_id, value, lang)
        return text[:1].upper() + text[1:] + ("。" if lang == "zh" else ".")


def _occurrences(text: str, form: _Form) -> list[tuple[int, int]]:
    if not form.ascii:
        found, start = [], text.find(form.text)
        while start >= 0:
            found.append((start, start + len(form.text)))
            start = text.find(form.text, start + 1)
        return found
    pattern = re.compile(rf"(?<![a-z0-9]){re.escape(form.text)}(?![a-z0-9])")
    return [m.span() for m in pattern.finditer(text)]


@dataclass(frozen=True, slots=True)
class SchemaStatus:
    schema_id: str
    name: str
    created: bool
    missing: tuple[str, ...] = ()  # our attributes the existing schema lacks


def ensure_profile_schema(client: BailianClient, schema: ProfileSchema) -> SchemaStatus:
    """Find our schema in the library by name, or create it (`travel-bot memory bailian-init`)."""
    body = bailian_schema(schema)
    for page in range(1, 21):
        listed = client.list_profile_schemas(page_num=page, page_size=50)
        entries = listed.get("profile_schemas")
        entries = entries if isinstance(entries, list) else []
        for entry in entries:
            if isinstance(entry, dict) and entry.get("name") == body["name"]:
                schema_id = str(entry.get("profile_schema_id") or "")
                if schema_id:
                    detail = client.get_profile_schema(schema_id)
                    have = detail.get("attributes")
                    names = {a.get("name") for a in (have if isinstance(have, list) else []) if a}
                    missing = tuple(a["name"] for a in body["attributes"] if a["name"] not in names)
                    return SchemaStatus(schema_id, body["name"], False, missing)
        if len(entries) < 50:
            break
    created = client.create_profile_schema(body)
    schema_id = str(created.get("profile_schema_id") or "")
    if not schema_id:
        raise BailianBadResponse("CreateProfileSchema answered without a profile_schema_id")
    return SchemaStatus(schema_id, body["name"], True)


__all__ = [
    "ProfileMapping",
    "SchemaStatus",
    "attribute_description",
    "attribute_name",
    "bailian_schema",
    "ensure_profile_schema",
]
