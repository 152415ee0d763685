"""Preference scoring: every candidate gets a score 0-100 and a one-line basis.

Typed profile slots (from `Memory.profile`, plus those recognised in the recalled summary
text) score deterministically: instant, explainable, no model needed. Free-text
preferences are scored by the fast model in one batched call when one is configured; its
answer only adjusts scores, and an invalid answer is ignored. With no preferences at all
every candidate gets `NEUTRAL` and a basis saying no preference is known.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import prompts
from bot.messages import t
from bot.planning.inventory.base import FlightOption, HotelOption, Option, TrainOption, describe
from bot.planning.inventory.catalogue import Catalogue
from memory.llm import complete_json
from memory.profile import ProfileSchema

log = logging.getLogger(__name__)

NEUTRAL = 50
HARD_CAP = 15  # a candidate breaking an explicit "avoid" or "must" scores at most this
MAX_LLM_CANDIDATES = 80
_SENTENCES = re.compile(r"[。；;！？!?\n]+|\.(?:\s+|$)")
_CLAUSES = re.compile(r"[,，、]")
_PREMIUM_CABINS = ("business", "first")
_PREMIUM_SEATS = ("business_seat", "first_class")
_PREMIUM_TIERS = ("upscale", "luxury")


@dataclass(frozen=True, slots=True)
class Preferences:
    """What is known of one traveller: typed slots, the hard ones, and the free text."""

    profile: Mapping[str, Any]
    hard: frozenset[str] = frozenset()
    text: str = ""

    @property
    def empty(self) -> bool:
        return not self.profile and not self.text.strip()


@dataclass(frozen=True, slots=True)
class Scored:
    option: Option
    score: int
    basis: str


@dataclass(frozen=True, slots=True)
class _Reason:
    delta: int
    key: str  # a `score_*` message of bot.messages
    values: tuple[tuple[str, str], ...] = ()
    hard: bool = False

    def text(self, lang: str) -> str:
        return t(self.key, lang, **dict(self.values))


def _r(delta: int, key: str, *, hard: bool = False, **values: str) -> _Reason:
    return _Reason(delta, key, tuple(values.items()), hard)


def read_preferences(profile: Mapping[str, Any], text: str, schema: ProfileSchema) -> Preferences:
    """Merge the stored profile with the slots the summary text states.

    The stored profile wins where both speak; a slot stated as "must" or "avoid" in the
    text is hard. A slot stated for a scope only ("on trains I like a window seat", "for
    flights to New York a red-eye is fine") is no general value and is left to the model
    with the rest of the text, which reads what slots cannot.
    """
    merged: dict[str, Any] = {k: v for k, v in profile.items() if v not in (None, "", [], ())}
    hard: set[str] = set()
    for sentence in _SENTENCES.split(text or ""):
        if not sentence.strip():
            continue
        match = schema.detect(sentence)
        matches = [match] if match else [schema.detect(p) for p in _CLAUSES.split(sentence)]
        for found in matches:
            if found is None or found.scope is not None:
                continue
            value = list(found.value) if isinstance(found.value, tuple) else found.value
            merged.setdefault(found.slot, value)
            if found.polarity in ("must", "avoid") and merged[found.slot] == value:
                hard.add(found.slot)
    return Preferences(profile=merged, hard=frozenset(hard), text=(text or "").strip())


class Scorer:
    """Scores legs of candidates; `client`/`model` enable the free-text pass."""

    def __init__(
        self,
        *,
        catalogue: Catalogue,
        schema: ProfileSchema,
        client: Any | None = None,
        model: str = "",
    ) -> None:
        self.catalogue = catalogue
        self.schema = schema
        self._client = client
        self._model = model

    def score(
        self, legs: Mapping[str, Sequence[Option]], prefs: Preferences, lang: str
    ) -> dict[str, list[Scored]]:
        """Each leg's candidates scored and sorted best first (ties keep time/price order)."""
        if prefs.empty:
            basis = t("score_no_prefs", lang)
            return {
                leg: [Scored(o, NEUTRAL, basis) for o in sorted(opts, key=lambda o: o.sort_key)]
                for leg, opts in legs.items()
            }
        has_trains = any(isinstance(o, TrainOption) for opts in legs.values() for o in opts)
        judged = self._judge(legs, prefs, lang)
        out: dict[str, list[Scored]] = {}
        for leg, opts in legs.items():
            scored = [
                self._combine(o, self._reasons(o, opts, prefs, has_trains, lang), judged, lang)
                for o in opts
            ]
            out[leg] = sorted(scored, key=lambda s: (-s.score, s.option.sort_key))
        return out

    # Deterministic rules -------------------------------------------------------

    def _reasons(
        self,
        option: Option,
        leg: Sequence[Option],
        prefs: Preferences,
        has_trains: bool,
        lang: str,
    ) -> list[_Reason]:
        p, mode = prefs.profile, prefs.profile.get("transport_mode")
        found: list[_Reason] = []
        if isinstance(option, FlightOption):
            found += self._flight(option, p, prefs.hard, lang)
            if mode == "prefer_rail" and has_trains:
                found.append(_r(-10, "score_flight_prefers_rail"))
            elif mode == "prefer_flight":
                found.append(_r(5, "score_flight_preferred"))
        elif isinstance(option, TrainOption):
            found += self._train(option, p, prefs.hard, lang)
            if mode == "prefer_rail":
                found.append(_r(10, "score_train_preferred"))
            elif mode == "prefer_flight":
                found.append(_r(-10, "score_train_prefers_flight"))
        else:
            found += self._hotel(option, p, lang)
        found += self._budget(option, leg, p.get("budget_sensitivity"))
        return found

    def _label(self, slot: str, value: str, lang: str) -> str:
        return self.schema.slot(slot).option(value).label(lang)

    def _flight(
        self, f: FlightOption, p: Mapping[str, Any], hard: frozenset[str], lang: str
    ) -> list[_Reason]:
        out: list[_Reason] = []
        red_eye = p.get("red_eye")
        if red_eye == "avoid":
            out.append(
                _r(-45, "score_red_eye_avoided", hard=True)
                if f.red_eye
                else _r(5, "score_not_red_eye")
            )
        elif red_eye == "accept" and f.red_eye:
            out.append(_r(0, "score_red_eye_accepted"))
        name = self.catalogue.carrier_name(f.carrier, lang)
        if f.carrier in (p.get("avoided_airlines") or ()):
            out.append(_r(-40, "score_airline_avoided", hard=True, name=name))
        preferred = p.get("preferred_airlines") or ()
        if f.carrier in preferred:
            out.append(_r(25, "score_airline_preferred", name=name))
        elif preferred:
            names = ("、" if lang == "zh" else ", ").join(
                self.catalogue.carrier_name(code, lang) for code in preferred
            )
            out.append(_r(-5, "score_airline_not_preferred", name=name, preferred=names))
        limit = str(p.get("max_transfers", ""))
        if limit.isdigit() and f.stops > int(limit):
            key = "score_nonstop_only" if limit == "0" else "score_too_many_stops"
            strict = "max_transfers" in hard
            out.append(_r(-35, key, hard=strict, stops=str(f.stops), limit=limit))
        elif limit.isdigit() and f.stops == 0:
            out.append(_r(5, "score_nonstop"))
        cabin = p.get("cabin_class")
        if cabin and f.cabin == cabin:
            out.append(_r(15, "score_cabin_match", cabin=self._label("cabin_class", cabin, lang)))
        elif cabin:
            here = self._label("cabin_class", f.cabin, lang)
            wanted = self._label("cabin_class", cabin, lang)
            strict = "cabin_class" in hard
            out.append(_r(-15, "score_cabin_mismatch", hard=strict, cabin=here, wanted=wanted))
        return out

    def _train(
        self, train: TrainOption, p: Mapping[str, Any], hard: frozenset[str], lang: str
    ) -> list[_Reason]:
        wanted = p.get("rail_class")
        if not wanted:
            return []
        seat = self._label("rail_class", train.seat_class, lang)
        if train.seat_class == wanted:
            return [_r(20, "score_rail_match", seat=seat)]
        strict = "rail_class" in hard
        wanted_label = self._label("rail_class", wanted, lang)
        return [
            _r(
                -35 if strict else -20,
                "score_rail_mismatch",
                hard=strict,
                seat=seat,
                wanted=wanted_label,
            )
        ]

    def _hotel(self, h: HotelOption, p: Mapping[str, Any], lang: str) -> list[_Reason]:
        out: list[_Reason] = []
        breakfast = p.get("breakfast")
        if breakfast == "required":
            out.append(
                _r(20, "score_breakfast_included")
                if h.breakfast
                else _r(-30, "score_breakfast_missing", hard=True)
            )
        elif breakfast == "not_needed":
            out.append(
                _r(-5, "score_breakfast_unneeded") if h.breakfast else _r(5, "score_room_only_ok")
            )
        name = self.catalogue.hotel_brand_name(h.brand, lang)
        preferred = p.get("preferred_hotel_brands") or ()
        if h.brand in (p.get("avoided_hotel_brands") or ()):
            out.append(_r(-40, "score_brand_avoided", hard=True, name=name))
        elif h.brand in preferred:
            out.append(_r(25, "score_brand_preferred", name=name))
        elif preferred:
            out.append(_r(-5, "score_brand_not_preferred", name=name))
        return out

    def _budget(self, option: Option, leg: Sequence[Option], budget: Any) -> list[_Reason]:
        if budget == "budget_conscious":
            prices = sorted({_price(o) for o in leg if type(o) is type(option)})
            if len(prices) < 2:
                return []
            rank = prices.index(_price(option)) / (len(prices) - 1)  # 0 cheapest .. 1 dearest
            delta = round(15 - 30 * rank)
            if delta >= 5:
                return [_r(delta, "score_budget_cheap")]
            return [_r(delta, "score_budget_dear")] if delta <= -5 else []
        if budget == "comfort_first" and _premium(option):
            return [_r(10, "score_comfort")]
        return []

    # Free text through the fast model -----------------------------------------------

    def _judge(
        self, legs: Mapping[str, Sequence[Option]], prefs: Preferences, lang: str
    ) -> dict[str, tuple[int, str]]:
        """{candidate id: (score, basis)} from one batched call; {} when unavailable."""
        if self._client is None or not self._model or not prefs.text:
            return {}
        rows = [
            {"id": o.id, "leg": leg, "offer": describe(o, self.catalogue, "en")}
            for leg, opts in legs.items()
            for o in opts
        ][:MAX_LLM_CANDIDATES]
        prompt = prompts.render(
            "candidate_scoring.md",
            preferences=prefs.text,
            language="Chinese" if lang == "zh" else "English",
            candidates=json.dumps(rows, ensure_ascii=False),
        )
        try:
            answer = complete_json(self._client, self._model, prompt)
        except Exception as exc:  # timeouts, refusals, bad JSON: score from slots only
            log.warning("free-text scoring unavailable (%s)", type(exc).__name__)
            return {}
        return _parse_judgement(answer, {row["id"] for row in rows})

    def _combine(
        self,
        option: Option,
        reasons: list[_Reason],
        judgements: Mapping[str, tuple[int, str]],
        lang: str,
    ) -> Scored:
        judged = judgements.get(option.id)
        score = NEUTRAL + sum(r.delta for r in reasons)
        ordered = sorted(reasons, key=lambda r: (not r.hard, -abs(r.delta)))
        parts = [r.text(lang) for r in ordered[:2]]
        if judged is not None:
            llm_score, llm_basis = judged
            score += (llm_score - NEUTRAL) // 2
            if llm_basis and llm_score != NEUTRAL:
                parts = [*parts[:1], llm_basis]
        score = max(0, min(100, score))
        if any(r.hard and r.delta < 0 for r in reasons):
            score = min(score, HARD_CAP)
        if not parts:
            parts = [t("score_nothing_applies", lang)]
        return Scored(option, score, ("；" if lang == "zh" else "; ").join(parts))


def _parse_judgement(answer: object, known: set[str]) -> dict[str, tuple[int, str]]:
    if not isinstance(answer, dict) or not isinstance(answer.get("scores"), list):
        return {}
    out: dict[str, tuple[int, str]] = {}
    for row in answer["scores"]:
        if not isinstance(row, dict):
            continue
        cid, score, basis = row.get("id"), row.get("score"), row.get("basis", "")
        if cid not in known or isinstance(score, bool) or not isinstance(score, int | float):
            continue
        if not 0 <= score <= 100 or not isinstance(basis, str):
            continue
        out[str(cid)] = (round(score), " ".join(basis.split())[:120])
    return out


def _price(option: Option) -> int:
    return option.price_per_night if isinstance(option, HotelOption) else option.price


def _premium(option: Option) -> bool:
    if isinstance(option, FlightOption):
        return option.cabin in _PREMIUM_CABINS
    if isinstance(option, TrainOption):
        return option.seat_class in _PREMIUM_SEATS
    return option.tier in _PREMIUM_TIERS
