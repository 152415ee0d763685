"""Scopes: the part of travel a typed slot fact is limited to.

"On trains I like a window seat" sets the `seat` slot for trains only; "For flights to
New York a red-eye is fine" sets `red_eye` for New York only. Such a fact must never
replace the general fact of its slot ("I prefer aisle seats"), nor be replaced by it:
both stay current, and only a later fact of the *same* scope replaces it.

The scope is a field of the slot fact (column `scope`), not more slots. A slot per mode
("train seat", "flight seat") would cover modes only, while travellers limit preferences
by place ("在日本"), trip length ("long-haul", "超过4小时"), company ("带孩子的时候") and
other conditions, in any combination; a field holds all of them, keeps one form field
per slot, and leaves `Memory.profile` (the general values) exactly as it was.

A scope is a set of facets, each a kind and an id, stored as a canonical key such as
`mode:train` or `place:japan|when:温泉`:

- `mode`: a way of travelling (trains, flights, hotels, ...) the slot does not already
  imply: "坐火车" scopes a seat, while "flights" never scopes `red_eye`, which only
  exists on flights (each slot's `applies_to` in the profile schema);
- `place`: an entry of the gazetteer in `scope_terms.json` (countries, regions, Chinese
  and world cities, routes like "京沪"), or a name in a generic shape: a capitalised
  name after a preposition ("over the Alps"), "去X的时候/在X出差/飞X的航班";
- `trip`: long-haul, short-haul, domestic, international, overnight, a short or long
  stay, or a duration ("over 4 hours", "4小时以上" -> `>4h`);
- `when`: a named condition (weekends, holidays, with family, with kids, with colleagues,
  at night, in a rush, ...), or what a generic condition shape ("when ...", "if ...",
  "X的时候", "X时", "X的话", "如果X") says once known terms, stance cues, change-of-mind
  words ("now", "以后", "改成", "actually") and filler words are taken out.

Business travel ("出差", "for work") is the bot's default context, not a scope: every trip
it plans is one, so "出差只坐高铁一等座" is the traveller's general rule and "以后高铁坐
二等座就行" changes it. Reasons ("方便起身", "to see the view") are not scopes: only the
terms and shapes above make one, so a scope is never read out of an arbitrary leftover.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from memory.errors import MemoryEngineError

KINDS = ("mode", "place", "trip", "when")
LANGS = ("en", "zh")
_DEFAULT_PATH = Path(__file__).with_name("scope_terms.json")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
_EN_WORD = re.compile(r"[a-z][a-z'-]*")
_EN_NUMBERS = {
    "one": 1,
    "an": 1,
    "a": 1,
    "two": 2,
    "a couple of": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
_ZH_DIGITS = dict(zip("一二两三四五六七八九", (1, 2, 2, 3, 4, 5, 6, 7, 8, 9), strict=True))
_EN_NUM = r"(?P<n>\d+(?:\.\d+)?|" + "|".join(sorted(_EN_NUMBERS, key=len, reverse=True)) + ")"
_ZH_NUM = r"(?P<n>\d+(?:\.\d+)?|十[一二]?|[一二两三四五六七八九]十?)"
_HOURS_EN = r"\s*-?\s*(?:hours?|hrs?|h)\b"
_HOURS_ZH = r"(?:个)?(?:半)?(?:小时|钟头)"
_DURATIONS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (op, re.compile(pattern, re.IGNORECASE))
    for op, pattern in (
        (
            ">",
            r"\b(?:over|more than|longer than|above|at least|beyond|exceeding|upwards of)\s+"
            + _EN_NUM
            + _HOURS_EN,
        ),
        (">", r"\b" + _EN_NUM + r"\s*(?:\+|or more|plus)" + _HOURS_EN),
        (">", r"\b" + _EN_NUM + _HOURS_EN + r"\s*(?:\+|or more|or longer|plus)"),
        (
            "<",
            r"\b(?:under|less than|shorter than|within|up to|below|no more than|no longer than)\s+"
            + _EN_NUM
            + _HOURS_EN,
        ),
        ("=", r"\b" + _EN_NUM + _HOURS_EN),
        (">", r"(?:超过|多于|大于|长于|超出|至少|起码|超)" + _ZH_NUM + _HOURS_ZH),
        (">", _ZH_NUM + _HOURS_ZH + r"(?:以上|多|或以上|及以上|往上)"),
        ("<", _ZH_NUM + _HOURS_ZH + r"(?:以内|以下|之内|内)"),
        ("<", r"(?:不到|不超过|少于|短于|低于)" + _ZH_NUM + _HOURS_ZH),
        ("=", _ZH_NUM + _HOURS_ZH),
    )
)
_DURATION_LABELS = {
    ">": {"en": "over {n} h", "zh": "超过{n}小时"},
    "<": {"en": "under {n} h", "zh": "{n}小时以内"},
    "=": {"en": "{n} h", "zh": "{n}小时"},
}

Span = tuple[int, int]
Facet = tuple[str, str]
_NEVER = re.compile(r"(?!)")


class ScopeTermsError(MemoryEngineError, ValueError):
    """The scope vocabulary file is malformed; the message names the file and the entry."""


@dataclass(frozen=True)
class _Term:
    kind: str
    id: str
    labels: dict[str, str]
    pattern: re.Pattern[str]


def same_scope(a: str | None, b: str | None) -> bool:
    """Whether two stored scope keys are the same scope (None: the general value)."""
    return (a or "").casefold() == (b or "").casefold()


def facets_of(key: str | None) -> list[Facet]:
    """The facets of a stored scope key, in key order."""
    found: list[Facet] = []
    for part in (key or "").split("|"):
        kind, _, ident = part.partition(":")
        if kind and ident:
            found.append((kind, ident))
    return found


class ScopeReader:
    """The loaded vocabulary; `read` finds the scope of one fact."""

    def __init__(self, data: Mapping[str, Any], source: str = "<scope terms>") -> None:
        self.source = source
        terms: list[_Term] = []
        facets: Any = data.get("facets")
        ok = isinstance(facets, dict) and set(facets) == {"mode", "trip", "when"}
        _need(ok, source, "facets")
        for kind in ("mode", "trip", "when"):
            for raw in facets[kind]:
                where = f"{kind} {raw.get('id')!r}" if isinstance(raw, dict) else kind
                _need(isinstance(raw, dict) and isinstance(raw.get("id"), str), source, where)
                labels = raw.get("labels") or {}
                _need(all(isinstance(labels.get(x), str) for x in LANGS), source, f"{where} labels")
                patterns = raw.get("patterns") or {}
                listed = [p for x in LANGS for p in patterns.get(x, [])]
                joined = _alternation(listed, source, where)
                terms.append(_Term(kind, raw["id"], dict(labels), joined))
        # Places are literal names: one alternation (longest name first) and a lookup of
        # the matched name, instead of one pattern per place.
        self._place_names: dict[str, _Term] = {}
        for raw in data.get("places") or []:
            where = f"place {raw.get('id')!r}" if isinstance(raw, dict) else "place"
            ok = isinstance(raw, dict) and isinstance(raw.get("id"), str)
            _need(ok and all(raw.get(x) for x in LANGS), source, where)
            place = _Term("place", raw["id"], {x: raw[x][0] for x in LANGS}, _NEVER)
            for name in [*raw["en"], *raw["zh"]]:
                _need(name.casefold() not in self._place_names, source, f"{where}: {name!r} twice")
                self._place_names[name.casefold()] = place
        _need(terms and self._place_names, source, "no terms")
        names = sorted({n for raw in data["places"] for n in [*raw["en"], *raw["zh"]]}, key=len)
        self._place_pattern = re.compile(
            "|".join(_name(n) if n.isascii() else re.escape(n) for n in reversed(names)),
            re.IGNORECASE,
        )
        self._terms = tuple(terms)
        self._labels = {(t.kind, t.id): t.labels for t in terms}
        self._labels.update({(t.kind, t.id): t.labels for t in self._place_names.values()})
        self._default = _alternation(_both(data, "default_context"), source, "default_context")
        self._change = _alternation(_both(data, "change"), source, "change")
        self._conditions = tuple(
            _compile(p, source, "condition_shapes") for p in _both(data, "condition_shapes")
        )
        self._places = tuple(
            _compile(p, source, "place_shapes", flags=0) for p in _both(data, "place_shapes")
        )
        self._not_places = frozenset(w.casefold() for w in data.get("not_places") or ())
        fillers = data.get("fillers") or {}
        self._fillers_en = frozenset(fillers.get("en") or ())
        zh = sorted(fillers.get("zh") or (), key=len, reverse=True)
        self._fillers_zh_words = tuple(w for w in zh if len(w) > 1)
        self._fillers_zh_chars = frozenset(w for w in zh if len(w) == 1)

    def read(
        self,
        text: str,
        *,
        ignore: Sequence[Span] = (),
        implied: frozenset[str] = frozenset(),
        cues: re.Pattern[str] | None = None,
    ) -> str | None:
        """The scope key of `text`, or None for a general fact.

        `ignore` are the spans of the slot's own phrases ("window seat", "红眼航班"),
        `implied` the modes the slot already means, `cues` the stance cues of the schema.
        """
        chars = list(text)

        def blank(start: int, end: int) -> None:
            chars[start:end] = " " * (end - start)

        # Terms are matched in the text as written (a lookahead may read into the slot's
        # own phrase: "long train rides ... first class on the train"), longest first,
        # never inside the slot's phrases or each other.
        taken: list[Span] = list(ignore)
        facets: set[Facet] = set()

        def free(start: int, end: int) -> bool:
            return end > start and not any(start < e and s < end for s, e in taken)

        for m in self._default.finditer(text):
            if free(*m.span()):
                taken.append(m.span())
        blanked = list(text)  # the slot's phrases and the default context out, terms still in
        for start, end in taken:
            blanked[start:end] = " " * (end - start)
        shaped = "".join(blanked)
        for op, pattern in _DURATIONS:
            for m in pattern.finditer(text):
                if free(*m.span()):
                    taken.append(m.span())
                    facets.add(("trip", f"{op}{_number(m.group('n'))}h"))
        found = [(m.span(), term) for term in self._terms for m in term.pattern.finditer(text)]
        found += [
            (m.span(), self._place_names[m.group(0).casefold()])
            for m in self._place_pattern.finditer(text)
        ]
        found.sort(key=lambda f: (f[0][0] - f[0][1], f[0][0]))
        for span, term in found:
            if free(*span):
                taken.append(span)
                if not (term.kind == "mode" and term.id in implied):
                    facets.add((term.kind, term.id))
        # A name in a place shape ("去婺源玩", "over the Alps") that no term claimed.
        for pattern in self._places:
            for m in pattern.finditer(shaped):
                place = self._place(m.group("place"))
                if place and free(*m.span("place")):
                    facets.add(("place", place))
                    taken.append(m.span("place"))
        for start, end in taken:
            blank(start, end)
        for skipped in (cues, self._change):
            if skipped is not None:
                for m in skipped.finditer("".join(chars)):
                    blank(*m.span())
        current = "".join(chars)
        for pattern in self._conditions:
            for m in pattern.finditer(current):
                words = self._remainder(m.group(0))
                if words:
                    facets.add(("when", words))
        if facets == {("mode", "flight"), ("mode", "train")}:
            facets = set()  # "飞机高铁都靠窗": planes and trains are every ride with a seat
        if not facets:
            return None
        order = {kind: n for n, kind in enumerate(KINDS)}
        ordered = sorted(facets, key=lambda f: (order[f[0]], f[1].casefold()))
        return "|".join(f"{kind}:{ident}" for kind, ident in ordered)

    def _place(self, words: str) -> str:
        kept = [w for w in words.split() if w.casefold() not in self._not_places]
        if not kept or any(ch.isdigit() for w in kept for ch in w):
            return ""
        return " ".join(kept)

    def _remainder(self, span: str) -> str:
        """What a condition shape says beyond known terms, cues and filler words."""
        lowered = span.lower()
        english = [w for w in _EN_WORD.findall(lowered) if w not in self._fillers_en]
        for word in self._fillers_zh_words:
            lowered = lowered.replace(word, " ")
        chinese = [
            "".join(ch if ch not in self._fillers_zh_chars else " " for ch in run).split()
            for run in _CJK.findall(lowered)
        ]
        return " ".join([*english, *(w for run in chinese for w in run)])

    def known(self, kind: str, ident: str) -> bool:
        """Whether a facet is a term of the vocabulary or a place of the gazetteer (not a
        name read from a shape such as "to <Name>")."""
        return (kind, ident) in self._labels

    def label(self, key: str | None, lang: str) -> str:
        """The scope in words ("trains", "日本、温泉"); "" for the general value."""
        lang = "zh" if lang.lower().startswith("zh") else "en"
        parts = []
        for kind, ident in facets_of(key):
            labels = self._labels.get((kind, ident))
            if labels is not None:
                parts.append(labels[lang])
            elif kind == "trip" and ident[:1] in _DURATION_LABELS and ident.endswith("h"):
                parts.append(_DURATION_LABELS[ident[0]][lang].format(n=ident[1:-1]))
            else:
                parts.append(ident)
        return ("、" if lang == "zh" else ", ").join(parts)


def _number(raw: str) -> str:
    raw = raw.lower()
    if raw in _EN_NUMBERS:
        return str(_EN_NUMBERS[raw])
    if raw[0] in "十一二两三四五六七八九":
        tens, _, units = raw.partition("十")
        if "十" not in raw:
            return str(_ZH_DIGITS[raw])
        return str((_ZH_DIGITS.get(tens, 1) if tens else 1) * 10 + _ZH_DIGITS.get(units, 0))
    value = float(raw)
    return str(int(value)) if value.is_integer() else str(value)


def _name(name: str) -> str:
    """An English place name as a pattern; short abbreviations ("LA", "UK") match in capitals
    only, so "la" or "uk" inside ordinary text is no place."""
    pattern = rf"(?<![\w-]){re.escape(name)}(?![\w-])"
    short = name.isupper() and len(name.replace(".", "")) <= 4
    return f"(?-i:{pattern})" if short else pattern


def _need(ok: object, source: str, where: str) -> None:
    if not ok:
        raise ScopeTermsError(f"{source}: {where} is malformed")


def _both(data: Mapping[str, Any], name: str) -> list[str]:
    raw: Any = data.get(name)
    _need(isinstance(raw, dict) and set(raw) <= set(LANGS), "scope terms", name)
    return [p for lang in LANGS for p in raw.get(lang, [])]


def _compile(pattern: str, source: str, where: str, flags: int = re.IGNORECASE) -> re.Pattern[str]:
    try:
        compiled = re.compile(pattern, flags)
    except (re.error, TypeError) as exc:
        raise ScopeTermsError(f"{source}: {where}: pattern {pattern!r} is invalid: {exc}") from exc
    _need(not compiled.match(""), source, f"{where}: pattern {pattern!r} matches empty text")
    return compiled


def _alternation(patterns: Sequence[str], source: str, where: str) -> re.Pattern[str]:
    _need(patterns, source, f"{where}: no patterns")
    for pattern in patterns:
        _compile(pattern, source, where)
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


def load_scopes(path: str | Path | None = None) -> ScopeReader:
    """The vocabulary in `path`, by default the bundled `scope_terms.json`; cached per file."""
    return _load(Path(path) if path is not None else _DEFAULT_PATH)


@lru_cache(maxsize=8)
def _load(path: Path) -> ScopeReader:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ScopeTermsError(f"{path}: cannot read the scope terms: {exc}") from exc
    if not isinstance(data, dict):
        raise ScopeTermsError(f"{path}: the scope terms must be a JSON object")
    return ScopeReader(data, source=str(path))


def scope_label(key: str | None, lang: str) -> str:
    """`key` in words with the bundled vocabulary ("" for the general value)."""
    return load_scopes().label(key, lang)


__all__ = [
    "KINDS",
    "ScopeReader",
    "ScopeTermsError",
    "facets_of",
    "load_scopes",
    "same_scope",
    "scope_label",
]
