"""The typed profile schema: it validates slot values, recognises the one slot a free-text
fact sets (and the scope it is limited to, see `memory.scope`), and renders profiles in
English and Chinese. Slots, options, labels, phrases and recognition patterns all live in
`profile_schema.json`; what makes a scope lives in `scope_terms.json`."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, NamedTuple, cast

from memory.errors import InvalidSlotValue, MemoryEngineError
from memory.scope import ScopeReader, load_scopes
from memory.types import Polarity, SlotMatch

Stance = Literal["negative", "accept", "positive"]
Value = str | tuple[str, ...]
LANGS = ("en", "zh")
MAX_LABEL_CHARS = 75  # Slack's limit on the text of a select option
_POLARITIES = ("must", "prefer", "avoid")
_STANCES = frozenset(("negative", "accept", "positive"))
_CUES = ("neutral", "accept", "negative", "must", "positive")
_STRENGTH = {"prefer": 0, "avoid": 1, "must": 2}
_LIST_SEP = {"en": ", ", "zh": "、"}
_DEFAULT_PATH = Path(__file__).with_name("profile_schema.json")
# Between two options of one slot: the earlier is what changed ("一等座改成二等座",
# "from window to aisle"), or the later is what was turned down ("window instead of aisle").
_CHANGED_TO = re.compile(
    r"^\W*(?:(?:改成|改为|换成|变成)\W*[^\W\d_a-zA-Z]{0,2}|->|→|(?P<to>to(?:\W+(?:an?|the))?))\W*$"
)
_FROM = re.compile(r"\bfrom(?:\s+(?:an?|the))?\s*$", re.IGNORECASE)
_INSTEAD_OF = re.compile(r"^\W*(?:instead of|rather than|over|而不是|而非)\W*$", re.IGNORECASE)


class ProfileSchemaError(MemoryEngineError, ValueError):
    """The profile schema file is malformed; the message names the file and the slot."""


def _lang(lang: str) -> str:
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
        return self.labels[_lang(lang)]


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
        return self.labels[_lang(lang)]

    def option(self, option_id: str) -> OptionSpec:
        for option in self.options:
            if option.id == option_id:
                return option
        choices = ", ".join(o.id for o in self.options)
        raise InvalidSlotValue(f"{option_id!r} is not an option of {self.id!r}; use {choices}")


@dataclass(frozen=True)
class Clash:
    """`options` are in both `slot` and its exclusive partner `other` (preferred and avoided)."""

    slot: str
    other: str
    options: tuple[str, ...]  # in the slots' option order


class _Hit(NamedTuple):
    start: int
    end: int
    slot: str
    option: str | None  # None: the slot's topic, without a value


class ProfileSchema:
    """The loaded, checked schema; build it with `load_schema()`."""

    def __init__(
        self,
        data: Mapping[str, Any],
        source: str = "<profile schema>",
        scopes: ScopeReader | None = None,
    ) -> None:
        cues: dict[str, Any] = data.get("cues") or {}
        _need(set(cues) == set(_CUES), f"{source}: 'cues' must have exactly {_CUES}")
        self._cues = {name: _joined(cues[name], f"{source}: cue {name}") for name in _CUES}
        self._any_cue = re.compile(
            "|".join(f"(?:{p.pattern})" for p in self._cues.values()), re.IGNORECASE
        )
        self.scopes = scopes if scopes is not None else load_scopes()
        self._separators = _joined(data.get("clause_separators"), f"{source}: clause_separators")
        by_id: dict[str, SlotSpec] = {}
        for raw in data.get("slots") or []:
            slot = _slot(raw, source, by_id)
            _need(slot.id not in by_id, f"{source}: slot {slot.id!r} is defined twice")
            by_id[slot.id] = slot
        _need(by_id, f"{source}: no slots")
        for slot in by_id.values():
            partner = by_id.get(slot.exclusive_with or slot.id)
            ids = [o.id for o in partner.options] if partner else []
            ok = partner and partner.exclusive_with in (None, slot.id)
            where = f"{source}: slot {slot.id!r}: exclusive_with"
            _need(ok and ids == [o.id for o in slot.options], f"{where}: no matching partner slot")
        self.slots: tuple[SlotSpec, ...] = tuple(by_id.values())
        self._by_id = by_id
        self._matchers = [(s.id, None, p) for s in self.slots for p in s.topic] + [
            (s.id, o.id, p) for s in self.slots for o in s.options for p in o.patterns
        ]

    def slot(self, slot_id: str) -> SlotSpec:
        try:
            return self._by_id[slot_id]
        except (KeyError, TypeError):
            known = ", ".join(self._by_id)
            raise InvalidSlotValue(f"unknown profile slot {slot_id!r}; known: {known}") from None

    def clashes(self, profile: Mapping[str, object]) -> list[Clash]:
        """Options that would be both preferred and avoided (e.g. an airline), one `Clash`
        per exclusive pair of slots, in schema order; [] when there are none."""
        found = []
        for slot in self.slots:
            other = slot.exclusive_with
            if not other or slot.id > other:
                continue
            both = _chosen(profile.get(slot.id)) & _chosen(profile.get(other))
            if both:
                ordered = [o.id for o in slot.options if o.id in both]
                ordered += sorted(both - set(ordered))
                found.append(Clash(slot.id, other, tuple(ordered)))
        return found

    def validate(self, slot_id: str, value: object) -> Value | None:
        """The value in canonical form, None for "clear"; InvalidSlotValue when not allowed."""
        slot = self.slot(slot_id)
        if value is None:
            return None
        if slot.kind == "single":
            if isinstance(value, int) and not isinstance(value, bool):
                value = str(value)
            if not isinstance(value, str):
                raise InvalidSlotValue(f"slot {slot_id!r} takes one option id, not {value!r}")
            return slot.option(value.strip()).id
        items = value.split(",") if isinstance(value, str) else value
        if not isinstance(items, list | tuple | set | frozenset) or not all(
            isinstance(item, str) for item in items
        ):
            raise InvalidSlotValue(f"slot {slot_id!r} takes a list of option ids, not {value!r}")
        ids = {item.strip() for item in items} - {""}
        for option_id in sorted(ids):
            slot.option(option_id)
        return tuple(sorted(ids)) or None

    def _known(self, slot_id: str, value: object) -> Value:
        normal = self.validate(slot_id, value)
        if normal is None:
            raise InvalidSlotValue(f"slot {slot_id!r} needs a value here, not {value!r}")
        return normal

    def polarity(self, slot_id: str, value: Value) -> Polarity:
        normal = self._known(slot_id, value)
        return self.slot(slot_id).option(normal if isinstance(normal, str) else normal[0]).polarity

    def render(self, slot_id: str, value: Value, lang: str) -> str:
        slot, normal, lang = self.slot(slot_id), self._known(slot_id, value), _lang(lang)
        if isinstance(normal, str):
            return slot.option(normal).render[lang]
        labels = _LIST_SEP[lang].join(o.labels[lang] for o in slot.options if o.id in normal)
        return slot.template[lang].format(labels=labels)

    def render_sentence(self, values: Mapping[str, object], lang: str) -> str:
        """The whole profile as one sentence, slots in schema order ("" when empty)."""
        clean = {k: v for k, raw in values.items() if (v := self.validate(k, raw)) is not None}
        lang = _lang(lang)
        phrases = [self.render(s.id, clean[s.id], lang) for s in self.slots if s.id in clean]
        if not phrases:
            return ""
        text = ("；" if lang == "zh" else "; ").join(phrases)
        return text[0].upper() + text[1:] + ("。" if lang == "zh" else ".")

    def detect(self, text: str) -> SlotMatch | None:
        """The one slot a free-text fact sets, or None (no slot, or several)."""
        text = unicodedata.normalize("NFKC", text).replace("\u2019", "'")
        found = [
            _Hit(m.start(), m.end(), slot, option)
            for slot, option, pattern in self._matchers
            for m in pattern.finditer(text)
        ]
        hits = self._changes([h for h in found if not any(_covers(o, h) for o in found)], text)
        chars = list(text)
        for hit in hits:  # cue words inside a recognised phrase ("no more than") are not cues
            chars[hit.start : hit.end] = " " * (hit.end - hit.start)
        masked = "".join(chars)
        picked: dict[str, tuple[frozenset[str], Polarity]] = {}
        families: set[str] = set()
        stance: Stance = "positive"
        must, start = False, 0
        for separator in [*self._separators.finditer(masked), None]:
            end = separator.start() if separator else len(masked)
            clause_stance, clause_must = self._stance(masked[start:end], text[start:end])
            if clause_stance is not None:  # a clause without a cue continues the previous one
                stance, must = clause_stance, clause_must
            in_clause = [h for h in hits if start <= h.start < end]
            for slot_id in dict.fromkeys(h.slot for h in in_clause):
                slot = self._by_id[slot_id]
                families.add(min(slot.id, slot.exclusive_with or slot.id))
                options = {h.option for h in in_clause if h.slot == slot_id}
                choice = self._choose(slot, options, stance, must)
                if choice is not None and not _merge(picked, slot, *choice):
                    return None
            start = separator.end() if separator else end
        if len(picked) != 1 or len(families) != 1:
            return None
        ((slot_id, (values, polarity)),) = picked.items()
        slot = self._by_id[slot_id]
        scope = self.scopes.read(
            text,
            ignore=[(h.start, h.end) for h in hits],
            implied=slot.applies_to,
            cues=self._any_cue,
        )
        value = min(values) if slot.kind == "single" else tuple(sorted(values))
        return SlotMatch(slot_id, value, polarity, scope)

    def scope_label(self, scope: str | None, lang: str) -> str:
        """A stored scope key in words ("trains", "日本、温泉"); "" for general values."""
        return self.scopes.label(scope, lang)

    def label_scoped(self, slot_id: str, value: Value, scope: str | None, lang: str) -> str:
        """The option labels of a value, its scope in front ("trains: Window", "火车：靠窗")."""
        slot, normal = self.slot(slot_id), self._known(slot_id, value)
        chosen = {normal} if isinstance(normal, str) else set(normal)
        labels = _LIST_SEP[_lang(lang)].join(o.label(lang) for o in slot.options if o.id in chosen)
        if not scope:
            return labels
        return f"{self.scope_label(scope, lang)}{'：' if _lang(lang) == 'zh' else ': '}{labels}"

    def _changes(self, hits: list[_Hit], text: str) -> list[_Hit]:
        """Drop the option a fact moves away from: "高铁一等座改成二等座" sets second class."""
        dropped: set[_Hit] = set()
        for a in hits:
            for b in hits:
                if a.start >= b.start or a.slot != b.slot or None in (a.option, b.option):
                    continue
                if a.option == b.option or self._by_id[a.slot].kind != "single":
                    continue
                between = text[a.end : b.start]
                changed = _CHANGED_TO.match(between)
                if changed and (not changed.group("to") or _FROM.search(text[: a.start])):
                    dropped.add(a)
                elif _INSTEAD_OF.match(between):
                    dropped.add(b)
        return [h for h in hits if h not in dropped]

    def _stance(self, masked: str, original: str) -> tuple[Stance | None, bool]:
        must = self._cues["must"].search(self._cues["neutral"].sub(" ", original)) is not None
        clause, accepted = self._cues["accept"].subn(" ", self._cues["neutral"].sub(" ", masked))
        if self._cues["negative"].search(clause):
            return "negative", must
        if accepted:
            return "accept", must
        if must or self._cues["positive"].search(clause):
            return "positive", must
        return None, False

    def _choose(
        self, slot: SlotSpec, mentioned: set[str | None], stance: Stance, must: bool
    ) -> tuple[frozenset[str], Polarity] | None:
        direct = sorted(o for o in mentioned if o is not None)
        options: list[OptionSpec] = []
        if slot.kind == "multi":
            options = [slot.option(o) for o in direct] if stance in slot.stance else []
        elif len(direct) == 1:
            option = slot.option(direct[0])
            if stance != "negative":
                options = [option]
            elif option.opposite:
                options = [slot.option(option.opposite)]
        elif not direct:  # only the topic: the clause's stance picks the option
            options = [o for o in slot.options if stance in o.stance][:1]
        if not options:
            return None
        polarity = options[0].polarity
        if must and stance == "positive" and polarity == "prefer":
            polarity = "must"
        return frozenset(o.id for o in options), polarity


def _covers(outer: _Hit, inner: _Hit) -> bool:
    longer = outer.end - outer.start > inner.end - inner.start
    return longer and outer.start <= inner.start and inner.end <= outer.end


def _merge(
    picked: dict[str, tuple[frozenset[str], Polarity]],
    slot: SlotSpec,
    values: frozenset[str],
    polarity: Polarity,
) -> bool:
    """Fold one clause's choice into the others'; False when they contradict."""
    if slot.id in picked:
        old_values, old_polarity = picked[slot.id]
        if slot.kind == "single" and old_values != values:
            return False
        values = old_values | values
        polarity = max(old_polarity, polarity, key=_STRENGTH.__getitem__)
    picked[slot.id] = (values, polarity)
    return True


def _need(ok: object, message: str) -> None:
    if not ok:
        raise ProfileSchemaError(message)


def _patterns(raw: Any, where: str) -> tuple[re.Pattern[str], ...]:
    if raw is None:
        return ()
    _need(isinstance(raw, dict) and set(raw) <= set(LANGS), f"{where}: patterns need en/zh lists")
    compiled = []
    for pattern in [p for lang in LANGS for p in raw.get(lang, [])]:
        try:
            compiled.append(re.compile(pattern, re.IGNORECASE))
        except (re.error, TypeError) as exc:
            raise ProfileSchemaError(f"{where}: pattern {pattern!r} is invalid: {exc}") from exc
        _need(not compiled[-1].match(""), f"{where}: pattern {pattern!r} matches empty text")
    return tuple(compiled)


def _joined(raw: Any, where: str) -> re.Pattern[str]:
    patterns = _patterns(raw, where)
    _need(patterns, f"{where}: no patterns")
    return re.compile("|".join(f"(?:{p.pattern})" for p in patterns), re.IGNORECASE)


def _texts(raw: Any, where: str, limit: int = 1000) -> dict[str, str]:
    ok = isinstance(raw, dict) and all(
        isinstance(raw.get(k), str) and raw[k].strip() for k in LANGS
    )
    _need(ok, f"{where}: needs non-empty 'en' and 'zh' texts")
    _need(all(len(raw[k]) <= limit for k in LANGS), f"{where}: longer than {limit} characters")
    return {k: raw[k] for k in LANGS}


def _stances(raw: Any, where: str) -> frozenset[str]:
    ok = isinstance(raw, list | None) and set(raw or ()) <= _STANCES
    _need(ok, f"{where}: stance must list some of {sorted(_STANCES)}")
    return frozenset(raw or ())


def _id(raw: Any, where: str) -> str:
    _need(isinstance(raw, dict) and raw.get("id") and isinstance(raw["id"], str), f"{where}: no id")
    return str(raw["id"])


def _option(raw: Any, where: str, kind: str) -> OptionSpec:
    where = f"{where} option {_id(raw, where)!r}"
    _need(raw.get("polarity") in _POLARITIES, f"{where}: polarity must be must/prefer/avoid")
    return OptionSpec(
        id=raw["id"],
        labels=_texts(raw.get("labels"), f"{where} labels", MAX_LABEL_CHARS),
        polarity=cast(Polarity, raw["polarity"]),
        render=_texts(raw.get("render"), f"{where} render") if kind == "single" else {},
        patterns=_patterns(raw.get("patterns"), where),
        stance=_stances(raw.get("stance"), where),
        opposite=raw.get("opposite"),
    )


def _slot(raw: Any, source: str, earlier: Mapping[str, SlotSpec]) -> SlotSpec:
    where = f"{source}: slot {_id(raw, f'{source}: slot')!r}"
    kind = raw.get("kind")
    _need(kind in ("single", "multi"), f"{where}: kind must be 'single' or 'multi'")
    if "options_from" in raw:
        ok = raw["options_from"] in earlier and raw.get("polarity") in _POLARITIES
        _need(ok, f"{where}: options_from needs an earlier slot and a polarity")
        base = earlier[raw["options_from"]].options
        options = tuple(replace(o, polarity=cast(Polarity, raw["polarity"])) for o in base)
    else:
        options = tuple(_option(o, where, kind) for o in raw.get("options") or [])
    ids = [o.id for o in options]
    _need(ids and len(set(ids)) == len(ids), f"{where}: option ids must be present and unique")
    _need(all(o.opposite in (None, *ids) for o in options), f"{where}: unknown 'opposite'")
    template = _texts(raw.get("render"), f"{where} render") if kind == "multi" else {}
    ok = kind == "single" or all("{labels}" in template[k] for k in LANGS)
    _need(ok, f"{where}: render must contain {{labels}} in en and zh")
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
    _need(ok, f"{where}: applies_to must list modes")
    return frozenset(raw or ())


def load_schema(path: str | Path | None = None) -> ProfileSchema:
    """The schema in `path`, by default the bundled `profile_schema.json`; cached per file."""
    return _load(Path(path) if path is not None else _DEFAULT_PATH)


@lru_cache(maxsize=8)
def _load(path: Path) -> ProfileSchema:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ProfileSchemaError(f"{path}: cannot read the profile schema: {exc}") from exc
    if not isinstance(data, dict):
        raise ProfileSchemaError(f"{path}: the profile schema must be a JSON object")
    return ProfileSchema(data, source=str(path))


def _chosen(value: object) -> set[str]:
    """The option ids of a multi-choice value (anything else chooses none)."""
    if isinstance(value, list | tuple | set | frozenset):
        return {str(v) for v in value}
    return set()
