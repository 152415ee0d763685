"""What a travel fact or a recall request is about: flights, trains, lodging, food, seats, …

A small bilingual vocabulary (`subjects.json`) names each subject's everyday words in
Chinese and English; a subject also claims the profile schema's own patterns (topic and
options) of the slots it lists, so airline and hotel-brand names live in one place.
Ranking uses it to connect a request to facts that share no word with it: "有没有凌晨一点
起飞的便宜机票" and "从不坐红眼航班" are both about flights and time of day.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from memory.profile import ProfileSchema, load_schema
from memory.slots import LANGS, ProfileSchemaError

# Bumped when the code that derives a fact's subjects or language changes (not only the
# vocabulary): cached features from another version are then derived again, not trusted.
FEATURES_VERSION = 2

_DEFAULT_PATH = Path(__file__).with_name("subjects.json")
_CACHE_SIZE = 65536  # texts whose subjects are remembered: a few thousand travellers' facts
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z0-9$]")
# Latin words start a word: the guard fails fast inside words, before any alternative.
_LATIN_START = r"(?<![A-Za-z0-9'])(?=[A-Za-z0-9$])"


class Subjects:
    """The loaded vocabulary; `of(text)` is the set of subjects a text is about."""

    def __init__(
        self, data: Mapping[str, Any], schema: ProfileSchema, source: str = "<subjects>"
    ) -> None:
        raw = data.get("subjects")
        if not isinstance(raw, dict) or not raw:
            raise ProfileSchemaError(f"{source}: 'subjects' must be a non-empty object")
        patterns: dict[str, tuple[re.Pattern[str] | None, re.Pattern[str] | None]] = {}
        by_slot: dict[str, set[str]] = {}
        for name, spec in raw.items():
            where = f"{source}: subject {name!r}"
            if not isinstance(spec, dict):
                raise ProfileSchemaError(f"{where}: must be an object")
            words = [w for lang in LANGS for w in _strings(spec.get(lang), f"{where}: {lang}")]
            slots = _strings(spec.get("slots", []), f"{where}: slots")
            for slot_id in slots:
                try:
                    slot = schema.slot(slot_id)
                except ValueError as exc:
                    raise ProfileSchemaError(f"{where}: {exc}") from None
                words += [p.pattern for p in slot.topic]
                words += [p.pattern for o in slot.options for p in o.patterns]
                by_slot.setdefault(slot_id, set()).add(name)
            if not words:
                raise ProfileSchemaError(f"{where}: no words and no slots")
            _check(words, where)
            words = list(dict.fromkeys(words))  # airline names come with two slots, say
            patterns[name] = (
                _compile([w for w in words if _CJK.search(w)]),
                _compile([w for w in words if not _CJK.search(w)], _LATIN_START),
            )
        self.names: tuple[str, ...] = tuple(patterns)
        # What a request implies (`implied`), and the aspects that, named, say which.
        self._implies = _implications(data, "implies", self.names, source)
        self._aspects = _implications(data, "aspects", self.names, source)
        self._incidental = _incidentals(data, self.names, source)
        # Names the vocabulary (its subjects, their patterns and slots), so that subjects
        # derived from it once (`memory.ranking.FactFeatures`, kept in the cache entry)
        # are used again only with the same vocabulary.
        self.fingerprint = hashlib.sha1(
            json.dumps(
                [FEATURES_VERSION]
                + [[name, *(p.pattern if p else "" for p in patterns[name])] for name in self.names]
                + sorted([slot, *sorted(names)] for slot, names in by_slot.items()),
                ensure_ascii=False,
            ).encode("utf-8", "surrogatepass")
        ).hexdigest()[:16]
        self._patterns = patterns
        self._by_slot = {slot: frozenset(names) for slot, names in by_slot.items()}
        self._seen: OrderedDict[str, frozenset[str]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, text: str, slot: str | None = None) -> frozenset[str]:
        """The subjects `text` is about, plus those of its profile slot (if any)."""
        with self._lock:
            found = self._seen.get(text)
            if found is not None:
                self._seen.move_to_end(text)
        if found is None:
            normal = unicodedata.normalize("NFKC", text).replace("\u2019", "'")
            chinese, latin = _CJK.search(normal), _LATIN.search(normal)
            found = frozenset(
                name
                for name, (cjk, other) in self._patterns.items()
                if (chinese and cjk and cjk.search(normal))
                or (latin and other and other.search(normal))
            )
            with self._lock:
                self._seen[text] = found
                if len(self._seen) > _CACHE_SIZE:
                    self._seen.popitem(last=False)
        if slot is not None and slot in self._by_slot:
            return found | self._by_slot[slot]
        return found

    def asked(self, request: str) -> frozenset[str]:
        """The subjects a request is about, without those it names only in passing
        (`incidental` in the vocabulary: a time of day beside a meal or a stay, when no
        journey is asked about, says when, not what)."""
        named = self.of(request)
        return named - {
            name
            for name, (along, unless) in self._incidental.items()
            if name in named and named & along and not named & unless
        }

    def implied(self, asked: Iterable[str]) -> frozenset[str]:
        """The subjects a request about `asked` implies without naming them (`implies` in
        the vocabulary): booking a flight is about its connections, a meal about what the
        traveller can eat. A request that names one of the subject's `aspects` (a seat, a
        time, an airline…) has said what it is about, and implies nothing."""
        named = frozenset(asked)
        out: set[str] = set()
        for name in named:
            aspects = self._implies.get(name, frozenset())
            said = self._aspects.get(name, aspects)
            if not said & named:  # a request that names one of them has said which it means
                out |= aspects
        return frozenset(out - named)


def _implications(
    data: Mapping[str, Any], key: str, names: tuple[str, ...], source: str
) -> dict[str, frozenset[str]]:
    """`data[key]` ("implies", "aspects"): for a subject, a list of other subjects."""
    raw = data.get(key, {})
    if not isinstance(raw, dict):
        raise ProfileSchemaError(f"{source}: {key!r} must be an object")
    out: dict[str, frozenset[str]] = {}
    for name, targets in raw.items():
        listed = _strings(targets, f"{source}: {key} {name!r}")
        unknown = [t for t in [name, *listed] if t not in names]
        if unknown:
            raise ProfileSchemaError(f"{source}: {key} names unknown subjects {unknown}")
        out[name] = frozenset(listed) - {name}
    return out


def _incidentals(
    data: Mapping[str, Any], names: tuple[str, ...], source: str
) -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """`data["incidental"]`: for a subject, the subjects `with` which a request names it
    in passing, `unless` it also names one of those."""
    raw = data.get("incidental", {})
    if not isinstance(raw, dict):
        raise ProfileSchemaError(f"{source}: 'incidental' must be an object")
    out: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
    for name, spec in raw.items():
        where = f"{source}: incidental {name!r}"
        if not isinstance(spec, dict):
            raise ProfileSchemaError(f"{where}: must be an object")
        along = _strings(spec.get("with"), f"{where}: with")
        unless = _strings(spec.get("unless"), f"{where}: unless")
        unknown = [s for s in [name, *along, *unless] if s not in names]
        if unknown:
            raise ProfileSchemaError(f"{source}: incidental names unknown subjects {unknown}")
        out[name] = (frozenset(along), frozenset(unless))
    return out


def _strings(raw: Any, where: str) -> list[str]:
    if raw is None:
        return []
    if not isinstance(raw, list) or not all(isinstance(w, str) and w for w in raw):
        raise ProfileSchemaError(f"{where}: must be a list of non-empty strings")
    return list(raw)


def _check(words: Iterable[str], where: str) -> None:
    for word in words:
        try:
            single = re.compile(word, re.IGNORECASE)
        except re.error as exc:
            raise ProfileSchemaError(f"{where}: pattern {word!r} is invalid: {exc}") from exc
        if single.match(""):
            raise ProfileSchemaError(f"{where}: pattern {word!r} matches empty text")


def _compile(words: list[str], prefix: str = "") -> re.Pattern[str] | None:
    """One alternation; Chinese words and the others apart, so that a text is only
    searched for words of the scripts it contains (most of the cost is per alternative)."""
    if not words:
        return None
    return re.compile(prefix + "(?:" + "|".join(f"(?:{w})" for w in words) + ")", re.IGNORECASE)


def load_subjects(path: str | Path | None = None, schema: ProfileSchema | None = None) -> Subjects:
    """The vocabulary in `path` (default: the bundled `subjects.json`) against `schema`
    (default: the bundled profile schema); loaded once per file and schema."""
    return _load(Path(path) if path is not None else _DEFAULT_PATH, schema or load_schema())


@lru_cache(maxsize=8)
def _load(path: Path, schema: ProfileSchema) -> Subjects:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ProfileSchemaError(f"{path}: cannot read the subject vocabulary: {exc}") from exc
    if not isinstance(data, dict):
        raise ProfileSchemaError(f"{path}: the subject vocabulary must be a JSON object")
    return Subjects(data, schema, source=str(path))
