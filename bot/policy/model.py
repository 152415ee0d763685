"""A travel policy as data: what each grade may book, where, and who approves exceptions.

`bot.policy.loading` builds a `Policy` from an organisation's YAML file and refuses a
wrong one; this module only answers questions about a valid one. Every rule is by grade:
a person without a grade of their own gets `default_grade`, and a grade without a rule
of some kind (no rail class, say) has no limit of that kind.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bot.policy.tiers import OTHER, Tiers

# Cabins and train seats from the cheapest up: booking above the allowed one breaks it.
CABINS = ("economy", "premium_economy", "business", "first")
RAIL_CLASSES = ("second", "first", "business")
# The planner's seat codes (`TrainOption.seat_class`) for the policy's rail classes.
SEAT_CODES = {"second": "second_class", "first": "first_class", "business": "business_seat"}
RAIL_OF_SEAT = {code: rail for rail, code in SEAT_CODES.items()}


@dataclass(frozen=True, slots=True)
class CabinRule:
    """The highest cabin a grade flies; on flights of `long_haul_hours` or more, the
    `long_haul_cabin` when there is one."""

    cabin: str
    long_haul_cabin: str | None = None
    long_haul_hours: float | None = None

    def allowed(self, hours: float | None) -> str:
        """The highest cabin allowed on a flight of `hours` (None: length unknown)."""
        long = self.long_haul_cabin is not None and self.long_haul_hours is not None
        if long and hours is not None and hours >= (self.long_haul_hours or 0):
            return self.long_haul_cabin or self.cabin
        return self.cabin


@dataclass(frozen=True, slots=True)
class Approvers:
    """Who approves an exception: by department, else by grade, else anyone's."""

    default: tuple[str, ...] = ()
    grades: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    departments: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def of(self, grade: str, department: str | None = None) -> tuple[str, ...]:
        """The platform user ids who approve an exception of a person of `grade`."""
        if department and self.departments.get(department):
            return self.departments[department]
        if self.grades.get(grade):
            return self.grades[grade]
        return self.default

    @property
    def everyone(self) -> tuple[str, ...]:
        named = [*self.default, *(u for v in self.grades.values() for u in v)]
        named += [u for v in self.departments.values() for u in v]
        return tuple(dict.fromkeys(named))


@dataclass(frozen=True, slots=True)
class Policy:
    """One organisation's travel policy (see docs/travel-policy.md for every key)."""

    currency: str
    default_grade: str
    tiers: Tiers
    hotel_caps: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    rail_class: Mapping[str, str] = field(default_factory=dict)
    flight_cabin: Mapping[str, CabinRule] = field(default_factory=dict)
    advance_booking_days: int | None = None
    preferred_airlines: tuple[str, ...] = ()
    preferred_airlines_only: bool = False
    approvers: Approvers = field(default_factory=Approvers)
    name: str = ""

    @property
    def grades(self) -> tuple[str, ...]:
        """Every grade the policy names, the default first."""
        named = [self.default_grade, *self.hotel_caps, *self.rail_class, *self.flight_cabin]
        named += [*self.approvers.grades]
        return tuple(dict.fromkeys(named))

    def grade(self, assigned: str | None) -> str:
        """The grade whose rules apply: the assigned one when the policy names it."""
        return assigned if assigned and assigned in self.grades else self.default_grade

    def tier_of(self, names: Iterable[str]) -> str:
        return self.tiers.tier_of(names)

    def hotel_cap(self, grade: str, tier: str) -> int | None:
        """The most a night may cost for `grade` in a city of `tier` (None: no cap)."""
        caps = self.hotel_caps.get(grade)
        if not caps:
            return None
        return caps.get(tier, caps.get(OTHER))

    def cabin(self, grade: str, hours: float | None) -> str | None:
        rule = self.flight_cabin.get(grade)
        return rule.allowed(hours) if rule else None

    def rail(self, grade: str) -> str | None:
        return self.rail_class.get(grade)

    def approvers_of(self, grade: str, department: str | None = None) -> tuple[str, ...]:
        return self.approvers.of(grade, department)


def rank(order: tuple[str, ...], value: str) -> int:
    """Where `value` stands in `order` (unknown values stand above everything)."""
    return order.index(value) if value in order else len(order)


__all__ = [
    "CABINS",
    "RAIL_CLASSES",
    "RAIL_OF_SEAT",
    "SEAT_CODES",
    "Approvers",
    "CabinRule",
    "Policy",
    "rank",
]
