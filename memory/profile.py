"""The typed profile schema: it validates slot values, recognises the one slot a free-text
fact sets (and the scope it is limited to, see `memory.scope`), and renders profiles in
English and Chinese. Slots, options, labels, phrases and recognition patterns all live in
`profile_schema.json`; what makes a scope lives in `scope_terms.json`."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, NamedTuple

from memory import option_lists
from memory.errors import InvalidSlotValue
from memory.scope import ScopeReader, load_scopes
from memory.slots import (
    OptionSpec,
    ProfileSchemaError,
    SlotSpec,
    joined,
    lang_key,
    need,
    read_slot,
)
from memory.types import Polarity, SlotMatch

Stance = Literal["negative", "accept", "positive"]
Value = str | tuple[str, ...]
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
_INSTEAD_OF = re.compile(  # "... has replaced / took over from / 取代了 ...": the later left
    r"^\W*(?:instead of|rather than|over|而不是|而非|(?:ha[sd] |have )?(?:replaced|"
    r"(?:took|taken) over from)|(?:取代|代替|替代|替换)了?)\W*$|"
    r"^(?P<out>(?:'s|\s+is|\s+are)?\s+out\s*[,;]\s*)$",
    re.IGNORECASE,
)
# Words that leave the option right after them, when the same fact names another of the
# slot: "I'm done with Hilton, Marriott from now on", "I've gone off Marriott, I book Hyatt
# now", "I used to love Hilton, now only Marriott", "以前住万豪，现在住希尔顿" move to the
# other option; neither prefers both.
_LEAVING = re.compile(
    r"\b(?:(?:i'?m|i am) (?:done|finished) with|done with|(?:gone|went) off|fed up with|"
    r"sick of|tired of|no more|(?:quit|quitting)|(?:gave|given|giving) up(?: on)?|"
    r"(?:dropped|ditched|left)|"
    r"(?:moved|moving|switched|switching) (?:away )?from|"
    r"(?:stopped|stop) (?:using|booking|flying(?: with)?|staying (?:at|with)|taking)|"
    r"used to (?:[a-z]+ ){0,2})"
    r"(?:\s+(?:the|an?))?\s*$|不再(?:住|坐|订|用|飞|选)?\s*$|"
    r"(?:以前|原来|过去)(?:很|挺|一直|常|总)?(?:喜欢|爱)?(?:住|坐|订|用|飞|选)?\s*$",
    re.IGNORECASE,
)

# Words that add the rest of a fact to what was given up ("I'm done with Hilton, and
# Marriott too"), so its stance carries on.
_ALSO = re.compile(r"\b(?:too|also|as well|either|neither|nor)\b|也|都不", re.IGNORECASE)

# A brand named as a membership ("我是南航明珠会员", "I'm a United MileagePlus member", "I
# cancelled my Hyatt membership") in a clause that chooses nothing is no choice of it.
_MEMBERSHIP = re.compile(
    r"(?:'s)?\s*(?:[a-z-]+\s+){0,2}?(?:members?(?:hip)?|status|elite|honou?rs|bonvoy|"
    r"skymiles|mileageplus|rewards|loyalty|frequent flyer)\b|的?[^\W\d_a-zA-Z]{0,4}?"
    r"(?:会员|常旅客|金卡|银卡|白金卡)",
    re.IGNORECASE,
)


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
        need(set(cues) == set(_CUES), f"{source}: 'cues' must have exactly {_CUES}")
        self._cues = {name: joined(cues[name], f"{source}: cue {name}") for name in _CUES}
        self._any_cue = re.compile(
            "|".join(f"(?:{p.pattern})" for p in self._cues.values()), re.IGNORECASE
        )
        self.scopes = scopes if scopes is not None else load_scopes()
        self._separators = joined(data.get("clause_separators"), f"{source}: clause_separators")
        by_id: dict[str, SlotSpec] = {}
        for raw in data.get("slots") or []:
            slot = read_slot(raw, source, by_id)
            need(slot.id not in by_id, f"{source}: slot {slot.id!r} is defined twice")
            by_id[slot.id] = slot
        need(by_id, f"{source}: no slots")
        for slot in by_id.values():
            partner = by_id.get(slot.exclusive_with or slot.id)
            ids = [o.id for o in partner.options] if partner else []
            ok = partner and partner.exclusive_with in (None, slot.id)
            where = f"{source}: slot {slot.id!r}: exclusive_with"
            need(ok and ids == [o.id for o in slot.options], f"{where}: no matching partner slot")
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
        slot, normal, lang = self.slot(slot_id), self._known(slot_id, value), lang_key(lang)
        if isinstance(normal, str):
            return slot.option(normal).render[lang]
        labels = _LIST_SEP[lang].join(o.labels[lang] for o in slot.options if o.id in normal)
        return slot.template[lang].format(labels=labels)

    def render_sentence(self, values: Mapping[str, object], lang: str) -> str:
        """The whole profile as one sentence, slots in schema order ("" when empty)."""
        clean = {k: v for k, raw in values.items() if (v := self.validate(k, raw)) is not None}
        lang = lang_key(lang)
        phrases = [self.render(s.id, clean[s.id], lang) for s in self.slots if s.id in clean]
        if not phrases:
            return ""
        text = ("；" if lang == "zh" else "; ").join(phrases)
        return text[0].upper() + text[1:] + ("。" if lang == "zh" else ".")

    def detect(self, text: str) -> SlotMatch | None:
        """The one slot a free-text fact sets, or None (no slot, or several)."""
        text = unicodedata.normalize("NFKC", text).replace("\u2019", "'")
        found, named = self._hits(text)
        hits = self._changes(named, text)
        left = [h for h in named if h not in hits and _LEAVING.search(text[: h.start])]
        hits = [h for h in hits if not self._membership(h, text)]
        chars = list(text)
        for hit in hits:  # cue words inside a recognised phrase ("no more than") are not cues
            chars[hit.start : hit.end] = " " * (hit.end - hit.start)
        masked = "".join(chars)
        picked: dict[str, tuple[frozenset[str], Polarity]] = {}
        families: set[str] = set()
        stance: Stance = "positive"
        must, start = False, 0
        ends = option_lists.clause_ends(self._separators, masked, hits)
        for separator in [*ends, None]:
            end = separator.start() if separator else len(masked)
            clause_stance, clause_must = self._stance(masked[start:end], text[start:end])
            if clause_stance is not None:  # a clause without a cue continues the previous one
                stance, must = clause_stance, clause_must
            in_clause = [h for h in hits if start <= h.start < end]
            if (
                not in_clause
                and any(start <= h.start < end for h in left)
                and not _ALSO.search(text[end:])
            ):
                # a clause of its own that only gives up the option left ("I've ditched
                # Marriott, Hilton all the way now"): the rest of the fact chooses
                stance, must = "positive", False
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
            ignore=[(h.start, h.end) for h in found],  # a dropped option too ("from X")
            implied=slot.applies_to,
            cues=self._any_cue,
        )
        value = min(values) if slot.kind == "single" else tuple(sorted(values))
        return SlotMatch(slot_id, value, polarity, scope)

    @property
    def cue_pattern(self) -> re.Pattern[str]:
        """Every stance cue of the schema as one pattern."""
        return self._any_cue

    def phrases(self, text: str) -> list[tuple[int, int]]:
        """Where the slots' own phrases (topics and options) are in `text` (NFKC-normalised)."""
        return [m.span() for _, _, pattern in self._matchers for m in pattern.finditer(text)]

    def option_spans(self, text: str, slot_id: str) -> list[tuple[int, int, str]]:
        """Where `text` (NFKC-normalised) names options of one slot, in order."""
        named = self._hits(text)[1]
        return sorted((h.start, h.end, h.option) for h in named if h.slot == slot_id and h.option)

    def _hits(self, text: str) -> tuple[list[_Hit], list[_Hit]]:
        """Every phrase of the slots in `text`, and those no longer one covers."""
        found = [
            _Hit(*m.span(), slot, o) for slot, o, p in self._matchers for m in p.finditer(text)
        ]
        return found, [h for h in found if not any(_covers(o, h) for o in found)]

    def stance(self, text: str) -> Stance | None:
        """The stance `text` takes as a whole (None: no stance cue)."""
        return self._stance(text, text)[0]

    def scope_label(self, scope: str | None, lang: str) -> str:
        """A stored scope key in words ("trains", "日本、温泉"); "" for general values."""
        return self.scopes.label(scope, lang)

    def label_scoped(self, slot_id: str, value: Value, scope: str | None, lang: str) -> str:
        """The option labels of a value, its scope in front ("trains: Window", "火车：靠窗")."""
        slot, normal = self.slot(slot_id), self._known(slot_id, value)
        chosen = {normal} if isinstance(normal, str) else set(normal)
        labels = _LIST_SEP[lang_key(lang)].join(
            o.label(lang) for o in slot.options if o.id in chosen
        )
        if not scope:
            return labels
        return f"{self.scope_label(scope, lang)}{'：' if lang_key(lang) == 'zh' else ': '}{labels}"

    def _changes(self, hits: list[_Hit], text: str) -> list[_Hit]:
        """Drop the option a fact moves away from: "高铁一等座改成二等座" sets second class,
        "I've gone off Marriott, I book Hyatt now" prefers Hyatt."""
        dropped: set[_Hit] = set()
        for a in hits:
            for b in hits:
                if a.start >= b.start or a.slot != b.slot or len({a.option, b.option} - {None}) < 2:
                    continue
                between = text[a.end : b.start]
                changed = _CHANGED_TO.match(between)
                if changed and (not changed.group("to") or _FROM.search(text[: a.start])):
                    dropped.add(a)
                elif instead := _INSTEAD_OF.match(between):
                    dropped.add(a if instead.group("out") else b)  # "Uber's out, Lyft's in"
            listed = option_lists.same_list(a, hits, text)
            others = {b.option for b in hits if b.slot == a.slot} - {h.option for h in listed}
            if a.option is not None and others and _LEAVING.search(text[: listed[0].start]):
                dropped.add(a)  # "I'm done with Hilton, Marriott from now on"
        return [h for h in hits if h not in dropped]

    def _membership(self, hit: _Hit, text: str) -> bool:
        """Whether `hit` names a brand as a membership, in a clause with no choosing cue."""
        if hit.option is None or not _MEMBERSHIP.match(text, hit.end):
            return False
        bounds = [0, *(m.end() for m in self._separators.finditer(text)), len(text) + 1]
        start = max(b for b in bounds if b <= hit.start)
        end = min(b for b in bounds if b > hit.start)
        clause = text[start : hit.start] + " " + text[hit.end : end]
        return self._cues["positive"].search(clause) is None

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


__all__ = ["Clash", "ProfileSchema", "Stance", "Value", "load_schema"]
