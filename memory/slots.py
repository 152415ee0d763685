"""The slots and options of the profile schema, read and checked from its JSON file.

`memory.profile` builds the schema from these specs; this module holds what one slot or
option is and how a malformed file is reported (`ProfileSchemaError` names the file, the
slot and the option).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, cast

from memory.errors import InvalidSlotValue, MemoryEngineError
from memory.types import Polarity

LANGS = ("en", "zh")
MAX_LABEL_CHARS = 75  # a chat select option's limit on its text (the strictest one)
POLARITIES = ("must", "prefer", "avoid")
_STANCES = frozenset(("negative", "accept", "positive"))


class ProfileSchemaError(MemoryEngineError, ValueError):
    """The profile schema file is malformed; the message names the file and the slot."""


def lang_key(lang: str) -> str:
    """ "zh" for any Chinese language tag, otherwise "en"."""
    return "zh" if lang.lower().startswith("zh") else "en"


@dataclass(frozen=True)
class OptionSpec:
    """One choice of a slot, e.g. `window` of `seat`."""

    id: str
    labels: dict[str, str]
    polarity: Polarity
    render: dict[str, str] = field(default_factory=dict)  # single slots: the summary phrase
    patterns: tuple[re.Pattern[str], ...] = ()
    stance: frozenset[str] = frozenset()  # clause stances that pick it when only the topic shows
    opposite: str | None = None  # what a negated mention means ("no window seat" -> aisle)

    def label(self, lang: str) -> str:
        return self.labels[lang_key(lang)]


@dataclass(frozen=True)
class SlotSpec:
    """One typed slot of the profile."""

    id: str
    kind: Literal["single", "multi"]
    labels: dict[str, str]
    help: dict[str, str]
    options: tuple[OptionSpec, ...]
    exclusive_with: str | None
    template: dict[str, str] = field(default_factory=dict)  # multi slots: "prefers {labels}"
    topic: tuple[re.Pattern[str], ...] = ()
    stance: frozenset[str] = frozenset()  # multi slots: the clause stances this slot takes
    applies_to: frozenset[str] = frozenset()  # modes the slot implies: never its scope

    def label(self, lang: str) -> str:
        return self.labels[lang_key(lang)]

    def option(self, option_id: str) -> OptionSpec:
        for option in self.options:
            if option.id == option_id:
                return option
        choices = ", ".join(o.id for o in self.options)
        raise InvalidSlotValue(f"{option_id!r} is not an option of {self.id!r}; use {choices}")


def need(ok: object, message: str) -> None:
    if not ok:
        raise ProfileSchemaError(message)


def _patterns(raw: Any, where: str) -> tuple[re.Pattern[str], ...]:
    if raw is None:
        return ()
    need(isinstance(raw, dict) and set(raw) <= set(LANGS), f"{where}: patterns need en/zh lists")
    compiled = []
    for pattern in [p for lang in LANGS for p in raw.get(lang, [])]:
        try:
            compiled.append(re.compile(pattern, re.IGNORECASE))
        except (re.error, TypeError) as exc:
            raise ProfileSchemaError(f"{where}: pattern {pattern!r} is invalid: {exc}") from exc
        need(not compiled[-1].match(""), f"{where}: pattern {pattern!r} matches empty text")
    return tuple(compiled)


def joined(raw: Any, where: str) -> re.Pattern[str]:
    patterns = _patterns(raw, where)
    need(patterns, f"{where}: no patterns")
    return re.compile("|".join(f"(?:{p.pattern})" for p in patterns), re.IGNORECASE)


def _texts(raw: Any, where: str, limit: int = 1000) -> dict[str, str]:
    ok = isinstance(raw, dict) and all(
        isinstance(raw.get(k), str) and raw[k].strip() for k in LANGS
    )
    need(ok, f"{where}: needs non-empty 'en' and 'zh' texts")
    need(all(len(raw[k]) <= limit for k in LANGS), f"{where}: longer than {limit} characters")
    return {k: raw[k] for k in LANGS}


def _stances(raw: Any, where: str) -> frozenset[str]:
    ok = isinstance(raw, list | None) and set(raw or ()) <= _STANCES
    need(ok, f"{where}: stance must list some of {sorted(_STANCES)}")
    return frozenset(raw or ())


def _id(raw: Any, where: str) -> str:
    need(isinstance(raw, dict) and raw.get("id") and isinstance(raw["id"], str), f"{where}: no id")
    return str(raw["id"])


def _option(raw: Any, where: str, kind: str) -> OptionSpec:
    where = f"{where} option {_id(raw, where)!r}"
    need(raw.get("polarity") in POLARITIES, f"{where}: polarity must be must/prefer/avoid")
    return OptionSpec(
        id=raw["id"],
        labels=_texts(raw.get("labels"), f"{where} labels", MAX_LABEL_CHARS),
        polarity=cast(Polarity, raw["polarity"]),
        render=_texts(raw.get("render"), f"{where} render") if kind == "single" else {},
        patterns=_patterns(raw.get("patterns"), where),
        stance=_stances(raw.get("stance"), where),
        opposite=raw.get("opposite"),
    )


def read_slot(raw: Any, source: str, earlier: Mapping[str, SlotSpec]) -> SlotSpec:
    where = f"{source}: slot {_id(raw, f'{source}: slot')!r}"
    kind = raw.get("kind")
    need(kind in ("single", "multi"), f"{where}: kind must be 'single' or 'multi'")
    if "options_from" in raw:
        ok = raw["options_from"] in earlier and raw.get("polarity") in POLARITIES
        need(ok, f"{where}: options_from needs an earlier slot and a polarity")
        base = earlier[raw["options_from"]].options
        options = tuple(replace(o, polarity=cast(Polarity, raw["polarity"])) for o in base)
    else:
        options = tuple(_option(o, where, kind) for o in raw.get("options") or [])
    ids = [o.id for o in options]
    need(ids and len(set(ids)) == len(ids), f"{where}: option ids must be present and unique")
    need(all(o.opposite in (None, *ids) for o in options), f"{where}: unknown 'opposite'")
    template = _texts(raw.get("render"), f"{where} render") if kind == "multi" else {}
    ok = kind == "single" or all("{labels}" in template[k] for k in LANGS)
    need(ok, f"{where}: render must contain {{labels}} in en and zh")
    return SlotSpec(
        id=raw["id"],
        kind=kind,
        labels=_texts(raw.get("labels"), f"{where} labels", MAX_LABEL_CHARS),
        help=_texts(raw["help"], f"{where} help") if "help" in raw else {},
        options=options,
        exclusive_with=raw.get("exclusive_with"),
        template=template,
        topic=_patterns(raw.get("topic"), f"{where} topic"),
        stance=_stances(raw.get("stance"), where),
        applies_to=_modes(raw.get("applies_to"), where),
    )


def _modes(raw: Any, where: str) -> frozenset[str]:
    ok = raw is None or (isinstance(raw, list) and all(isinstance(m, str) for m in raw))
    need(ok, f"{where}: applies_to must list modes")
    return frozenset(raw or ())


__all__ = [
    "LANGS",
    "MAX_LABEL_CHARS",
    "POLARITIES",
    "OptionSpec",
    "ProfileSchemaError",
    "SlotSpec",
    "joined",
    "lang_key",
    "need",
    "read_slot",
]
