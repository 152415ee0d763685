"""Checking one option against one traveller's rules, and saying each break in words.

An `Allowance` is what a policy allows one grade; it checks neutral facts (a hotel's
city and price per night, a flight's cabin, length, airline and how far ahead it is
booked, a train seat), so the planner's own option types stay in `bot.planning`. A
`Break` is one rule an option breaks, kept as data (the rule and its values, both
languages' names included), so it can be said in the traveller's language now and in
an approver's or an auditor's later:

    超出差标：成都酒店上限 400/晚（L1），此酒店 580/晚
    business class: L1 flies economy
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.messages import t
from bot.policy.model import CABINS, RAIL_CLASSES, RAIL_OF_SEAT, Policy, rank
from bot.policy.tiers import fold

HOTEL_CAP = "hotel_cap"
FLIGHT_CABIN = "flight_cabin"
RAIL_CLASS = "rail_class"
ADVANCE_BOOKING = "advance_booking"
PREFERRED_AIRLINES = "preferred_airlines"
STATED = "stated"  # a break known only by its words, as a plan said it
RULES = (HOTEL_CAP, FLIGHT_CABIN, RAIL_CLASS, ADVANCE_BOOKING, PREFERRED_AIRLINES, STATED)

CABIN_LABELS = {
    "economy": ("economy", "经济舱"),
    "premium_economy": ("premium economy", "超级经济舱"),
    "business": ("business class", "商务舱"),
    "first": ("first class", "头等舱"),
}
RAIL_LABELS = {
    "second": ("second class", "二等座"),
    "first": ("first class", "一等座"),
    "business": ("business seat", "商务座"),
}
# The values that name the limit broken (not the option): breaks of one limit group.
_LIMIT = {
    HOTEL_CAP: ("city_en", "city_zh", "cap", "grade"),
    FLIGHT_CABIN: ("allowed", "grade", "hours"),
    RAIL_CLASS: ("allowed", "grade"),
    ADVANCE_BOOKING: ("days", "required"),
    PREFERRED_AIRLINES: ("preferred_en", "preferred_zh"),
    STATED: ("text",),
}


@dataclass(frozen=True, slots=True)
class Named:
    """A city or an airline by every name it goes by, and its name in each language."""

    en: str
    zh: str
    names: tuple[str, ...] = ()

    def name(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en

    @property
    def all(self) -> tuple[str, ...]:
        return (self.en, self.zh, *self.names)


@dataclass(frozen=True, slots=True)
class Break:
    """One rule an option breaks; `values` are plain strings (see `text`)."""

    rule: str
    values: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, rule: str, **values: object) -> Break:
        return cls(rule, tuple((k, str(v)) for k, v in values.items()))

    @classmethod
    def stated(cls, text: str) -> Break:
        """A break known only by its words (a plan's `policy_breaks`), said as written."""
        return cls.of(STATED, text=" ".join(text.split()))

    def text(self, lang: str) -> str:
        """The break in words, in `lang` ("en" or "zh")."""
        return t(f"policy_break_{self._key}", lang, **_words(self.rule, dict(self.values), lang))

    @property
    def _key(self) -> str:
        values = dict(self.values)
        return (
            f"{self.rule}_long" if self.rule == FLIGHT_CABIN and values.get("hours") else self.rule
        )

    @property
    def limit(self) -> tuple[str, tuple[tuple[str, str], ...]]:
        """The limit broken, whatever the option: breaks of one limit are grouped."""
        keep = _LIMIT.get(self.rule, ())
        return self.rule, tuple((k, v) for k, v in self.values if k in keep)

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "values": dict(self.values)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Break:
        values = data.get("values") or {}
        return cls(str(data["rule"]), tuple((str(k), str(v)) for k, v in values.items()))


@dataclass(frozen=True, slots=True)
class Allowance:
    """What `policy` allows a person of `grade` (who belongs to `department`)."""

    policy: Policy
    grade: str
    department: str | None = None
    version: int = 0

    def hotel(self, city: Named, price_per_night: int) -> list[Break]:
        cap = self.policy.hotel_cap(self.grade, self.policy.tier_of(city.all))
        if cap is None or price_per_night <= cap:
            return []
        return [
            Break.of(
                HOTEL_CAP,
                city_en=city.en,
                city_zh=city.zh,
                cap=cap,
                grade=self.grade,
                price=price_per_night,
            )
        ]

    def flight(
        self,
        cabin: str,
        *,
        hours: float | None,
        airline: Named,
        days_ahead: int | None,
        preferred: Sequence[Named] = (),
    ) -> list[Break]:
        """`preferred`: the policy's preferred airlines by name, for the words of a break
        (as the policy writes them when not given)."""
        found: list[Break] = []
        allowed = self.policy.cabin(self.grade, hours)
        if allowed is not None and rank(CABINS, cabin) > rank(CABINS, allowed):
            rule = self.policy.flight_cabin[self.grade]
            long = rule.long_haul_cabin is not None and allowed == rule.cabin
            hours_text = _hours(rule.long_haul_hours) if long else ""
            found.append(
                Break.of(
                    FLIGHT_CABIN, cabin=cabin, allowed=allowed, grade=self.grade, hours=hours_text
                )
            )
        required = self.policy.advance_booking_days
        if required is not None and days_ahead is not None and days_ahead < required:
            found.append(Break.of(ADVANCE_BOOKING, days=max(days_ahead, 0), required=required))
        if self.policy.preferred_airlines_only and not self.preferred(airline):
            names = list(preferred) or [Named(n, n) for n in self.policy.preferred_airlines]
            found.append(
                Break.of(
                    PREFERRED_AIRLINES,
                    airline_en=airline.en,
                    airline_zh=airline.zh,
                    preferred_en=", ".join(n.en for n in names),
                    preferred_zh="、".join(n.zh for n in names),
                )
            )
        return found

    def train(self, seat_code: str) -> list[Break]:
        allowed = self.policy.rail(self.grade)
        seat = RAIL_OF_SEAT.get(seat_code, seat_code)
        if allowed is None or rank(RAIL_CLASSES, seat) <= rank(RAIL_CLASSES, allowed):
            return []
        return [Break.of(RAIL_CLASS, seat=seat, allowed=allowed, grade=self.grade)]

    def preferred(self, airline: Named) -> bool:
        """Whether the policy prefers `airline` (named by its code or either name)."""
        wanted = {fold(name) for name in self.policy.preferred_airlines}
        return any(fold(name) in wanted for name in airline.all if name)


def summarise(breaks: Iterable[Break], lang: str) -> list[str]:
    """Why options were out of policy, one line per limit broken, most often first:
    "5 options over the Chengdu hotel cap of 400/night (L1)"."""
    counts = Counter(b.limit for b in breaks)
    lines = []
    for (rule, values), n in counts.most_common():
        words = _words(rule, dict(values), lang)
        key = (
            f"policy_why_{rule}_long"
            if rule == FLIGHT_CABIN and words.get("hours")
            else f"policy_why_{rule}"
        )
        lines.append(t(key, lang, n=n, **words))
    return lines


def texts(breaks: Sequence[Break], lang: str) -> list[str]:
    return [b.text(lang) for b in breaks]


def _words(rule: str, values: dict[str, str], lang: str) -> dict[str, str]:
    """The values as a message fills them in: names in `lang`, cabins and seats as words."""
    zh = lang == "zh"
    labels = {FLIGHT_CABIN: CABIN_LABELS, RAIL_CLASS: RAIL_LABELS}.get(rule, {})
    out: dict[str, str] = {}
    for key, value in values.items():
        if key.endswith(("_en", "_zh")):
            if key.endswith("_zh") == zh:
                out[key[:-3]] = value
            continue
        if key in ("cabin", "seat", "allowed") and value in labels:
            out[key] = labels[value][zh]
        else:
            out[key] = value
    return out


def _hours(hours: float | None) -> str:
    if hours is None:
        return ""
    return str(int(hours)) if float(hours).is_integer() else f"{hours:g}"


__all__ = [
    "ADVANCE_BOOKING",
    "CABIN_LABELS",
    "FLIGHT_CABIN",
    "HOTEL_CAP",
    "PREFERRED_AIRLINES",
    "RAIL_CLASS",
    "RAIL_LABELS",
    "RULES",
    "STATED",
    "Allowance",
    "Break",
    "Named",
    "summarise",
    "texts",
]
